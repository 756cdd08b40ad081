"""Parses the page's scripts of `flow serve` (Sources/FlowCommandLine/Serve/Page/*.js) with
esprima (PyPI, pure Python; installed by Scripts/browser-test.sh into its venv) as strict
scripts, and checks that page.html's placeholders are the ones ServePageAssets fills.

usage: python Scripts/lint_page.py   (exits 1 naming the file, line and problem)
"""
import pathlib
import re
import sys

import esprima

PAGE = pathlib.Path(__file__).resolve().parent.parent / "Sources/FlowCommandLine/Serve/Page"
PLACEHOLDERS = {"title", "token", "nonce", "svg", "revision", "structure", "palette", "css", "script", "editor"}

problems = []
scripts = sorted(PAGE.glob("*.js"))
for path in scripts:
    try:
        esprima.parseScript(path.read_text(encoding="utf-8"), {"tolerant": False})
    except esprima.Error as error:
        problems.append("%s: %s" % (path.name, error))
found = set(re.findall(r"\{\{(\w+)\}\}", (PAGE / "page.html").read_text(encoding="utf-8")))
if found != PLACEHOLDERS:
    problems.append("page.html: placeholders %s, expected %s" % (sorted(found), sorted(PLACEHOLDERS)))
for problem in problems:
    print("page lint:", problem)
if problems:
    sys.exit(1)
print("page lint: %d scripts parse (esprima, strict), page.html's placeholders match" % len(scripts))
