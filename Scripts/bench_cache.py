#!/usr/bin/env python3
"""W16: the run cache on TPC-H Q3, as `flow run` processes (Documentation/Performance.md,
"Run cache (W16)").

Four rows, each run RUNS times (default 3), wall time of the whole process:
  cold          no cache
  cold+cache    --cache into an empty folder (the cost of keeping the entries; target <= 5%)
  cached        the same command again (served from the cache; target <= 5% of cold)
  edited sort   the final `sort` given a param it never had (reruns sort, limit, select from
                the cached groupBy; target <= 10% of cold)
Each row's outputs are compared with the cold run's (the edited sort's only by row count).
The sides of one comparison run interleaved in one session, so load affects them alike.

Usage: python3 Scripts/bench_cache.py FLOW DATA [--runs N] [--query Examples/tpch/q03.flow.json]
  FLOW  a release build of flow (swift build -c release --product flow)
  DATA  the folder of tpchgen-cli's CSV files (customer.csv, orders.csv, lineitem.csv, ...)
Prints one JSON line per run and a summary table (min / median / max seconds, ratio to cold).
The cache lives in a temporary folder (passed with --allow-write), removed at the end.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module  # noqa: E402

reader_arguments = import_module("verify-tpch").reader_arguments

# Sort orders the query never had: each edited run is a cache miss for the sort.
EDITS = [
    ["-revenue", "o_orderdate", "l_orderkey"],
    ["-revenue", "o_orderdate", "-l_orderkey"],
    ["-revenue", "o_orderdate", "o_shippriority"],
    ["-revenue", "o_orderdate", "-o_shippriority"],
    ["-revenue", "-o_orderdate"],
    ["-revenue", "-o_orderdate", "l_orderkey"],
    ["-revenue", "-o_orderdate", "-l_orderkey"],
    ["-revenue", "l_orderkey"],
    ["-revenue", "-l_orderkey"],
    ["-revenue", "o_shippriority", "o_orderdate"],
]


def run(command):
    """(seconds, stdout) of one process; raises on a failure."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[:2000]}")
    return seconds, done.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("flow")
    parser.add_argument("data")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--query", default=os.path.join(os.path.dirname(__file__), "..", "Examples", "tpch", "q03.flow.json"))
    options = parser.parse_args()
    if options.runs > len(EDITS):
        sys.exit(f"bench_cache: at most {len(EDITS)} runs (one new sort order each)")
    query = os.path.abspath(options.query)
    data = os.path.abspath(options.data)
    scratch = tempfile.mkdtemp(prefix="flow-w16-")
    cache = os.path.join(scratch, "cache")
    base = [options.flow, "run", query, "--format", "json", *reader_arguments(query, data), "--allow-write", scratch]
    times = {"cold": [], "cold+cache": [], "cached": [], "edited sort": []}
    try:
        _, expected = run(base)  # warms the page cache; the reference output
        for index in range(options.runs):
            seconds, out = run(base)
            assert out == expected, "cold output differs"
            times["cold"].append(seconds)
            shutil.rmtree(cache, ignore_errors=True)
            seconds, out = run(base + ["--cache", cache])
            assert out == expected, "cold+cache output differs"
            times["cold+cache"].append(seconds)
            seconds, out = run(base + ["--cache", cache])
            assert out == expected, "cached output differs"
            times["cached"].append(seconds)
            edit = json.dumps(EDITS[index])
            seconds, out = run(base + ["--cache", cache, "--set", f"sorted.by={edit}"])
            rows = [ports["table"] for ports in json.loads(out)["outputs"].values() if "table" in ports]
            assert len(rows) == 1 and len(rows[0]) == 10, "edited output has not 10 rows"
            times["edited sort"].append(seconds)
            for row, values in times.items():
                print(json.dumps({"workload": "W16", "row": row, "run": index, "seconds": round(values[-1], 4)}))
        entries = [name for name in os.listdir(cache) if name.endswith(".flowcache")]
        size = sum(os.path.getsize(os.path.join(cache, name)) for name in entries)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    cold = statistics.median(times["cold"])
    print(f"\nW16 TPC-H Q3 ({os.path.basename(data)}), {options.runs} runs each; cache: {len(entries)} entries, {size / 1e6:.1f} MB")
    print(f"{'row':<12} {'min s':>8} {'median s':>9} {'max s':>8} {'median / cold':>14}")
    for row, values in times.items():
        median = statistics.median(values)
        print(f"{row:<12} {min(values):8.3f} {median:9.3f} {max(values):8.3f} {median / cold:13.1%}")


if __name__ == "__main__":
    main()
