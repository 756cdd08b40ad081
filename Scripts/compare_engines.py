"""W13's side-by-side table: `flow run` (a process) against DuckDB, polars and pandas
(in-process, each tool in its own child process so its peak RSS is its own) on the same CSVs.
Run through Scripts/compare-engines.sh, which makes the venv and the data."""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

import compare_engines_analyst as analyst

Q1_DATE = "1998-09-02"
Q3_DATE = "1995-03-15"
STRING_DATES = {"lineitem": ["l_shipdate", "l_commitdate", "l_receiptdate"], "orders": ["o_orderdate"]}


def q1_duckdb(data):
    import duckdb
    con = duckdb.connect()
    return con.execute(f"""
      select l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),
        sum(l_extendedprice * (1 - l_discount)), sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)),
        avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)
      from read_csv('{data}/lineitem.csv', types={{'l_shipdate': 'VARCHAR'}})
      where l_shipdate <= '{Q1_DATE}' group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus""").fetchall()


def q3_duckdb(data):
    import duckdb
    con = duckdb.connect()
    return con.execute(f"""
      select l_orderkey, o_orderdate, o_shippriority, sum(l_extendedprice * (1 - l_discount)) as revenue
      from read_csv('{data}/customer.csv') c,
           read_csv('{data}/orders.csv', types={{'o_orderdate': 'VARCHAR'}}) o,
           read_csv('{data}/lineitem.csv', types={{'l_shipdate': 'VARCHAR'}}) l
      where c_mktsegment = 'BUILDING' and c_custkey = o_custkey and l_orderkey = o_orderkey
        and o_orderdate < '{Q3_DATE}' and l_shipdate > '{Q3_DATE}'
      group by l_orderkey, o_orderdate, o_shippriority order by revenue desc, o_orderdate limit 10""").fetchall()


def q1_polars(data):
    import polars as pl
    l = pl.scan_csv(f"{data}/lineitem.csv", try_parse_dates=False)
    price = pl.col("l_extendedprice") * (1 - pl.col("l_discount"))
    return (l.filter(pl.col("l_shipdate") <= Q1_DATE)
            .group_by("l_returnflag", "l_linestatus")
            .agg(pl.col("l_quantity").sum(), pl.col("l_extendedprice").sum(), price.sum().alias("a"),
                 (price * (1 + pl.col("l_tax"))).sum().alias("b"), pl.col("l_quantity").mean().alias("c"),
                 pl.col("l_extendedprice").mean().alias("d"), pl.col("l_discount").mean(), pl.len())
            .sort("l_returnflag", "l_linestatus").collect().rows())


def q3_polars(data):
    import polars as pl
    c = pl.scan_csv(f"{data}/customer.csv").filter(pl.col("c_mktsegment") == "BUILDING")
    o = pl.scan_csv(f"{data}/orders.csv", try_parse_dates=False).filter(pl.col("o_orderdate") < Q3_DATE)
    l = pl.scan_csv(f"{data}/lineitem.csv", try_parse_dates=False).filter(pl.col("l_shipdate") > Q3_DATE)
    return (c.join(o, left_on="c_custkey", right_on="o_custkey").join(l, left_on="o_orderkey", right_on="l_orderkey")
            .group_by("o_orderkey", "o_orderdate", "o_shippriority")
            .agg((pl.col("l_extendedprice") * (1 - pl.col("l_discount"))).sum().alias("revenue"))
            .sort(["revenue", "o_orderdate"], descending=[True, False]).head(10).collect().rows())


def q1_pandas(data):
    import pandas as pd
    l = pd.read_csv(f"{data}/lineitem.csv")
    l = l[l.l_shipdate <= Q1_DATE]
    l = l.assign(disc_price=l.l_extendedprice * (1 - l.l_discount))
    l = l.assign(charge=l.disc_price * (1 + l.l_tax))
    g = l.groupby(["l_returnflag", "l_linestatus"], sort=True).agg(
        a=("l_quantity", "sum"), b=("l_extendedprice", "sum"), c=("disc_price", "sum"), d=("charge", "sum"),
        e=("l_quantity", "mean"), f=("l_extendedprice", "mean"), g=("l_discount", "mean"), h=("l_quantity", "size"))
    return [tuple(k) + tuple(v) for k, v in zip(g.index, g.itertuples(index=False))]


