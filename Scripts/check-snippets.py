#!/usr/bin/env python3
"""Every Swift code block of the embedding guides compiles: each block of README.md and
Documentation/CustomKinds.md must appear, line for line, in a Swift file that CI compiles
(Tests/, Examples/, Sources/). Indentation, trailing spaces and `//` comments are ignored, so a block may sit
inside a test function; a block's `import` lines may be anywhere in the file's imports.
A block whose opening fence is ```swift no-check is exempt (say why next to it).

Usage: python3 Scripts/check-snippets.py   (from the repository root; exit 1 names each block
that no compiled file holds).
"""
import pathlib
import re
import sys

GUIDES = ["README.md", "Documentation/CustomKinds.md"]
COMPILED = ["Tests", "Examples", "Sources"]


def blocks(path):
    """(line number, [lines]) of each ```swift block that is checked."""
    found, current, start = [], None, 0
    for number, line in enumerate(path.read_text().splitlines(), 1):
        stripped = line.strip()
        if current is None and stripped.startswith("```swift"):
            if "no-check" not in stripped:
                current, start = [], number
            else:
                current, start = None, -number
        elif stripped.startswith("```") and (current is not None or start < 0):
            if current is not None:
                found.append((start, current))
            current, start = None, 0
        elif current is not None:
            current.append(line)
    return found


def normalize(lines):
    """Lines without indentation, trailing spaces or comments (`//` after a space or at the start)."""
    out = []
    for line in lines:
        line = re.sub(r"(^|\s)//.*$", "", line.strip()).rstrip()
        out.append(line)
    return out


def swift_files():
    for root in COMPILED:
        for path in pathlib.Path(root).rglob("*.swift"):
            if ".build" not in path.parts:
                yield path


def contains(haystack, needle):
    if not needle:
        return True
    first = needle[0]
    for index, line in enumerate(haystack):
        if line == first and haystack[index:index + len(needle)] == needle:
            return True
    return False


def main():
    files = {path: normalize(path.read_text().splitlines()) for path in swift_files()}
    missing = 0
    checked = 0
    for guide in GUIDES:
        for start, lines in blocks(pathlib.Path(guide)):
            checked += 1
            body = [line for line in normalize(lines) if line]
            imports = [line for line in body if line.startswith("import ")]
            rest = [line for line in body if not line.startswith("import ")]
            holders = [path for path, text in files.items()
                       if all(i in text for i in imports) and contains([l for l in text if l], rest)]
            if not holders:
                missing += 1
                print(f"{guide}:{start}: this swift block is in no compiled file (Tests/, Examples/, Sources/)")
    print(f"check-snippets: {checked} blocks, {checked - missing} compiled, {missing} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
