#!/usr/bin/env python3
"""The TPC-H queries of Examples/tpch against DuckDB, on tpchgen-cli's CSV files.

    python3 Scripts/verify-tpch.py FLOW_BINARY [--scale 0.01] [QUERY ...]

Each Examples/tpch/qNN.flow.json is run with `flow run --format json`, its readers pointed at
the generated tables (`--set <table>.path=…` with `--allow-read`), and its one result table is
compared with what DuckDB gives for Examples/tpch/queries/qNN.sql (the specification's SQL;
each `read_csv('data/<table>.csv')` in it reads the same file, loaded once per run): the
column names, the row count and every cell in order (every query orders its rows, or gives one
row). Each query then runs twice with `--cache` into a new folder: the first run must give the
same table, the second must run no node and serve the same table from the cache. Numbers agree within a relative (and absolute) tolerance of 1e-9 — sums of doubles
depend on their order — integers exactly, dates as ISO text, text exactly, nulls only with
nulls. One line per query, a summary, and exit status 1 when any query differs or fails.

The Python side (duckdb and tpchgen-cli from PyPI) lives in .build/sql-venv, the venv that
Scripts/verify-sql.sh makes (tpchgen-cli is added to it); the tables in
.build/tpch/sf<SCALE>/, generated once. Both steps are skipped when already done.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import sql_venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = sql_venv.VENV
VENV_PYTHON = sql_venv.PYTHON
# What the queries and the data need in the venv (compare_tpch.py needs the same).
REQUIREMENTS = [("duckdb", "import duckdb"), ("tpchgen-cli", None)]
TPCH = os.path.join(ROOT, "Examples", "tpch")
TABLES = ["customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier"]
TOLERANCE = 1e-9
READ_CSV = re.compile(r"read_csv\('data/(%s)\.csv'\)" % "|".join(TABLES))
USAGE = "usage: Scripts/verify-tpch.py FLOW_BINARY [--scale 0.01] [QUERY ...]"


def fail(message):
    print(f"verify-tpch: {message}", file=sys.stderr)
    sys.exit(2)


def ensure_venv():
    """Runs this script again under the venv's Python, made or completed first if needed."""
    sql_venv.run_in_venv(__file__, REQUIREMENTS)


def ensure_data(scale):
    """The tables at this scale, generated into a temporary folder and renamed into place."""
    folder = os.path.join(ROOT, ".build", "tpch", f"sf{scale}")
    if all(os.path.exists(os.path.join(folder, f"{t}.csv")) for t in TABLES):
        return folder
    partial = folder + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    shutil.rmtree(folder, ignore_errors=True)
    generator = os.path.join(VENV, "bin", "tpchgen-cli")
    subprocess.run([generator, "csv", "-s", scale, "-o", partial, "-q"], check=True)
    os.rename(partial, folder)
    return folder


def reader_arguments(document, data):
    """`--allow-read DATA` and a `--set <reader>.path=DATA/<table>.csv` for each readCSV node."""
    with open(document) as f:
        nodes = json.load(f)["nodes"]
    arguments = ["--allow-read", data]
    for node in nodes:
        if node["data"]["kind"] == "readCSV":
            table = os.path.basename(node["data"]["params"]["path"])
            arguments += ["--set", f"{node['id']}.path={os.path.join(data, table)}"]
    return arguments


def run_flow(flow, document, data, extra=(), report=None):
    """The one table the document prints, as (columns, rows); columns is None for no rows.
    With a dict as `report`, runs with `--report` and fills it with the run's report."""
    command = [flow, "run", document, "--format", "json", *reader_arguments(document, data), *extra]
    if report is not None:
        command.append("--report")
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"flow run exited {done.returncode}: {(done.stderr or done.stdout).strip()[:2000]}")
    root = json.loads(done.stdout)
    if report is not None:
        report.update(root.get("report", {}))
    outputs = root["outputs"]
    tables = [ports["table"] for ports in outputs.values() if "table" in ports]
    if len(tables) != 1:
        raise RuntimeError(f"expected one result table, found the outputs of {sorted(outputs)}")
    rows = tables[0]
    columns = list(rows[0]) if rows else None
    return columns, [[row[c] for c in columns] for row in rows]


def duckdb_connection(data):
    """One in-memory database holding each table as `read_csv` reads it, so that the queries
    do not parse the same files 22 times."""
    import duckdb
    con = duckdb.connect()
    for table in TABLES:
        path = os.path.join(data, f"{table}.csv").replace("'", "''")
        con.execute(f"create table tpch_{table} as select * from read_csv('{path}')")
    return con