def q3_pandas(data):
    import pandas as pd
    c = pd.read_csv(f"{data}/customer.csv")
    o = pd.read_csv(f"{data}/orders.csv")
    l = pd.read_csv(f"{data}/lineitem.csv")
    c = c[c.c_mktsegment == "BUILDING"]
    o = o[o.o_orderdate < Q3_DATE]
    l = l[l.l_shipdate > Q3_DATE]
    j = c.merge(o, left_on="c_custkey", right_on="o_custkey").merge(l, left_on="o_orderkey", right_on="l_orderkey")
    j = j.assign(volume=j.l_extendedprice * (1 - j.l_discount))
    g = j.groupby(["l_orderkey", "o_orderdate", "o_shippriority"], sort=False).volume.sum().reset_index()
    g = g.sort_values(["volume", "o_orderdate"], ascending=[False, True]).head(10)
    return [tuple(r) for r in g.itertuples(index=False)]


def flights_duckdb(path):
    import duckdb
    return duckdb.connect().execute(f"""
      select origin, carrier, count(*) as flights, avg(arr_delay), sum(distance) from read_csv('{path}', nullstr = ['NA', ''])
      where dep_time is not null group by origin, carrier order by flights desc, origin, carrier""").fetchall()


def flights_pandas(path):
    import pandas as pd
    f = pd.read_csv(path)
    f = f[f.dep_time.notna()]
    g = f.groupby(["origin", "carrier"], sort=False).agg(flights=("dep_time", "size"), m=("arr_delay", "mean"),
                                                         d=("distance", "sum")).reset_index()
    g = g.sort_values(["flights", "origin", "carrier"], ascending=[False, True, True])
    return [tuple(r) for r in g.itertuples(index=False)]


def flights_polars(path):
    import polars as pl
    return (pl.scan_csv(path, infer_schema_length=100000, null_values=["NA", ""]).filter(pl.col("dep_time").is_not_null())
            .group_by("origin", "carrier").agg(pl.len().alias("flights"), pl.col("arr_delay").mean(), pl.col("distance").sum())
            .sort(["flights", "origin", "carrier"], descending=[True, False, False]).collect().rows())


# The null tokens `readCSV` knows by default (`NA` and the empty cell), so every tool types the
# flights columns as integers.
def read_duckdb(path):
    import duckdb
    con = duckdb.connect()
    con.execute(f"create or replace table t as select * from read_csv('{path}', nullstr = ['NA', ''])")
    return [list(con.execute("select count(*) from t").fetchone()) + [len(con.execute("select * from t limit 0").description)]]


def read_polars(path):
    import polars as pl
    frame = pl.read_csv(path, infer_schema_length=10000, null_values=["NA", ""])
    return [[frame.height, frame.width]]


def read_pandas(path):
    import pandas as pd
    frame = pd.read_csv(path)
    return [[frame.shape[0], frame.shape[1]]]


READ = {"duckdb": read_duckdb, "polars": read_polars, "pandas": read_pandas}
QUERIES = {"Q1": {"duckdb": q1_duckdb, "polars": q1_polars, "pandas": q1_pandas},
           "Q3": {"duckdb": q3_duckdb, "polars": q3_polars, "pandas": q3_pandas},
           "flights": {"duckdb": flights_duckdb, "polars": flights_polars, "pandas": flights_pandas},
           **analyst.QUERIES}


def child(query, tool, data, runs):
    """Runs one tool's query `runs` times in this process; prints times and rows as JSON."""
    times, rows = [], None
    __import__(tool)  # the import is not part of any run's time
    for _ in range(runs):
        start = time.perf_counter()
        rows = (READ[tool] if query.startswith("read ") else QUERIES[query][tool])(data)
        times.append(time.perf_counter() - start)
    print(json.dumps({"times": times, "rows": [[normal(v) for v in r] for r in rows]}))


def normal(value):
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return value
    return value


