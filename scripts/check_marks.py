#!/usr/bin/env python3
"""Checks that each mark moved from code into a class file holds exactly the
phrase array the code held (issue 27: words as data, not code).

  scripts/check_marks.py BASE_COMMIT MAP
e.g. `scripts/check_marks.py 4c43ce8 scripts/check_marks.words27e.txt`.
Each MAP line is `SRC_FILE LINE CLASS_FILE MARK`: LINE is where the array
`&[` opened in SRC_FILE at BASE_COMMIT. The class file is read as
`words::class` reads it (a spelling listed again is its first line), and
compared as a set: the look-arounds ask whether any phrase fits. Prints a
line per mark; exits 1 if any differs. Standard library only; run from the
repository's root.
"""
import re, subprocess, sys

BASE = sys.argv[1]
ok = True
for row in open(sys.argv[2]):
    if not row.strip() or row.startswith('#'):
        continue
    src, line, cls, mark = row.split()
    text = subprocess.check_output(['git', 'show', f'{BASE}:{src}'], text=True).splitlines()
    rest = '\n'.join(text[int(line) - 1:])
    start = rest.index('&[')
    depth, i, phrases, current = 0, start + 1, [], None
    while True:
        c = rest[i]
        if c == '/' and rest[i + 1] == '/':
            i = rest.index('\n', i)
            continue
        if c == '[':
            depth += 1
            if depth == 2:
                current = []
        elif c == ']':
            depth -= 1
            if depth == 1:
                phrases.append(' '.join(current))
            if depth == 0:
                break
        elif c == '"':
            j = rest.index('"', i + 1)
            current.append(rest[i + 1:j])
            i = j
        i += 1
    # As the loader reads it: a spelling listed again is its first line.
    first, marked = {}, set()
    for entry in open(f'extractors/words/{cls}'):
        entry = entry.split('#')[0].strip()
        if not entry:
            continue
        said = entry.split('=>')[0].split()
        spelling = ' '.join(word for word in said if not word.startswith('@'))
        first.setdefault(spelling, len(first))
        if '@' + mark in said:
            marked.add(spelling)
    listed = sorted(marked, key=first.get)
    # A request's tokens read "ё" as "е" (words::text), so an old phrase
    # with "ё" was the same phrase as its "е" spelling.
    phrases = list(dict.fromkeys(phrase.replace('ё', 'е') for phrase in phrases))
    # The look-arounds ask whether any phrase fits, so the order is free.
    same = sorted(listed) == sorted(phrases) and len(set(phrases)) == len(phrases)
    ok &= same
    print('ok ' if same else 'DIFF', src, line, cls, '@' + mark, phrases if same else f'{phrases} != {listed}')
sys.exit(0 if ok else 1)
