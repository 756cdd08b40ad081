#!/usr/bin/env python3
"""writeParquet against pyarrow, polars and DuckDB, and Parquet in `flow export --sql`.

1. A table of every column type flow holds (integers beyond 2^53 and near ±2^63, doubles
   with -0.0 and extremes, bools, strings with Unicode and empties, a low-cardinality
   string column, nulls everywhere) is read by `flow run` from JSON and written by
   `writeParquet` with each codec and data page version 1 and 2 (and small row groups); pyarrow, polars and DuckDB must
   read back exactly the rows flow writes as JSON, and each chunk's statistics (min, max,
   null count) must be those of its rows.
2. The flights example as Parquet (Examples/flights/flights-parquet.flow.json): polars
   writes flights.parquet (its default, zstd), `flow run` reads it and writes summary.parquet,
   which DuckDB reads equal to DuckDB's own answer; the same document exported with
   `flow export --sql` and run by DuckDB writes the same rows.

Usage: python3 Scripts/verify-parquet-write.py path/to/flow
The venv of Scripts/verify-sql.sh (.build/sql-venv) is reused; pyarrow and polars are added.
"""
import json
import math
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile

import sql_venv

ROOT = pathlib.Path(__file__).resolve().parent.parent
CODECS = ["snappy", "zstd", "gzip", "lz4", "none"]


def ensure_venv():
    sql_venv.run_in_venv(__file__, [(name, f"import {name}") for name in ("duckdb", "pyarrow", "polars")])


