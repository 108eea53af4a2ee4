#!/usr/bin/env python3
"""Lists the functions of src/ longer than a limit (issue 27 §5: no function
over ~80 lines without a comment saying why it must be one).

Standard library only. Usage: scripts/long_functions.py [LIMIT] (default 80).
Relies on rustfmt's layout: a function's closing brace is the first line
after its signature at the signature's indentation. Prints lines, path:line
and the function's name, longest first; nested functions are listed too.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIGNATURE = re.compile(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(\w+)")


def functions(path: pathlib.Path):
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines):
        found = SIGNATURE.match(line)
        if not found:
            continue
        indent, name = found.groups()
        # A declaration without a body (a trait's) ends in ';' before any '{'.
        end = number
        while end < len(lines) and "{" not in lines[end] and not lines[end].rstrip().endswith(";"):
            end += 1
        if end >= len(lines) or "{" not in lines[end]:
            continue
        if lines[end].rstrip().endswith("}") and lines[end].count("{") == lines[end].count("}"):
            yield name, number + 1, end - number + 1
            continue
        for last in range(end + 1, len(lines)):
            if lines[last] == indent + "}":
                yield name, number + 1, last - number + 1
                break


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    found = []
    for path in sorted((ROOT / "src").rglob("*.rs")):
        for name, line, length in functions(path):
            if length > limit:
                found.append((length, f"{path.relative_to(ROOT)}:{line}", name))
    for length, place, name in sorted(found, key=lambda entry: (-entry[0], entry[1])):
        print(f"{length:5} {place} {name}")
    print(f"{len(found)} functions over {limit} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