def run_duckdb(con, sql_path):
    with open(sql_path) as f:
        sql = READ_CSV.sub(lambda m: f"tpch_{m.group(1)}", f.read())
    if "read_csv(" in sql:
        raise RuntimeError(f"{os.path.basename(sql_path)} reads a file other than read_csv('data/<table>.csv')")
    result = con.execute(sql)
    columns = [d[0] for d in result.description]
    return columns, [list(row) for row in result.fetchall()]


def same_cell(ours, theirs):
    if ours is None or theirs is None:
        return ours is None and theirs is None
    if hasattr(theirs, "isoformat"):
        theirs = theirs.isoformat()
    if isinstance(theirs, bool) or isinstance(ours, bool):
        return ours == theirs
    if isinstance(theirs, str) or isinstance(ours, str):
        return ours == theirs
    if isinstance(ours, int) and isinstance(theirs, int):
        return ours == theirs
    return math.isclose(float(ours), float(theirs), rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def compare(ours, theirs):
    """None when the tables agree, else what differs first."""
    (our_columns, our_rows), (their_columns, their_rows) = ours, theirs
    if our_columns is not None and our_columns != their_columns:
        return f"columns {our_columns}, DuckDB {their_columns}"
    if len(our_rows) != len(their_rows):
        return f"{len(our_rows)} rows, DuckDB {len(their_rows)}"
    for index, (a, b) in enumerate(zip(our_rows, their_rows)):
        for column, x, y in zip(their_columns, a, b):
            if not same_cell(x, y):
                return f"row {index + 1} column {column}: flow {x!r}, DuckDB {y!r}"
    return None


def from_cache(flow, document, data, expected):
    """The query run twice with `--cache` into a new folder: the first run gives the table of
    the run without a cache, the second runs no node and serves the same table from the cache.
    Returns what differs, or None."""
    scratch = tempfile.mkdtemp(prefix="flow-tpch-cache-")
    try:
        extra = ["--cache", os.path.join(scratch, "cache"), "--allow-write", scratch]
        if run_flow(flow, document, data, extra) != expected:
            return "with --cache, the first run gives another table"
        report = {}
        if run_flow(flow, document, data, extra, report) != expected:
            return "the second run with --cache gives another table"
        if report.get("ran") or not report.get("fromCache"):
            return f"the second run with --cache ran {report.get('ran')} and served {report.get('fromCache')}"
        return None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv):
    if not argv or argv[0].startswith("-"):
        fail(USAGE)
    flow = os.path.abspath(argv[0])
    scale, wanted, rest = "0.01", [], argv[1:]
    while rest:
        arg = rest.pop(0)
        if arg == "--scale" and rest:
            scale = rest.pop(0)
        elif re.fullmatch(r"q\d\d", arg):
            wanted.append(arg)
        else:
            fail(USAGE)
    if not os.access(flow, os.X_OK):
        fail(f"no flow binary at {flow}")
    ensure_venv()
    started = time.monotonic()
    data = ensure_data(scale)
    queries = sorted(name[:3] for name in os.listdir(TPCH) if re.fullmatch(r"q\d\d\.flow\.json", name))
    missing = [q for q in wanted if q not in queries]
    if missing:
        fail(f"no document for {', '.join(missing)} in Examples/tpch")
    con = duckdb_connection(data)
    failures = []
    for query in wanted or queries:
        document = os.path.join(TPCH, f"{query}.flow.json")
        sql = os.path.join(TPCH, "queries", f"{query}.sql")
        try:
            clock = time.monotonic()
            ours = run_flow(flow, document, data)
            flow_seconds = time.monotonic() - clock
            clock = time.monotonic()
            theirs = run_duckdb(con, sql)
            duckdb_seconds = time.monotonic() - clock
            problem = compare(ours, theirs) or from_cache(flow, document, data, ours)
        except Exception as error:  # noqa: BLE001 - every failure is reported per query
            problem = f"{type(error).__name__}: {error}"
        if problem:
            failures.append(query)
            print(f"{query}  DIFFERS  {problem}")
        else:
            print(f"{query}  ok  {len(ours[1]):>4} rows  flow {flow_seconds:.2f} s  DuckDB {duckdb_seconds:.2f} s")
    total = len(wanted or queries)
    print(f"verify-tpch: {total - len(failures)} of {total} queries agree with DuckDB at SF{scale}"
          f" ({time.monotonic() - started:.1f} s)" + (f"; differing: {' '.join(failures)}" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
