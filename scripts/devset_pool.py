"""What the dev-set scripts share (standard library only): the split rule, the ids
and texts a set of labelled batches holds, and the pools of ../shared/data/.

Imported by scripts/sample_real_requests_batch3.py, sample_real_requests_batch5.py
and unlabelled_diff.py (run as `python3 scripts/NAME.py`, so this folder is on
sys.path).
"""
import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
EXTRACTION = ROOT / "tests" / "extraction"


def split(identifier: str) -> str:
    """The dev set's rule: held out iff the first 8 hex digits of sha256(id) are odd."""
    return "heldout" if int(hashlib.sha256(identifier.encode()).hexdigest()[:8], 16) % 2 == 1 else "open"


def labelled(paths):
    """The ids and the stripped, lower-cased texts of every row of these batches."""
    rows = [json.loads(line) for path in paths for line in path.open() if line.strip()]
    return {row["id"] for row in rows}, {row["request"].strip().lower() for row in rows}


def eligible(pool, ids, texts, pattern="webshop-%05d"):
    """Indexes of a pool whose id (by `pattern`) and text no batch holds."""
    return [index for index in range(len(pool))
            if pattern % index not in ids and pool[index].strip().lower() not in texts]


def pools():
    """WebShop goals, ShoppingBench budget and multi-product queries, in file order."""
    web = json.loads((DATA / "webshop_human_requests.json").read_text())
    budget = [json.loads(line)["query"] for line in (DATA / "shoppingbench_budget.jsonl").open()]
    multi = [json.loads(line)["query"] for line in (DATA / "shoppingbench_multi_product.jsonl").open()]
    return web, budget, multi
