#!/usr/bin/env bash
# The browser test of `flow serve` (Documentation/Serve.md): opens the calculator's page in headless Chromium,
# edits a number, checks that exactly the descendants update without a reload and that the
# console stays free of errors, and prints the edit → update latency measured in the page
# (reported, not asserted); builds a calculator and a multi-line text from an empty document
# (the text saved exactly); feeds a param from an edge by a drag onto its handle
# (browser_params.py); opens a subgraph instance's inside (browser_inside.py); moves a node, Saves
# (only its position changes) and undoes/redoes by keys (browser_move.py); builds the penguins
# report from nothing (browser_penguins.py; FLOW_BROWSER_PENGUINS=0 skips it). Saves a
# screenshot when given a path.
#
# usage: [FLOW_BROWSER_PENGUINS=0] Scripts/browser-test.sh FLOWBIN [SCREENSHOT.png]
#
# Installs, only if missing: Debian's chromium and chromium-driver (apt-get), and selenium
# from PyPI into the venv .build/browser-venv.
set -euo pipefail
cd "$(dirname "$0")/.."
FLOW="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
SCREENSHOT="${2:-}"

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  echo "browser test: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
VENV=.build/browser-venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
if ! "$VENV/bin/python" -c "import selenium, esprima" 2>/dev/null; then
  "$VENV/bin/pip" install --quiet --disable-pip-version-check selenium esprima
fi
# The page's scripts parse (esprima, strict) and its template's placeholders are the filled ones.
"$VENV/bin/python" Scripts/lint_page.py

WORK="$(mktemp -d)"
SERVER=""
cleanup() {
  if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then kill -INT "$SERVER"; wait "$SERVER" || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
# serve DOC NAME: starts `flow serve DOC` in the background (SERVER), waits for its URL (URL).
serve() {
  "$FLOW" serve "$1" --port 0 > "$WORK/$2.out" 2> "$WORK/$2.err" &
  SERVER=$!
  for _ in $(seq 1 300); do
    if grep -q "http://" "$WORK/$2.out" 2>/dev/null; then break; fi
    if ! kill -0 "$SERVER" 2>/dev/null; then cat "$WORK/$2.err"; echo "browser test: flow serve ended"; exit 1; fi
    sleep 0.1
  done
  URL="$(grep -o 'http://[^ ]*' "$WORK/$2.out" | head -1)"
  [ -n "$URL" ] || { echo "browser test: flow serve printed no URL"; exit 1; }
}
serve Examples/calculator.flow.json serve
echo "browser test: $URL"
"$VENV/bin/python" Scripts/browser_test.py "$URL" "$SCREENSHOT"
kill -INT "$SERVER"
wait "$SERVER"
status=$?
SERVER=""
[ "$status" = 0 ] || { echo "browser test: flow serve exited $status on SIGINT"; exit 1; }
echo "browser test: flow serve stopped cleanly on SIGINT"

# From nothing: an empty document, a calculator built in the page, saved, then run headless.
printf '{"nodes": [], "edges": []}\n' > "$WORK/built.flow.json"
serve "$WORK/built.flow.json" built
"$VENV/bin/python" Scripts/browser_build.py "$URL"
kill -INT "$SERVER"
wait "$SERVER" || true
SERVER=""
"$FLOW" run "$WORK/built.flow.json" | grep -qx 'multiply1.result = 50' \
  || { "$FLOW" run "$WORK/built.flow.json"; echo "browser test: flow run of the saved file does not give multiply1.result = 50"; exit 1; }
echo "browser test: flow run of the document built in the page gives multiply1.result = 50"
python3 - "$WORK/built.flow.json" <<'PY'
import json, sys
values = [node["data"]["params"].get("value") for node in json.load(open(sys.argv[1]))["nodes"] if node["id"] == "text1"]
if values != ["first line\n  second line: a + b"]:
    sys.exit("browser test: the multi-line text was saved as %r" % values)
print("browser test: the multi-line text typed in the page was saved exactly")
PY

# Every param is also an input: a number dragged onto a limit's count handle, saved, then run.
mkdir -p "$WORK/params"
printf 'x\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n' > "$WORK/params/rows.csv"
cat > "$WORK/params/params.flow.json" <<'JSON'
{"nodes": [
  {"id": "rows", "data": {"kind": "readCSV", "params": {"path": "rows.csv"}}},
  {"id": "first", "data": {"kind": "limit", "params": {"count": 5}}},
  {"id": "two", "data": {"kind": "number", "params": {"value": 2}}}
], "edges": [{"id": "e1", "sourceNodeID": "rows", "sourceHandleID": "table", "targetNodeID": "first", "targetHandleID": "table"}]}
JSON
serve "$WORK/params/params.flow.json" params
"$VENV/bin/python" Scripts/browser_params.py "$URL"
kill -INT "$SERVER"
wait "$SERVER" || true
SERVER=""
"$FLOW" run "$WORK/params/params.flow.json" | grep -qx 'first.table = table (2 rows × 1 columns)' \
  || { "$FLOW" run "$WORK/params/params.flow.json"; echo "browser test: flow run of the saved file does not give first's 2 rows"; exit 1; }
echo "browser test: flow run of the document saved with the param edge gives first.table = table (2 rows × 1 columns)"

# A subgraph document: the instance is one node; a double click opens its inside.
cp -r Examples/subgraphs "$WORK/subgraphs"
serve "$WORK/subgraphs/pipeline.flow.json" inside
"$VENV/bin/python" Scripts/browser_inside.py "$URL"
kill -INT "$SERVER"
wait "$SERVER" || true
SERVER=""

# Moving, undo and redo by keys, on a copy of the calculator (Save writes the copy).
cp Examples/calculator.flow.json "$WORK/moved.flow.json"
serve "$WORK/moved.flow.json" moved
"$VENV/bin/python" Scripts/browser_move.py "$URL" "$WORK/moved.flow.json"
kill -INT "$SERVER"
wait "$SERVER" || true
SERVER=""

# The penguins report from nothing: built in the page beside copies of its data, saved, run;
# its output files compared with the example's. About 30 s with a debug flow on a loaded 2-core
# machine; FLOW_BROWSER_PENGUINS=0 skips it.
if [ "${FLOW_BROWSER_PENGUINS:-1}" = 0 ]; then
  echo "browser test: the penguins build from nothing skipped (FLOW_BROWSER_PENGUINS=0)"
  exit 0
fi
PENGUINS_START=$SECONDS
mkdir -p "$WORK/penguins" "$WORK/example"
cp Examples/penguins/penguins.csv Examples/penguins/species.json "$WORK/penguins/"
cp Examples/penguins/penguins.csv Examples/penguins/species.json Examples/penguins/report.flow.json "$WORK/example/"
printf '{"nodes": [], "edges": []}\n' > "$WORK/penguins/report.flow.json"
serve "$WORK/penguins/report.flow.json" penguins
"$VENV/bin/python" Scripts/browser_penguins.py "$URL" Examples/penguins/report.flow.json "$WORK/penguins-ids.json"
kill -INT "$SERVER"
wait "$SERVER" || true
SERVER=""
rm -rf "$WORK/penguins/output"
"$FLOW" run "$WORK/penguins/report.flow.json" > "$WORK/penguins.out"
"$FLOW" run "$WORK/example/report.flow.json" > "$WORK/example.out"
python3 Scripts/browser_compare.py "$WORK/example" "$WORK/penguins" "$WORK/penguins-ids.json" "$WORK/example.out" "$WORK/penguins.out"
echo "browser test: the penguins build from nothing took $((SECONDS - PENGUINS_START)) s"

