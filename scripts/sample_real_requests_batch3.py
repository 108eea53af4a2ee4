#!/usr/bin/env python3
"""Draws the WebShop rows of tests/extraction/real3.jsonl, the dev set's third batch
(unlabelled rows, JSON lines on stdout; the labelled file keeps this order).

Standard library only. 140 WebShop goals drawn with random.Random(20261203), sorted by
index, excluding:
- every id and (stripped, lower-cased) text of real.jsonl and real2.jsonl;
- every goal `scripts/unlabelled_requests.py` could have printed in the precision
  rounds read by hand (seeds 1-18): for each seed, the first 600 goals of its draw
  (random.sample picks by rejection for these sizes, so a smaller draw of the same
  seed is a prefix of this one), under both exclusion sets that script has had
  (real.jsonl alone, then real.jsonl and real2.jsonl). Rules were fixed on those
  goals, so a batch that held them would flatter the parser.

No ShoppingBench rows: the budget and multi-product pools (250 each) were mostly
drawn by the two earlier batches and the hand-read rounds, whose exact counts per
seed are not all on record, so no remaining row is known to be unread.
"""
import json
import random

from devset_pool import DATA, EXTRACTION, eligible, labelled, split

BATCHES = [EXTRACTION / name for name in ("real.jsonl", "real2.jsonl")]


def main() -> None:
    web = json.loads((DATA / "webshop_human_requests.json").read_text())
    read = set()
    for paths in (BATCHES[:1], BATCHES):
        ids, texts = labelled(paths)
        candidates = eligible(web, ids, texts)
        for seed in range(1, 19):
            read.update(random.Random(seed).sample(candidates, 600))
    ids, texts = labelled(BATCHES)
    pool = [index for index in eligible(web, ids, texts) if index not in read]
    for index in sorted(random.Random(20261203).sample(pool, 140)):
        identifier = "webshop-%05d" % index
        print(json.dumps({"id": identifier, "source": "webshop", "lang": "en", "split": split(identifier),
                          "today": "2026-11-02", "request": web[index]}, ensure_ascii=False))


if __name__ == "__main__":
    main()
