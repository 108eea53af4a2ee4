#!/usr/bin/env python3
"""Byte-compares what two builds of `rules` print (`asasked extract --extractors rules
--json`) on every row of the dev set (tests/extraction/*.jsonl), datasets/v1, v2 and
real, and on the unlabelled requests scripts/unlabelled_diff.py draws with the same seed
and count: the net of a change that must not change any extraction (issue 27).

Standard library only. Each binary runs once per request; its outputs can be saved and
compared later, so the old build's half runs while the new one builds:
  scripts/extract_diff.py save BINARY SEED COUNT OUT.json
  scripts/extract_diff.py compare OLD.json NEW.json
e.g. `scripts/extract_diff.py save /tmp/asasked-before 27 4000 /tmp/before.json`.
The one field that varies between two runs of one build, `latency_ms`, is blanked.
`compare` prints each request whose output differs (its id, the request, both
outputs) and on stderr how many were compared and how many differed.
"""
import json
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from devset_pool import EXTRACTION, ROOT, eligible, labelled, pools

BATCHES = [EXTRACTION / name for name in ("real.jsonl", "real2.jsonl", "real3.jsonl", "real4.jsonl", "real5.jsonl")]


def requests(seed: int, count: int) -> list:
    """The labelled rows (id, request, today), then the unlabelled draw of unlabelled_diff.py."""
    found = []
    for path in sorted(EXTRACTION.glob("*.jsonl")) + [ROOT / "datasets" / name / "tasks.jsonl" for name in ("v1", "v2", "real")]:
        for line in path.open():
            if line.strip():
                row = json.loads(line)
                found.append((f"{path.parent.name}/{path.name}:{row['id']}", row["request"], row.get("today", "2026-11-02")))
    ids, texts = labelled(BATCHES)
    web, budget, multi = pools()
    rng = random.Random(seed)
    for pool, wanted, pattern in [(web, count, "webshop-%05d"), (budget, min(count // 10, 100), "sbbudget-%03d"),
                                  (multi, min(count // 10, 100), "sbmulti-%03d")]:
        candidates = eligible(pool, ids, texts, pattern)
        found.extend((pattern % index, pool[index], "2026-11-02") for index in rng.sample(candidates, min(wanted, len(candidates))))
    return found


def output(binary: str, text: str, today: str) -> str:
    command = [binary, "extract", "--extractors", "rules", "--today", today, "--request", text, "--json"]
    printed = subprocess.run(command, capture_output=True).stdout
    return re.sub(rb'"latency_ms": [0-9]+', b'"latency_ms": _', printed).decode()


def main() -> None:
    if sys.argv[1] == "save":
        binary, seed, count, out = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
        asked = requests(seed, count)
        with ThreadPoolExecutor(2) as pool:
            outputs = list(pool.map(lambda request: output(binary, request[1], request[2]), asked))
        json.dump({"requests": asked, "outputs": outputs}, open(out, "w"))
        print(f"saved {len(asked)}", file=sys.stderr)
        return
    old, new = (json.load(open(path)) for path in sys.argv[2:4])
    assert old["requests"] == new["requests"], "saved with another seed, count or dev set"
    changed = 0
    for (identifier, text, _), before, after in zip(old["requests"], old["outputs"], new["outputs"]):
        if before != after:
            changed += 1
            print(identifier, "||", " ".join(text.split()))
            print("  old", before)
            print("  new", after)
    labelled_rows = sum(1 for (identifier, _, _) in old["requests"] if ":" in identifier)
    print(f"compared {len(old['requests'])} ({labelled_rows} labelled rows, {len(old['requests']) - labelled_rows} "
          f"unlabelled), byte-different {changed}", file=sys.stderr)


if __name__ == "__main__":
    main()
