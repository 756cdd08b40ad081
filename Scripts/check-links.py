#!/usr/bin/env python3
"""Checks every relative link in the repository's Markdown files.

    python3 Scripts/check-links.py            (from anywhere; exit status 1 on a broken link)

A link `[text](path)`, `![alt](path)` or `[name]: path` must name a file or folder inside the
repository (a user of the package has nothing beside it), and a `#fragment` must name a heading
of the target Markdown file (GitHub's anchors). Links in code blocks and code spans, and
absolute URLs (`https:`, `mailto:`), are not checked. Folders whose names start with `.`
(`.build`, `.git`, `.notes`) are skipped.
"""
import os
import re
import sys
import unicodedata
from urllib.parse import unquote

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Pages that branches being merged bring: while one is absent, a link to it is a warning.
# Once the page exists it is checked like any other; drop a name from here after its merge.
PENDING: set[str] = set()

INLINE = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def markdown_files():
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks, code spans removed."""
    inside = False
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield number, re.sub(r"(`+)(?:(?!\1).)+?\1", "", line.rstrip("\n"))


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    text = text.replace("`", "").lower()
    kept = []
    for char in text:
        if char in " -_" or unicodedata.category(char)[0] in "LN":
            kept.append(char)
    return "".join(kept).replace(" ", "-")


def anchors(path):
    seen = {}
    result = set()
    inside = False
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if FENCE.match(line):
                inside = not inside
                continue
            match = None if inside else HEADING.match(line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                result.add(base if count == 0 else f"{base}-{count}")
    return result


def main():
    problems = []
    warnings = []
    checked = 0
    anchor_cache = {}
    for path in markdown_files():
        shown = os.path.relpath(path, ROOT)
        for number, line in prose_lines(path):
            targets = [m.group(1) for m in INLINE.finditer(line)]
            definition = DEFINITION.match(line)
            if definition:
                targets.append(definition.group(1))
            for target in targets:
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                    continue  # https:, mailto: …
                checked += 1
                file_part, _, fragment = target.partition("#")
                resolved = path if not file_part else os.path.realpath(
                    os.path.join(os.path.dirname(path), unquote(file_part)))
                where = f"{shown}:{number}: {target}"
                if os.path.commonpath([resolved, ROOT]) != ROOT:
                    problems.append(f"{where}: points outside the repository")
                    continue
                relative = os.path.relpath(resolved, ROOT)
                if not os.path.exists(resolved):
                    if relative in PENDING:
                        warnings.append(f"{where}: not in this tree yet (expected from a merge)")
                    else:
                        problems.append(f"{where}: no such file")
                    continue
                if fragment and resolved.endswith(".md"):
                    if resolved not in anchor_cache:
                        anchor_cache[resolved] = anchors(resolved)
                    if unquote(fragment).lower() not in anchor_cache[resolved]:
                        problems.append(f"{where}: no heading '#{fragment}' in {relative}")
    for warning in warnings:
        print(f"check-links: warning: {warning}")
    for problem in problems:
        print(f"check-links: error: {problem}")
    print(f"check-links: {checked} relative links checked, {len(problems)} broken, {len(warnings)} pending")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