def flow(binary, *args, cwd):
    result = subprocess.run([binary, *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"flow {' '.join(args)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result.stdout


def rows_of_every_type(count):
    rng = random.Random(41)
    edges = [2**63 - 1, -2**63, 2**53 + 1, -(2**53) - 1, 9007199254740993, 0, -1]
    words = ["", "a", "Zürich", "日本語", "🦆", "x,y\n\"z\"", "tab\there"]
    rows = []
    for index in range(count):
        def maybe(value):
            return None if rng.random() < 0.1 else value
        rows.append({
            "i": maybe(rng.choice(edges) if rng.random() < 0.3 else rng.randint(-2**62, 2**62)),
            "x": maybe(rng.choice([-0.0, 0.5, 1e300, -2.25, 5e-324, -1.7976931348623157e308]) if rng.random() < 0.2
                       else rng.uniform(-1e6, 1e6)),
            "b": maybe(rng.random() < 0.5),
            "s": maybe(f"row {index} {rng.choice(words)}"),
            "d": maybe(rng.choice(words)),
        })
    rows[0] = {"i": 2**63 - 1, "x": 1.5, "b": True, "s": "", "d": "a"}
    return rows


def document(writers):
    nodes = [{"id": "read", "data": {"kind": "readJSON", "params": {"path": "in.json"}}},
             {"id": "held", "data": {"kind": "writeJSON", "params": {"path": "held.json"}}}]
    edges = [{"id": "e0", "sourceNodeID": "read", "sourceHandleID": "value", "targetNodeID": "held", "targetHandleID": "value"}]
    for index, (name, params) in enumerate(writers):
        nodes.append({"id": name, "data": {"kind": "writeParquet", "params": params}})
        edges.append({"id": f"e{index + 1}", "sourceNodeID": "read", "sourceHandleID": "value",
                      "targetNodeID": name, "targetHandleID": "table"})
    return {"flowRuntime": {"formatVersion": 1}, "nodes": nodes, "edges": edges}


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b) or (math.isnan(a) and math.isnan(b))
    return type(a) is type(b) and a == b


def check_rows(label, got, want, names):
    if len(got) != len(want):
        return f"{label}: {len(got)} rows, flow holds {len(want)}"
    for index, (row, expected) in enumerate(zip(got, want)):
        for name, value in zip(names, row):
            # flow's JSON writes a whole double as an integer (and -0.0 as 0): compare x by value.
            if name == "x" and isinstance(value, float) and isinstance(expected[name], (int, float)):
                if value == expected[name]:
                    continue
            if not same(value, expected[name]):
                return f"{label}: row {index + 1} column {name}: {value!r}, flow holds {expected[name]!r}"
    return None


def check_statistics(label, path, want, names):
    import pyarrow.parquet as pq
    metadata = pq.ParquetFile(path).metadata
    start = 0
    for group in range(metadata.num_row_groups):
        rows = want[start:start + metadata.row_group(group).num_rows]
        start += len(rows)
        for position, name in enumerate(names):
            stats = metadata.row_group(group).column(position).statistics
            values = [row[name] for row in rows if row[name] is not None and not (isinstance(row[name], float) and math.isnan(row[name]))]
            nulls = sum(1 for row in rows if row[name] is None)
            if stats is None or stats.null_count != nulls:
                return f"{label}: row group {group + 1} column {name}: null count {stats and stats.null_count}, rows have {nulls}"
            if values and (not stats.has_min_max or not same(stats.min, min(values)) and stats.min != min(values)
                           or not same(stats.max, max(values)) and stats.max != max(values)):
                return f"{label}: row group {group + 1} column {name}: min/max {stats.min!r}/{stats.max!r}, rows {min(values)!r}/{max(values)!r}"
    return None


def every_type(binary, folder):
    import duckdb
    import polars
    import pyarrow.parquet as pq
    with open(folder / "in.json", "w") as f:
        json.dump(rows_of_every_type(3000), f, ensure_ascii=False)
    writers = [(f"w_{codec}", {"path": f"{codec}.parquet", "compression": codec}) for codec in CODECS]
    writers += [(f"w_{codec}_v2", {"path": f"{codec}-v2.parquet", "compression": codec, "pageVersion": 2}) for codec in CODECS]
    writers.append(("w_groups", {"path": "groups.parquet", "rowGroupRows": 700}))
    writers.append(("w_groups_v2", {"path": "groups-v2.parquet", "rowGroupRows": 700, "pageVersion": 2, "compression": "zstd"}))
    with open(folder / "doc.flow.json", "w") as f:
        json.dump(document(writers), f)
    flow(binary, "run", "doc.flow.json", cwd=folder)
    held = json.load(open(folder / "held.json"))
    names = ["i", "x", "b", "s", "d"]
    failures = []
    for _, params in writers:
        path = str(folder / params["path"])
        label = params["path"]
        problems = [
            check_rows(f"pyarrow {label}", [tuple(r[n] for n in names) for r in pq.read_table(path).to_pylist()], held, names),
            check_rows(f"polars {label}", polars.read_parquet(path).select(names).rows(), held, names),
            check_rows(f"duckdb {label}", duckdb.sql(f"SELECT {', '.join(names)} FROM read_parquet('{path}')").fetchall(), held, names),
            check_statistics(f"statistics {label}", path, held, names),
        ]
        failures += [p for p in problems if p]
        print(("FAIL " if any(problems) else "ok   ") + f"{label}: pyarrow, polars and DuckDB read the {len(held)} rows flow holds")
    return failures


def flights(binary, folder):
    import duckdb
    import polars
    rng = random.Random(13)
    count = 20000
    data = {
        "origin": [rng.choice(["EWR", "JFK", "LGA"]) for _ in range(count)],
        "carrier": [rng.choice(["UA", "B6", "EV", "DL", "AA", "MQ"]) for _ in range(count)],
        "dep_time": [None if rng.random() < 0.03 else rng.randint(1, 2359) for _ in range(count)],
        "arr_delay": [None if rng.random() < 0.05 else rng.randint(-60, 300) for _ in range(count)],
        "distance": [rng.randint(80, 4983) for _ in range(count)],
    }
    shutil.copy(ROOT / "Examples" / "flights" / "flights-parquet.flow.json", folder / "flights-parquet.flow.json")
    polars.DataFrame(data).write_parquet(folder / "flights.parquet")
    flow(binary, "run", "flights-parquet.flow.json", cwd=folder)
    got = duckdb.sql(f"SELECT * FROM read_parquet('{folder / 'summary.parquet'}')").fetchall()
    want = duckdb.sql(f"""SELECT origin, carrier, count(*) AS flights, avg(arr_delay) AS mean_arr_delay,
        sum(distance) AS total_distance FROM read_parquet('{folder / 'flights.parquet'}') WHERE dep_time IS NOT NULL
        GROUP BY origin, carrier""").fetchall()
    failures = []
    key = {(r[0], r[1]): r for r in want}
    if sorted(r[:2] for r in got) != sorted(key):
        failures.append(f"flights: groups {sorted(r[:2] for r in got)}, DuckDB's {sorted(key)}")
    for row in got:
        expected = key.get(row[:2])
        if expected and (row[2] != expected[2] or row[4] != expected[4] or abs(row[3] - expected[3]) > 1e-9 * abs(expected[3])):
            failures.append(f"flights: group {row[:2]}: {row}, DuckDB's {expected}")
    if [r[2] for r in got] != sorted((r[2] for r in got), reverse=True):
        failures.append("flights: summary.parquet is not sorted by flights, descending")
    print(("FAIL " if failures else "ok   ") + f"flights-parquet: polars' flights.parquet in, {len(got)} groups out, as DuckDB computes them")
    # The same document as SQL, run by DuckDB in a copy of the folder, writes the same rows.
    exported = folder / "exported"
    exported.mkdir()
    shutil.copy(folder / "flights.parquet", exported / "flights.parquet")
    script = flow(binary, "export", "flights-parquet.flow.json", "--sql", cwd=folder)
    connection = duckdb.connect()
    os.chdir(exported)
    connection.execute(script)
    os.chdir(ROOT)
    again = duckdb.sql(f"SELECT * FROM read_parquet('{exported / 'summary.parquet'}')").fetchall()
    if len(again) != len(got) or any(a[:3] != b[:3] or a[4] != b[4] or abs(a[3] - b[3]) > 1e-9 * abs(b[3]) for a, b in zip(again, got)):
        failures.append(f"flights: the exported script writes {again[:3]}…, flow wrote {got[:3]}…")
    print(("FAIL " if len(failures) > 0 else "ok   ") + "flights-parquet exported with flow export --sql: DuckDB writes the rows flow wrote")
    return failures


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    ensure_venv()
    binary = str(pathlib.Path(sys.argv[1]).resolve())
    folder = pathlib.Path(tempfile.mkdtemp(prefix="verify-parquet-"))
    try:
        (folder / "types").mkdir()
        (folder / "flights").mkdir()
        failures = every_type(binary, folder / "types") + flights(binary, folder / "flights")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for failure in failures:
        print("FAIL", failure)
    if failures:
        raise SystemExit(1)
    print("writeParquet: every codec and page version read back exactly by pyarrow, polars and DuckDB")


if __name__ == "__main__":
    main()