def measured(argv):
    """Runs argv as a child; returns (wall seconds, peak RSS MB, stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.stdout.read(), proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{argv[0]} failed ({status}): {err.decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024, out.decode()


COLUMNS = {"Q1": ["l_returnflag", "l_linestatus", "sum_qty", "sum_base_price", "sum_disc_price", "sum_charge",
                  "avg_qty", "avg_price", "avg_disc", "count_order"],
           "Q3": ["l_orderkey", "o_orderdate", "o_shippriority", "revenue"],
           "flights": ["origin", "carrier", "flights", "mean_arr_delay", "total_distance"], **analyst.COLUMNS}


def read_flow_output(path, query):
    """flow's rows, columns in the query's order (a saved document's records have sorted keys)."""
    import csv
    with open(path, newline="") as f:
        table = list(csv.reader(f))
    positions = [table[0].index(name) for name in COLUMNS[query]]
    rows = [[r[p] for p in positions] for r in table[1:]]
    def parse(cell):
        if cell == "":
            return None  # a null cell (a pivot's missing carrier × month)
        for kind in (int, float):
            try:
                return kind(cell)
            except ValueError:
                pass
        return cell
    return [[parse(c) for c in r] for r in rows]


def same(a, b):
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if len(x) != len(y):
            return False
        for p, q in zip(x, y):
            if isinstance(p, (int, float)) and isinstance(q, (int, float)):
                if not math.isclose(float(p), float(q), rel_tol=1e-9, abs_tol=1e-6):
                    return False
            elif str(p) != str(q):
                return False
    return True


def stats(times):
    return f"{min(times):.3f} / {statistics.median(times):.3f} / {max(times):.3f} s"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--flow", default=".build/release/flow")
    parser.add_argument("--flights")
    parser.add_argument("--baseline", help="another flow binary (an earlier build) timed in the same run")
    parser.add_argument("--read", action="store_true",
                        help="also time reading each CSV whole into memory (lineitem, and flights if given)")
    parser.add_argument("--child", nargs=2)
    parser.add_argument("--only", nargs="+", metavar="PIPELINE",
                        help="time only these pipelines (Q1 Q3 flights window pivot)")
    args = parser.parse_args()
    if args.child:
        return child(args.child[0], args.child[1], args.data, args.runs)
    jobs = [("Q1", args.data, "q1"), ("Q3", args.data, "q3")]
    if args.flights:
        folder = os.path.dirname(os.path.abspath(args.flights))
        document = {"flowRuntime": {"formatVersion": 1}, "nodes": [
            {"id": "read", "data": {"kind": "readCSV", "params": {"path": os.path.basename(args.flights)}}},
            {"id": "flown", "data": {"kind": "filter", "params": {"where": "not isNull(dep_time)"}}},
            {"id": "groups", "data": {"kind": "groupBy", "params": {"by": ["origin", "carrier"], "aggregate": {
                "flights": "count()", "mean_arr_delay": "mean(arr_delay)", "total_distance": "sum(distance)"}}}},
            {"id": "sorted", "data": {"kind": "sort", "params": {"by": ["-flights", "origin", "carrier"]}}},
            {"id": "write", "data": {"kind": "writeCSV", "params": {"path": "flights-summary.csv"}}}],
            "edges": [{"id": f"e{i}", "sourceNodeID": s, "sourceHandleID": "table", "targetNodeID": t, "targetHandleID": "table"}
                      for i, (s, t) in enumerate([("read", "flown"), ("flown", "groups"), ("groups", "sorted"), ("sorted", "write")])]}
        with open(os.path.join(folder, "flights-summary.flow.json"), "w") as f:
            json.dump(document, f)
        jobs.append(("flights", os.path.abspath(args.flights), "flights-summary"))
        # The analyst's window and pivot over the same file (issue 39).
        for query, (stem, document, _) in analyst.documents(os.path.basename(args.flights)).items():
            with open(os.path.join(folder, f"{stem}.flow.json"), "w") as f:
                json.dump(document, f)
            jobs.append((query, os.path.abspath(args.flights), stem))
    if args.only:
        jobs = [job for job in jobs if job[0] in args.only]
    print(f"{args.runs} runs each, same machine, same files; min / median / max wall time; peak RSS of the tool's process")
    baseline_header = " flow run, baseline |" if args.baseline else ""
    print(f"| pipeline | flow run (process) |{baseline_header} DuckDB | polars | pandas | same rows |")
    print("|---|---|---|---|---|---|" + ("---|" if args.baseline else ""))
    for query, data, stem in jobs:
        folder = data if query in ("Q1", "Q3") else os.path.dirname(data)
        document = os.path.join(folder, f"{stem}.flow.json")
        cells, flow_times, peak = [], [], 0.0
        for _ in range(args.runs):
            seconds, rss, _ = measured([args.flow, "run", document])
            flow_times.append(seconds)
            peak = max(peak, rss)
        output_name = {"Q1": "q1.csv", "Q3": "q3.csv", "flights": "flights-summary.csv",
                       "window": "flights-window.csv", "pivot": "flights-pivot.csv"}[query]
        reference = read_flow_output(os.path.join(folder, output_name), query)
        cells.append(f"{stats(flow_times)}, {peak:.0f} MB")
        agree = True
        if args.baseline:
            base_times, base_peak = [], 0.0
            for _ in range(args.runs):
                seconds, rss, _ = measured([args.baseline, "run", document])
                base_times.append(seconds)
                base_peak = max(base_peak, rss)
            if not same(read_flow_output(os.path.join(folder, output_name), query), reference):
                agree = False
                print(f"  {query}: the baseline flow differs", file=sys.stderr)
            cells.append(f"{stats(base_times)}, {base_peak:.0f} MB")
        for tool in ("duckdb", "polars", "pandas"):
            _, rss, out = measured([sys.executable, __file__, data, "--runs", str(args.runs), "--child", query, tool])
            result = json.loads(out)
            rows = result["rows"]
            if not same(rows, reference):
                agree = False
                print(f"  {query}: {tool} differs from flow: {rows[:2]} vs {reference[:2]}", file=sys.stderr)
            cells.append(f"{stats(result['times'])}, {rss:.0f} MB")
        print(f"| {query} | " + " | ".join(cells) + f" | {'yes' if agree else 'NO'} |", flush=True)
    if args.read:
        read_rows(args, [os.path.join(args.data, "lineitem.csv")] + ([os.path.abspath(args.flights)] if args.flights else []))


def read_rows(args, paths):
    """The whole-file read alone: `flow run` of a document holding one readCSV node (a process:
    its start, ~15 ms, is in the time) against each tool reading the file into memory (DuckDB
    into a table, polars and pandas into a frame). MB/s at the median; the rows and columns
    each tool read must agree."""
    import re
    print()
    print("Reading the whole CSV into memory (every column); min / median / max wall time, MB/s at the median")
    baseline_header = " flow run, baseline |" if args.baseline else ""
    print(f"| file | flow run (process) |{baseline_header} DuckDB | polars | pandas | same shape |")
    print("|---|---|---|---|---|---|" + ("---|" if args.baseline else ""))
    for path in paths:
        folder, name = os.path.split(path)
        megabytes = os.path.getsize(path) / 1e6
        document = os.path.join(folder, f"read-{os.path.splitext(name)[0]}.flow.json")
        with open(document, "w") as f:
            json.dump({"flowRuntime": {"formatVersion": 1}, "nodes": [
                {"id": "read", "data": {"kind": "readCSV", "params": {"path": name}}}], "edges": []}, f)
        cells, shapes = [], []
        for flow in [args.flow] + ([args.baseline] if args.baseline else []):
            times, peak = [], 0.0
            for _ in range(args.runs):
                seconds, rss, out = measured([flow, "run", document])
                times.append(seconds)
                peak = max(peak, rss)
            found = re.search(r"table \((\d+) rows × (\d+) columns\)", out)
            shapes.append([int(found.group(1)), int(found.group(2))] if found else None)
            cells.append(f"{stats(times)} ({megabytes / statistics.median(times):.0f} MB/s), {peak:.0f} MB")
        for tool in ("duckdb", "polars", "pandas"):
            _, rss, out = measured([sys.executable, __file__, path, "--runs", str(args.runs), "--child", f"read {name}", tool])
            result = json.loads(out)
            shapes.append(result["rows"][0])
            cells.append(f"{stats(result['times'])} ({megabytes / statistics.median(result['times']):.0f} MB/s), {rss:.0f} MB")
        agree = all(shape == shapes[0] for shape in shapes)
        if not agree:
            print(f"  {name}: shapes differ: {shapes}", file=sys.stderr)
        print(f"| {name} ({megabytes:.0f} MB) | " + " | ".join(cells) + f" | {'yes' if agree else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
