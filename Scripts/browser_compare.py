"""Compares `flow run` of the penguins report built in the page with `flow run` of the example
(Scripts/browser-test.sh): the output files summary.csv and summary.json byte for byte, and
summary.txt and the printed values with the page's ids mapped back to the example's. Text
differs only in whitespace: the page's fields are one line, so the format template's line
breaks were typed as spaces (Documentation/Serve.md, "Left out").

usage: browser_compare.py EXAMPLE-DIR BUILT-DIR IDS.json EXAMPLE.out BUILT.out
"""
import json
import re
import sys

example, built, ids_file, example_out, built_out = sys.argv[1:6]
ids = json.load(open(ids_file))


def fail(message):
    print("browser penguins: FAILED:", message)
    sys.exit(1)


def words(text):
    return " ".join(text.split())


for name in ["summary.csv", "summary.json"]:
    if open("%s/output/%s" % (example, name), "rb").read() != open("%s/output/%s" % (built, name), "rb").read():
        fail("output/%s differs from the example's" % name)
if words(open(example + "/output/summary.txt").read()) != words(open(built + "/output/summary.txt").read()):
    fail("output/summary.txt differs from the example's beyond whitespace")


def records(text, mapping):
    """The printed values as `id.port = value` records (a value may run over lines), ids mapped."""
    found, current = [], None
    for line in text.splitlines():
        match = re.match(r"^([^\s.]+)\.(\S+) = ", line)
        if match:
            current = [mapping.get(match.group(1), match.group(1)) + line[len(match.group(1)):]]
            found.append(current)
        elif current is not None:
            current.append(line)
    return sorted(words("\n".join(record)) for record in found)


# Paths printed by the writers name each document's own folder.
expected = records(open(example_out).read().replace(example, "FOLDER"), ids)
actual = records(open(built_out).read().replace(built, "FOLDER"), {})
if not expected or expected != actual:
    fail("flow run prints %s, the example %s" % (actual, expected))
print("browser penguins: flow run of the saved file gives the example's output files and its %d values" % len(expected))
