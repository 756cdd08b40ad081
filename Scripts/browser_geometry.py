"""Geometry of `flow serve`'s page after values arrive, measured from the DOM's bounding boxes
in headless Chromium, on every example document and on random graphs (seeded):

- no two text boxes (SVG texts with text, and the param fields) overlap;
- no text runs over another node's box;
- no edge passes through a node's box (points along each path, 4 px apart).

Each document is served from a copy of Examples (a writer node writes into the copy) by its
own `flow serve --port 0`. A document `flow serve` refuses (a custom kind) is listed as
skipped. Prints each failure, then a summary line; exits 1 on any failure.

usage: browser_geometry.py FLOWBIN [RANDOM-COUNT] [SEED]
"""
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time
import json

import browser_support
from browser_support import chrome, fail, wait_for

FLOW = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 20
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 1
ROOT = pathlib.Path(__file__).resolve().parent.parent

MEASURE = """
const boxOf = (r) => ({l: r.left, t: r.top, r: r.right, b: r.bottom});
const nodes = Array.from(document.querySelectorAll('svg.flow-graph .node')).map((node) => (
  Object.assign({id: node.dataset.node}, boxOf(node.querySelector('rect.body').getBoundingClientRect()))));
const texts = [];
document.querySelectorAll('svg.flow-graph .node text, svg.flow-graph .node foreignObject').forEach((element) => {
  const text = element.tagName === 'foreignObject' ? '[field ' + element.querySelector('[data-param]').dataset.param + ']'
                                                   : element.textContent;
  if (!text.trim()) { return; }
  const r = element.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) { return; }
  texts.push(Object.assign({node: element.closest('[data-node]').dataset.node, text: text.slice(0, 50)}, boxOf(r)));
});
const edges = [];
document.querySelectorAll('svg.flow-graph path.edge').forEach((path) => {
  const matrix = path.getScreenCTM();
  const length = path.getTotalLength();
  const points = [];
  for (let at = 0; at <= length; at += 4) {
    const p = path.getPointAtLength(at);
    points.push([matrix.a * p.x + matrix.c * p.y + matrix.e, matrix.b * p.x + matrix.d * p.y + matrix.f]);
  }
  edges.push({source: path.dataset.source, target: path.dataset.target, points});
});
return {nodes, texts, edges, svg: document.querySelector('#graph').innerHTML.length};
"""


def overlap(a, b, slack):
    return a["l"] + slack < b["r"] and b["l"] + slack < a["r"] and a["t"] + slack < b["b"] and b["t"] + slack < a["b"]


def problems(measured):
    found = []
    texts = sorted(measured["texts"], key=lambda box: box["l"])
    # A sweep by left edge: each text against those that start before it ends.
    for index, text in enumerate(texts):
        for other in texts[index + 1:]:
            if other["l"] >= text["r"]:
                break
            if overlap(text, other, 1.0):
                found.append("texts overlap: %s %r and %s %r" % (text["node"], text["text"], other["node"], other["text"]))
    nodes = measured["nodes"]
    for text in texts:
        for node in nodes:
            if node["id"] != text["node"] and overlap(text, node, 1.0):
                found.append("text of %s %r runs over node %s" % (text["node"], text["text"], node["id"]))
    for edge in measured["edges"]:
        for node in nodes:
            inner = {"l": node["l"] + 3, "t": node["t"] + 3, "r": node["r"] - 3, "b": node["b"] - 3}
            if any(inner["l"] < x < inner["r"] and inner["t"] < y < inner["b"] for x, y in edge["points"]):
                found.append("edge %s -> %s passes through node %s" % (edge["source"], edge["target"], node["id"]))
    return found


