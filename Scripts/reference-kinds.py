#!/usr/bin/env python3
"""Writes the node-kind tables of Documentation/Reference.md from what `flow nodes` prints.

    python3 Scripts/reference-kinds.py FLOW            rewrite the tables in Reference.md
    python3 Scripts/reference-kinds.py FLOW --check    exit 1 if they differ from FLOW's kinds

FLOW is a built `flow` executable. The tables sit between the markers
`<!-- kinds:begin -->` and `<!-- kinds:end -->`; everything else in the file is written by hand.
Ports, types, defaults and summaries come from `flow nodes --format json`, the one-line param
descriptions from `flow nodes` (text).
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
REFERENCE = os.path.join(ROOT, "Documentation", "Reference.md")
BEGIN, END = "<!-- kinds:begin -->", "<!-- kinds:end -->"

FAMILIES = [
    ("Numbers", ["number", "add", "subtract", "multiply", "divide", "expression"]),
    ("Text", ["text", "format", "toNumber"]),
    ("Reading and writing files", ["readText", "readCSV", "readJSON", "readParquet", "writeCSV", "writeJSON", "writeText"]),
    ("Tables", ["filter", "derive", "select", "sort", "groupBy", "join", "union", "distinct", "limit",
                "rowCount", "column", "reduce", "window", "pivot", "unpivot"]),
    ("Live", ["clock", "counter", "accumulate", "previous", "lines"]),
    ("Branches", ["if", "switch", "fallback"]),
    ("Layout", ["group"]),
]


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def json_literal(value):
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def port(entry):
    text = f"`{entry['name']}`: {entry['type']}"
    if "default" in entry:
        text += f" = `{json_literal(entry['default'])}`"
    if entry.get("lazy"):
        text += " (lazy)"
    return text


def descriptions(flow):
    """(kind, param) → the description `flow nodes` prints after the dash."""
    text = subprocess.run([flow, "nodes"], check=True, capture_output=True, text=True).stdout
    result, kind = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            kind = line.split(" — ")[0].strip()
        match = re.match(r"^\s+param:\s+(\S+?):.*? — (.*)$", line)
        if match and kind:
            result[(kind, match.group(1))] = match.group(2)
    return result


def tables(flow):
    kinds = json.loads(subprocess.run([flow, "nodes", "--format", "json"], check=True,
                                      capture_output=True, text=True).stdout)
    by_name = {kind["name"]: kind for kind in kinds}
    described = descriptions(flow)
    listed = {name for _, names in FAMILIES for name in names}
    families = FAMILIES + [("Other", sorted(set(by_name) - listed))]
    lines = [BEGIN, "<!-- Written by Scripts/reference-kinds.py from `flow nodes`; edit the kinds, not this. -->"]
    for family, names in families:
        names = [name for name in names if name in by_name]
        if not names:
            continue
        lines += ["", f"### {family}", "", "| kind | inputs | outputs | params | what it does |", "|---|---|---|---|---|"]
        for name in names:
            kind = by_name[name]
            inputs = "<br>".join(port(p) for p in kind["inputs"]) or "—"
            outputs = "<br>".join(f"`{p['name']}`: {p['type']}" for p in kind["outputs"]) or "—"
            params = []
            for param in kind["params"]:
                text = f"`{param['name']}`: {param['type']}"
                if param.get("required"):
                    text += " (required)"
                elif "default" in param:
                    text += f" = `{json_literal(param['default'])}`"
                else:
                    text += " (optional)"
                if (name, param["name"]) in described:
                    text += f" — {described[(name, param['name'])]}"
                params.append(text)
            row = [f"`{name}`", inputs, outputs, "<br>".join(params) or "—", kind["summary"]]
            lines.append("| " + " | ".join(cell(part) for part in row) + " |")
    lines.append(END)
    return "\n".join(lines)


def main():
    arguments = sys.argv[1:]
    check = "--check" in arguments
    arguments = [a for a in arguments if a != "--check"]
    if len(arguments) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    generated = tables(arguments[0])
    with open(REFERENCE, encoding="utf-8") as handle:
        text = handle.read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        print(f"reference-kinds: {REFERENCE} has no {BEGIN} … {END} block", file=sys.stderr)
        return 1
    updated = text[:start] + generated + text[end + len(END):]
    if check:
        if updated != text:
            print("reference-kinds: Documentation/Reference.md's kind tables differ from `flow nodes`; "
                  "run: python3 Scripts/reference-kinds.py \"$(swift build --show-bin-path)/flow\"", file=sys.stderr)
            return 1
        print("reference-kinds: the kind tables match `flow nodes`")
        return 0
    if updated != text:
        with open(REFERENCE, "w", encoding="utf-8") as handle:
            handle.write(updated)
    return 0


if __name__ == "__main__":
    sys.exit(main())
