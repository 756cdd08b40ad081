#!/usr/bin/env python3
"""The 22 TPC-H queries of Examples/tpch: `flow run` against DuckDB on tpchgen-cli's files.

    python3 Scripts/compare_tpch.py FLOW_BINARY [--scale 1] [--runs 3] [--threads N] [QUERY ...]

For each query, in the same run and alternating the tools: `flow run qNN.flow.json` as a whole
process (wall time from spawn to exit, peak RSS of the process, read by GNU time), and DuckDB running the
specification's SQL (Examples/tpch/queries/qNN.sql) in a child Python process that reads the
same CSV files with `read_csv` (the time of the query in process, peak RSS of the child). The
rows are compared first (as Scripts/verify-tpch.py does); a query whose rows differ is
reported and not timed. Prints a Markdown table of min / median / max seconds and peak RSS.

Uses the venv of Scripts/verify-tpch.py (.build/sql-venv: duckdb, tpchgen-cli) and its data
folder (.build/tpch/sf<SCALE>/), both made when missing.
"""
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import sql_venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("verify_tpch", os.path.join(ROOT, "Scripts", "verify-tpch.py"))
verify = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify)

DUCKDB_CHILD = r"""
import duckdb, json, os, re, sys, time
sql_path, data, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
tables = TABLES_LIST
with open(sql_path) as f:
    sql = re.sub(r"read_csv\('data/(" + "|".join(tables) + r")\.csv'\)",
                 lambda m: "read_csv('" + os.path.join(data, m.group(1) + ".csv").replace("'", "''") + "')", f.read())
con = duckdb.connect()
con.execute("set enable_progress_bar = false")
if threads > 0:
    con.execute(f"set threads = {threads}")
start = time.perf_counter()
rows = con.execute(sql).fetchall()
elapsed = time.perf_counter() - start
print(json.dumps({"seconds": elapsed, "rows": len(rows)}))
""".replace("TABLES_LIST", repr(verify.TABLES))


def run_measured(argv):
    """(wall seconds, the child's own peak RSS in MB, stdout) of argv, run under GNU time
    (/usr/bin/time): a child this process forks (or vforks) would start with this process's
    peak RSS, which holds DuckDB's tables for the row check; time's child starts small."""
    with tempfile.NamedTemporaryFile() as rss, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name, *argv], stdout=out, stderr=err)
        elapsed = time.perf_counter() - start
        out.seek(0); err.seek(0)
        text, problem = out.read().decode(), err.read().decode()
        peak = int(open(rss.name).read().split()[-1]) / 1024
    if done.returncode != 0:
        raise RuntimeError(f"{os.path.basename(argv[0])} exited {done.returncode}: {(problem or text)[:500]}")
    return elapsed, peak, text


def flow_argv(flow, document, data, threads):
    argv = [flow, "run", document, "--format", "csv", *verify.reader_arguments(document, data)]
    if threads > 0:
        argv += ["--threads", str(threads)]
    return argv


def ensure_venv():
    """Runs this script again under verify-tpch's venv, completed first if needed."""
    sql_venv.run_in_venv(__file__, verify.REQUIREMENTS)


def stats(values):
    return min(values), statistics.median(values), max(values)


def main(argv):
    args = [a for a in argv[1:]]
    if not args or args[0].startswith("-"):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 64
    flow = os.path.abspath(args.pop(0))
    scale, runs, threads, queries = "1", 3, 0, []
    while args:
        a = args.pop(0)
        if a == "--scale": scale = args.pop(0)
        elif a == "--runs": runs = int(args.pop(0))
        elif a == "--threads": threads = int(args.pop(0))
        else: queries.append(a)
    ensure_venv()
    data = verify.ensure_data(scale)
    queries = queries or [f"q{n:02d}" for n in range(1, 23)]
    con = verify.duckdb_connection(data)
    print(f"TPC-H SF{scale} (tpchgen-cli), {runs} runs each, flow {'--threads ' + str(threads) if threads else 'default threads'}; "
          f"seconds min / median / max, peak RSS", flush=True)
    print("| query | `flow run` (process) | DuckDB (in process) | flow ÷ DuckDB (median) | rows |")
    print("|---|---|---|---|---|")
    ratios = []
    for query in queries:
        document = os.path.join(verify.TPCH, f"{query}.flow.json")
        sql = os.path.join(verify.TPCH, "queries", f"{query}.sql")
        try:
            difference = verify.compare(verify.run_flow(flow, document, data), verify.run_duckdb(con, sql))
        except Exception as error:  # noqa: BLE001 — reported per query
            print(f"| {query} | failed: {str(error)[:120]} | | | |", flush=True)
            continue
        if difference:
            print(f"| {query} | rows differ: {difference[:120]} | | | |", flush=True)
            continue
        flow_times, flow_rss, duck_times, duck_rss, rows = [], [], [], [], 0
        child = [sys.executable, "-c", DUCKDB_CHILD, sql, data, str(threads)]
        for _ in range(runs):
            seconds, rss, _ = run_measured(flow_argv(flow, document, data, threads))
            flow_times.append(seconds); flow_rss.append(rss)
            _, rss, out = run_measured(child)
            result = json.loads(out)
            duck_times.append(result["seconds"]); duck_rss.append(rss); rows = result["rows"]
        f, d = stats(flow_times), stats(duck_times)
        ratio = f[1] / d[1]
        ratios.append(ratio)
        print(f"| {query} | {f[0]:.2f} / **{f[1]:.2f}** / {f[2]:.2f} s, {max(flow_rss):.0f} MB "
              f"| {d[0]:.2f} / **{d[1]:.2f}** / {d[2]:.2f} s, {max(duck_rss):.0f} MB | ×{ratio:.2f} | {rows} |", flush=True)
    if ratios:
        geomean = statistics.geometric_mean(ratios)
        print(f"\n{len(ratios)} queries timed; geometric mean of flow ÷ DuckDB: ×{geomean:.2f}; "
              f"at or under DuckDB: {sum(r <= 1 for r in ratios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
