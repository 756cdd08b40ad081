"""The analyst's pipelines for compare_engines.py (issue 39): a `window` and a `pivot` over
flights, in flow (a document), DuckDB, polars and pandas. Each ends in a small table so every
tool's rows can be compared exactly: the window's columns are summed per carrier (integers).

window: partition by carrier, order by time_hour (ties in file order), lag(dep_delay),
cumsum(distance), rank(); then per carrier the row count, the sums of the lag and the cumsum,
and the largest rank. pivot: carrier × month, the mean dep_delay (columns named by the month's
text and in text order, as flow's pivot makes them), rows sorted by carrier.
"""

MONTHS = sorted(str(m) for m in range(1, 13))
COLUMNS = {"window": ["carrier", "flights", "lag_sum", "cumsum_sum", "max_rank"], "pivot": ["carrier"] + MONTHS}


def documents(flights_name):
    """The two flow documents, by job name."""
    def chain(nodes):
        edges = [{"id": f"e{i}", "sourceNodeID": a["id"], "sourceHandleID": "table", "targetNodeID": b["id"],
                  "targetHandleID": "table"} for i, (a, b) in enumerate(zip(nodes, nodes[1:]))]
        return {"flowRuntime": {"formatVersion": 1}, "nodes": nodes, "edges": edges}
    read = {"id": "read", "data": {"kind": "readCSV", "params": {"path": flights_name}}}
    window = chain([read,
        {"id": "windows", "data": {"kind": "window", "params": {"partitionBy": ["carrier"], "orderBy": ["time_hour"], "columns": {
            "previous": "lag(dep_delay)", "running": "cumsum(distance)", "r": "rank()"}}}},
        {"id": "sums", "data": {"kind": "groupBy", "params": {"by": ["carrier"], "aggregate": {
            "flights": "count()", "lag_sum": "sum(previous)", "cumsum_sum": "sum(running)", "max_rank": "max(r)"}}}},
        {"id": "sorted", "data": {"kind": "sort", "params": {"by": ["carrier"]}}},
        {"id": "write", "data": {"kind": "writeCSV", "params": {"path": "flights-window.csv"}}}])
    pivot = chain([read,
        {"id": "months", "data": {"kind": "pivot", "params": {"index": ["carrier"], "columns": "month", "values": "dep_delay",
                                                            "aggregate": "mean"}}},
        {"id": "sorted", "data": {"kind": "sort", "params": {"by": ["carrier"]}}},
        {"id": "write", "data": {"kind": "writeCSV", "params": {"path": "flights-pivot.csv"}}}])
    return {"window": ("flights-window", window, "flights-window.csv"), "pivot": ("flights-pivot", pivot, "flights-pivot.csv")}


def window_duckdb(path):
    import duckdb
    return duckdb.connect().execute(f"""
      with f as (select *, row_number() over () as rn from read_csv('{path}', nullstr = ['NA', ''])),
      w as (select carrier, lag(dep_delay) over (partition by carrier order by time_hour, rn) as previous,
                   sum(distance) over (partition by carrier order by time_hour, rn rows between unbounded preceding and current row) as running,
                   rank() over (partition by carrier order by time_hour) as r from f)
      select carrier, count(*), sum(previous), sum(running), max(r) from w group by carrier order by carrier""").fetchall()


def window_pandas(path):
    import pandas as pd
    f = pd.read_csv(path).sort_values("time_hour", kind="stable")
    g = f.groupby("carrier", sort=False)
    f = f.assign(previous=g["dep_delay"].shift(1), running=g["distance"].cumsum(),
                 r=g["time_hour"].rank(method="min"))
    s = f.groupby("carrier").agg(flights=("carrier", "size"), lag_sum=("previous", "sum"), cumsum_sum=("running", "sum"),
                                 max_rank=("r", "max")).reset_index()
    return [(c, n, int(l), int(cs), int(r)) for c, n, l, cs, r in s.itertuples(index=False)]


def window_polars(path):
    import polars as pl
    f = pl.scan_csv(path, infer_schema_length=100000, null_values=["NA", ""]).sort("time_hour", maintain_order=True)
    f = f.with_columns(pl.col("dep_delay").shift(1).over("carrier").alias("previous"),
                       pl.col("distance").cum_sum().over("carrier").alias("running"),
                       pl.col("time_hour").rank(method="min").over("carrier").alias("r"))
    return (f.group_by("carrier").agg(pl.len(), pl.col("previous").sum(), pl.col("running").sum(), pl.col("r").max())
            .sort("carrier").collect().rows())


def pivot_duckdb(path):
    import duckdb
    cells = ", ".join(f"avg(dep_delay) filter (where month = {m}) as \"{m}\"" for m in MONTHS)
    return duckdb.connect().execute(f"""
      select carrier, {cells} from read_csv('{path}', nullstr = ['NA', '']) group by carrier order by carrier""").fetchall()


def pivot_pandas(path):
    import pandas as pd
    f = pd.read_csv(path)
    p = f.pivot_table(index="carrier", columns="month", values="dep_delay", aggfunc="mean")
    p = p.reindex(columns=[int(m) for m in MONTHS]).sort_index()
    return [(c, *[None if v != v else v for v in row]) for c, *row in p.itertuples()]


def pivot_polars(path):
    import polars as pl
    f = pl.read_csv(path, infer_schema_length=100000, null_values=["NA", ""])
    p = f.pivot(on="month", index="carrier", values="dep_delay", aggregate_function="mean")
    for m in MONTHS:
        if m not in p.columns:
            p = p.with_columns(pl.lit(None, dtype=pl.Float64).alias(m))
    return p.select(["carrier"] + MONTHS).sort("carrier").rows()


QUERIES = {"window": {"duckdb": window_duckdb, "polars": window_polars, "pandas": window_pandas},
           "pivot": {"duckdb": pivot_duckdb, "polars": pivot_polars, "pandas": pivot_pandas}}