def random_document(rng, index):
    """A random DAG of number, add, multiply, subtract, divide and format nodes."""
    count = rng.randint(3, 14)
    nodes, edges = [], []
    for number in range(count):
        ident = "n%d" % number
        if number < 2 or rng.random() < 0.25:
            value = rng.choice([rng.randint(-5, 5), round(rng.uniform(-1e6, 1e6), rng.randint(0, 6)), 10 ** rng.randint(0, 15)])
            nodes.append({"id": ident, "data": {"kind": "number", "params": {"value": value}}})
            continue
        kind = rng.choice(["add", "multiply", "subtract", "divide", "divide", "format"])
        params = {}
        if kind == "format":
            params["template"] = rng.choice(["{a}", "value {a} and {b}", "a long text that is here to be wide: {a} / {b}"])
        for port in ["a", "b"]:
            if kind == "format" and "{%s}" % port not in params["template"]:
                continue
            if rng.random() < 0.8:
                source = "n%d" % rng.randrange(number)
                out = "text" if any(n["id"] == source and n["data"]["kind"] == "format" for n in nodes) else (
                    "value" if any(n["id"] == source and n["data"]["kind"] == "number" for n in nodes) else "result")
                if out == "text" and kind != "format":
                    params[port] = rng.randint(0, 3)
                    continue
                edges.append({"id": "e%d" % len(edges), "sourceNodeID": source, "sourceHandleID": out,
                              "targetNodeID": ident, "targetHandleID": port})
            elif kind != "format":
                params[port] = rng.randint(0, 3)
        nodes.append({"id": ident, "data": {"kind": kind, "params": params}})
    return {"nodes": nodes, "edges": edges}


def start(document):
    return subprocess.Popen([FLOW, "serve", str(document), "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def address(process):
    """The URL `process` printed, or None and the first line of its error."""
    line = process.stdout.readline()
    if "http://" not in line:
        process.wait(timeout=10)
        return process, None, process.stderr.read().strip().splitlines()[:1]
    return process, line.split()[-1], None


def settled(driver):
    """Waits for the first values, for the page to have applied every event it got
    (`flowBusy()`), and for the picture to stay the same over 0.1 s (a relayout follows the
    values by one more event; a live document may never be still: measured after 3 s)."""
    wait_for(lambda: driver.execute_script("return window.flowEventCount >= 1 && window.flowBusy() === 0"), "the first event")
    last, stable = None, 0
    deadline = time.time() + 3
    while time.time() < deadline and stable < 2:
        now = driver.execute_script("return window.flowBusy() + ':' + document.querySelector('#graph').innerHTML.length + ':' + "
                                    "document.querySelectorAll('.node.pending').length + ':' + window.flowEventCount")
        stable = stable + 1 if now == last and now.startswith("0:") else 0
        last = now
        if stable < 2:
            time.sleep(0.05)


browser_support.LABEL = "browser geometry"
work = pathlib.Path(tempfile.mkdtemp(prefix="flow-geometry-"))
try:
    shutil.copytree(ROOT / "Examples", work / "Examples", ignore=shutil.ignore_patterns(".build"))
    documents = sorted((work / "Examples").rglob("*.flow.json"))
    rng = random.Random(SEED)
    for index in range(COUNT):
        path = work / ("random-%d.flow.json" % index)
        path.write_text(json.dumps(random_document(rng, index)))
        documents.append(path)
    driver = chrome(3000, 2400)
    failures, checked, skipped = [], 0, []
    started = time.time()
    try:
        # The next document's server starts while this one's page is measured.
        upcoming = start(documents[0]) if documents else None
        for position, document in enumerate(documents):
            name = str(document.relative_to(work))
            process, url, refusal = address(upcoming)
            upcoming = start(documents[position + 1]) if position + 1 < len(documents) else None
            if url is None:
                skipped.append("%s (%s)" % (name, refusal[0] if refusal else "no URL"))
                continue
            try:
                driver.get(url)
                settled(driver)
                found = problems(driver.execute_script(MEASURE))
                checked += 1
                failures += ["%s: %s" % (name, problem) for problem in found]
            finally:
                process.send_signal(2)
                process.wait(timeout=10)
    finally:
        driver.quit()
    for failure in failures:
        print("browser geometry: FAILED:", failure)
    for skip in skipped:
        print("browser geometry: skipped", skip)
    print("browser geometry: %d documents checked (%d examples and %d random graphs, seed %d) in %.1f s, %d problems"
          % (checked, len(documents) - COUNT, COUNT, SEED, time.time() - started, len(failures)))
    if failures:
        sys.exit(1)
finally:
    shutil.rmtree(work, ignore_errors=True)
