#!/usr/bin/env python3
"""TPC-H lineitem as Parquet: flow against DuckDB and pyarrow, in the same run.

    python3 Scripts/compare_parquet.py FLOW_BINARY [--csv PATH/lineitem.csv] [--runs 3]

1. DuckDB writes lineitem (tpchgen-cli's CSV, SF1 by default) as Parquet, snappy and zstd,
   under .build/tpch-parquet/<the CSV's folder name>/ (once; kept).
2. Q1 from each file: `flow run` on Examples/tpch/q01.flow.json with its readCSV replaced by
   readParquet (whole process: wall time, peak RSS by GNU time), against DuckDB running
   Examples/tpch/queries/q01.sql with `read_parquet` in a child process (query time in process,
   the child's peak RSS). The rows are compared first.
3. Writing lineitem as snappy Parquet: `flow run` of readParquet → writeParquet against pyarrow's
   `read_table` → `write_table` in a child process (both whole processes, the same input file).

Prints Markdown rows of min / median / max seconds and the largest peak RSS. Runs under the venv
of Scripts/verify-tpch.py (.build/sql-venv: duckdb, pyarrow), or the Python it is started with
when that one already imports both.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import sql_venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".build", "tpch-parquet")

DUCKDB_Q1 = r"""
import duckdb, json, sys, time
sql = open(sys.argv[1]).read().replace("read_csv('data/lineitem.csv')", "read_parquet('" + sys.argv[2].replace("'", "''") + "')")
con = duckdb.connect()
con.execute("set enable_progress_bar = false")
start = time.perf_counter()
rows = con.execute(sql).fetchall()
print(json.dumps({"seconds": time.perf_counter() - start, "rows": [[str(v) for v in r] for r in rows]}))
"""

PYARROW_WRITE = r"""
import sys, pyarrow.parquet as pq
pq.write_table(pq.read_table(sys.argv[1]), sys.argv[2], compression="snappy")
"""


def run_measured(argv, cwd=None):
    """(wall seconds, peak RSS in MB, stdout) of argv under GNU time."""
    with tempfile.NamedTemporaryFile() as rss:
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name, *argv], capture_output=True, text=True, cwd=cwd)
        elapsed = time.perf_counter() - start
        peak = int(open(rss.name).read().split()[-1]) / 1024
    if done.returncode != 0:
        raise RuntimeError(f"{os.path.basename(argv[0])} exited {done.returncode}: {(done.stderr or done.stdout)[:800]}")
    return elapsed, peak, done.stdout


def stats(values):
    return min(values), statistics.median(values), max(values)


def cell(times, peaks):
    low, middle, high = stats(times)
    return f"{low:.3f} / **{middle:.3f}** / {high:.3f} s, {max(peaks):.0f} MB"


def parquet_files(csv):
    import duckdb
    folder = os.path.join(OUT, os.path.basename(os.path.dirname(csv)))
    os.makedirs(folder, exist_ok=True)
    files = {}
    for codec in ("snappy", "zstd"):
        path = os.path.join(folder, f"lineitem-{codec}.parquet")
        if not os.path.exists(path):
            partial = path + ".partial"
            duckdb.sql(f"COPY (SELECT * FROM read_csv('{csv}')) TO '{partial}' (FORMAT parquet, COMPRESSION {codec})")
            os.replace(partial, path)
        files[codec] = path
    return files


def q1_document(folder, parquet):
    with open(os.path.join(ROOT, "Examples", "tpch", "q01.flow.json")) as f:
        document = json.load(f)
    for node in document["nodes"]:
        if node["data"]["kind"] == "readCSV":
            node["data"]["kind"] = "readParquet"
            node["data"]["params"] = {"path": parquet}
    path = os.path.join(folder, "q01-parquet.flow.json")
    with open(path, "w") as f:
        json.dump(document, f)
    return path


def write_document(folder, parquet, target):
    document = {"flowRuntime": {"formatVersion": 1},
                "nodes": [{"id": "read", "data": {"kind": "readParquet", "params": {"path": parquet}}},
                          {"id": "write", "data": {"kind": "writeParquet", "params": {"path": target, "compression": "snappy"}}}],
                "edges": [{"id": "e", "sourceNodeID": "read", "sourceHandleID": "table", "targetNodeID": "write", "targetHandleID": "table"}]}
    path = os.path.join(folder, "write-parquet.flow.json")
    with open(path, "w") as f:
        json.dump(document, f)
    return path


def same_rows(flow_rows, duck_rows):
    if len(flow_rows) != len(duck_rows):
        return False
    for got, want in zip(flow_rows, duck_rows):
        for a, b in zip(got, want):
            try:
                if abs(float(a) - float(b)) > 1e-6 * max(1.0, abs(float(b))):
                    return False
            except ValueError:
                if str(a) != str(b):
                    return False
    return True


def main(argv):
    sql_venv.run_in_venv(__file__, [("duckdb", "import duckdb"), ("pyarrow", "import pyarrow")])
    args = list(argv[1:])
    if not args or args[0].startswith("-"):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 64
    flow = os.path.abspath(args.pop(0))
    csv, runs = os.path.join(ROOT, ".build", "tpch", "sf1", "lineitem.csv"), 3
    while args:
        option = args.pop(0)
        if option == "--csv": csv = os.path.abspath(args.pop(0))
        elif option == "--runs": runs = int(args.pop(0))
    files = parquet_files(csv)
    sql = os.path.join(ROOT, "Examples", "tpch", "queries", "q01.sql")
    print(f"lineitem from {csv}: " + ", ".join(f"{c} {os.path.getsize(p) / 1e6:.0f} MB" for c, p in files.items()))
    print("| what | flow (process) | other (DuckDB: query in process; pyarrow: process) | flow ÷ other (median) |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        allow = ["--allow-read", OUT]
        for codec, parquet in files.items():
            document = q1_document(folder, parquet)
            argv = [flow, "run", document, "--format", "csv", *allow]
            _, _, text = run_measured(argv)
            flow_rows = [line.split(",") for line in text.strip().splitlines()[1:]]
            duck = [sys.executable, "-c", DUCKDB_Q1, sql, parquet]
            want = json.loads(run_measured(duck)[2])["rows"]
            if not same_rows(flow_rows, want):
                print(f"| Q1 {codec} | rows differ: {flow_rows[:2]} vs {want[:2]} | | |")
                continue
            flow_times, flow_peaks, duck_times, duck_peaks = [], [], [], []
            for _ in range(runs):
                seconds, peak, _ = run_measured(argv)
                flow_times.append(seconds); flow_peaks.append(peak)
                _, peak, out = run_measured(duck)
                duck_times.append(json.loads(out)["seconds"]); duck_peaks.append(peak)
            ratio = statistics.median(flow_times) / statistics.median(duck_times)
            print(f"| Q1 from {codec} Parquet | {cell(flow_times, flow_peaks)} | {cell(duck_times, duck_peaks)} | ×{ratio:.2f} |", flush=True)
        source = files["snappy"]
        ours, theirs = os.path.join(folder, "flow.parquet"), os.path.join(folder, "pyarrow.parquet")
        document = write_document(folder, source, ours)
        argv = [flow, "run", document, *allow, "--allow-write", folder]
        flow_times, flow_peaks, arrow_times, arrow_peaks = [], [], [], []
        for _ in range(runs):
            seconds, peak, _ = run_measured(argv)
            flow_times.append(seconds); flow_peaks.append(peak)
            seconds, peak, _ = run_measured([sys.executable, "-c", PYARROW_WRITE, source, theirs])
            arrow_times.append(seconds); arrow_peaks.append(peak)
        sizes = f"flow {os.path.getsize(ours) / 1e6:.0f} MB, pyarrow {os.path.getsize(theirs) / 1e6:.0f} MB"
        ratio = statistics.median(flow_times) / statistics.median(arrow_times)
        print(f"| read + write lineitem as snappy Parquet ({sizes}) | {cell(flow_times, flow_peaks)} | "
              f"{cell(arrow_times, arrow_peaks)} | ×{ratio:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
