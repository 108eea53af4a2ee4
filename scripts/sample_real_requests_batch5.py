#!/usr/bin/env python3
"""Draws the WebShop rows of tests/extraction/real5.jsonl, the dev set's fifth batch
(unlabelled rows, JSON lines on stdout; the labelled file keeps this order).

Standard library only. 100 WebShop goals drawn with random.Random(20261205), sorted by
index, excluding:
- every id and (stripped, lower-cased) text of real.jsonl … real4.jsonl;
- every goal `scripts/unlabelled_requests.py` could have printed in the rounds read by
  hand: seeds 1-18 took at most 600 WebShop goals each, seeds 19-22 at most 800; for
  each seed, the first 600 (or 800) goals of its draw under each of the three exclusion
  sets that script has had (real.jsonl; real and real2; real, real2 and real3).
  random.sample picks by rejection for these sizes, so a smaller draw of the same seed
  is a prefix of this one.

What is left is small (307 of 12,035 goals): the batch is the goals no rule was ever
written from. No ShoppingBench rows, for the reason batch 3's script gives.
"""
import json
import random

from devset_pool import DATA, EXTRACTION, eligible, labelled, split

BATCHES = [EXTRACTION / name for name in ("real.jsonl", "real2.jsonl", "real3.jsonl", "real4.jsonl")]


def main() -> None:
    web = json.loads((DATA / "webshop_human_requests.json").read_text())
    read = set()
    for paths in (BATCHES[:1], BATCHES[:2], BATCHES[:3]):
        ids, texts = labelled(paths)
        candidates = eligible(web, ids, texts)
        for seed in range(1, 23):
            read.update(random.Random(seed).sample(candidates, 600 if seed <= 18 else 800))
    ids, texts = labelled(BATCHES)
    pool = [index for index in eligible(web, ids, texts) if index not in read]
    for index in sorted(random.Random(20261205).sample(pool, 100)):
        identifier = "webshop-%05d" % index
        print(json.dumps({"id": identifier, "source": "webshop", "lang": "en", "split": split(identifier),
                          "today": "2026-11-02", "request": web[index]}, ensure_ascii=False))


if __name__ == "__main__":
    main()
