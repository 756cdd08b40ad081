#!/usr/bin/env python3
"""gzip and JSON Lines against Python's own `gzip`, `csv` and `json` modules.

    python3 Scripts/verify-gzip.py FLOW

Python compresses the inputs (levels 1, 6 and 9: stored, fixed and dynamic blocks; two
concatenated members); `flow run` reads them through readCSV, readJSON and readText and writes
`.gz` and `.jsonl` outputs; Python reads those back and compares them with what it wrote.
"""
import csv, gzip, io, json, os, random, subprocess, sys, tempfile

flow = sys.argv[1]
random.seed(11)
words = ["UA", "AA", "B6", "DL", "Zürich", "naïve", "a,b", 'say "hi"', "line\nbreak", "", "ok"]
rows = [{"id": i, "carrier": random.choice(words), "delay": random.randint(-30, 900)} for i in range(20_000)]

with tempfile.TemporaryDirectory() as folder:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["id", "carrier", "delay"])
    for row in rows:
        writer.writerow([row["id"], row["carrier"], row["delay"]])
    data = text.getvalue().encode()
    half = len(data) // 2
    with open(os.path.join(folder, "flights.csv.gz"), "wb") as f:
        f.write(gzip.compress(data[:half], 9) + gzip.compress(data[half:], 1))
    lines = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode()
    with open(os.path.join(folder, "flights.jsonl.gz"), "wb") as f:
        f.write(gzip.compress(lines, 6))
    prose = " ".join(random.choice(words) for _ in range(300_000)).encode()
    with open(os.path.join(folder, "prose.txt.gz"), "wb") as f:
        f.write(gzip.compress(prose, 0))
    document = {
        "nodes": [
            {"id": "csv", "data": {"kind": "readCSV", "params": {"path": "flights.csv.gz", "nullValues": []}}},
            {"id": "csvOut", "data": {"kind": "writeCSV", "params": {"path": "out/flights.csv.gz"}}},
            {"id": "linesOut", "data": {"kind": "writeJSON", "params": {"path": "out/flights.jsonl.gz"}}},
            {"id": "jsonl", "data": {"kind": "readJSON", "params": {"path": "flights.jsonl.gz"}}},
            {"id": "jsonOut", "data": {"kind": "writeJSON", "params": {"path": "out/from-lines.json", "pretty": False}}},
            {"id": "prose", "data": {"kind": "readText", "params": {"path": "prose.txt.gz"}}},
            {"id": "proseOut", "data": {"kind": "writeText", "params": {"path": "out/prose.txt.gz"}}},
        ],
        "edges": ["csv.table -> csvOut.table", "csv.table -> linesOut.value", "jsonl.value -> jsonOut.value",
                  "prose.text -> proseOut.text"],
    }
    path = os.path.join(folder, "files.flow.json")
    with open(path, "w") as f:
        json.dump(document, f)
    result = subprocess.run([flow, "run", path], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"verify-gzip: flow run failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    out = os.path.join(folder, "out")
    failures = []
    written = list(csv.reader(io.StringIO(gzip.open(os.path.join(out, "flights.csv.gz")).read().decode())))
    if written != list(csv.reader(io.StringIO(data.decode()))):
        failures.append("out/flights.csv.gz does not hold the CSV's cells")
    back = [json.loads(line) for line in gzip.open(os.path.join(out, "flights.jsonl.gz")).read().decode().splitlines()]
    if back != rows:
        failures.append("out/flights.jsonl.gz does not hold the rows")
    if json.load(open(os.path.join(out, "from-lines.json"))) != rows:
        failures.append("out/from-lines.json does not hold the JSON Lines' rows")
    compressed = open(os.path.join(out, "prose.txt.gz"), "rb").read()
    if gzip.decompress(compressed) != prose:
        failures.append("out/prose.txt.gz is not the text")
    if len(compressed) * 3 > len(prose):
        failures.append(f"out/prose.txt.gz does not compress: {len(compressed)} bytes of {len(prose)}")
    if failures:
        sys.exit("verify-gzip: " + "; ".join(failures))
    print(f"verify-gzip: {len(rows)} rows through .csv.gz, .jsonl.gz and .json; "
          f"{len(prose)} bytes of text to {len(compressed)} compressed; Python reads every file")
