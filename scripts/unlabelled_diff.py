#!/usr/bin/env python3
"""Compares what two builds of `rules` fill on requests from ../shared/data/ that are
in no dev-set batch (tests/extraction/real.jsonl … real5.jsonl: neither id nor text),
for reading by hand: how each change to the rules was checked on words nobody labelled
without looking at a held-out half.

Standard library only. Usage:
  scripts/unlabelled_diff.py OLD_BINARY NEW_BINARY SEED WEBSHOP
e.g. `scripts/unlabelled_diff.py /tmp/asasked-before target/release/asasked 27 2500`.
Draws WEBSHOP WebShop goals and a tenth as many (at most 100) ShoppingBench budget and
multi-product queries with random.Random(SEED); prints one line per request whose
facts (under --merge spec) differ: the id, each changed field as [old, new], and the
request; on stderr how many were compared and how many changed.
"""
import json
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from devset_pool import EXTRACTION, eligible, labelled, pools

BATCHES = [EXTRACTION / name for name in ("real.jsonl", "real2.jsonl", "real3.jsonl", "real4.jsonl", "real5.jsonl")]


def facts(binary: str, text: str) -> dict:
    command = [binary, "extract", "--extractors", "rules", "--today", "2026-11-02", "--merge", "spec",
               "--request", text, "--json"]
    outcome = json.loads(subprocess.run(command, capture_output=True, text=True).stdout)
    merged = outcome["merged"]
    if merged is None:
        # The check failed closed; its reasons are what to compare.
        return {"failed closed": outcome.get("reasons")}
    merged = merged.get("Ok", merged)
    return {key: value for key, value in merged.items() if value not in (None, False, [])}


def main() -> None:
    old, new, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    ids, texts = labelled(BATCHES)
    web, budget, multi = pools()
    rng = random.Random(seed)
    requests = []
    for pool, wanted, pattern in [(web, count, "webshop-%05d"), (budget, min(count // 10, 100), "sbbudget-%03d"),
                                  (multi, min(count // 10, 100), "sbmulti-%03d")]:
        candidates = eligible(pool, ids, texts, pattern)
        requests.extend((pattern % index, pool[index]) for index in rng.sample(candidates, min(wanted, len(candidates))))

    def both(request):
        identifier, text = request
        return identifier, text, facts(old, text), facts(new, text)

    changed = 0
    with ThreadPoolExecutor(2) as pool:
        for identifier, text, before, after in pool.map(both, requests):
            if before == after:
                continue
            changed += 1
            fields = {key: [before.get(key), after.get(key)] for key in sorted(set(before) | set(after))
                      if before.get(key) != after.get(key)}
            print(identifier, json.dumps(fields, ensure_ascii=False), "||", " ".join(text.split()))
    print(f"compared {len(requests)}, changed {changed}", file=sys.stderr)


if __name__ == "__main__":
    main()
