#!/usr/bin/env python3
"""Runs the binary's `check` on every checkout of datasets/fees (issue 29)
and prints, per half and per kind, how many inserted problems were asked
about and how many clean look-alikes proceeded. Offline: the `rules`
extractor, a throwaway data folder, an exchange rate only where the row
gives one (`--fx`). Standard library only.

    python3 scripts/fees_report.py [--binary target/release/asasked] [--half open|lookalikes|lookalikes2|lookalikes3|heldout|all] [--show]

`--show` prints each row whose decision is not the expected one, with its
reasons (use it on the open files only, `open`, `lookalikes`, `lookalikes2` and
`lookalikes3`: the held-out half is read in aggregate).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
KINDS = ["total", "fx", "fee", "recurring", "addon"]


def run(binary, row, folder):
    cart = os.path.join(folder, "cart.json")
    with open(cart, "w", encoding="utf-8") as out:
        json.dump(row["cart"], out, ensure_ascii=False)
    command = [binary, "check", "--request", row["request"], "--cart", cart, "--today", row["today"],
               "--extractors", "rules", "--catalog", "none", "--json", "--data-dir", os.path.join(folder, "data")]
    for rate in row.get("fx", []):
        command += ["--fx", f"{rate['from']}:{rate['to']}={rate['rate']}@{rate['date']}"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        return "error", [done.stderr.strip()]
    result = json.loads(done.stdout)
    return result["decision"], result["reasons"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "asasked"))
    parser.add_argument("--half", default="all", choices=["open", "lookalikes", "lookalikes2", "lookalikes3", "heldout", "all"])
    parser.add_argument("--show", action="store_true")
    arguments = parser.parse_args()
    halves = ["open", "lookalikes", "lookalikes2", "lookalikes3", "heldout"] if arguments.half == "all" else [arguments.half]
    with tempfile.TemporaryDirectory() as folder:
        for half in halves:
            rows = [json.loads(line) for line in open(os.path.join(ROOT, "datasets", "fees", f"{half}.jsonl"), encoding="utf-8")]
            counts = {kind: [0, 0, 0, 0] for kind in KINDS}  # problems asked, problems, clean proceeded, clean
            errors = 0
            for row in rows:
                decision, reasons = run(arguments.binary, row, folder)
                errors += decision == "error"
                tally = counts[row["kind"]]
                if row["problem"]:
                    tally[0] += decision == "ask"
                    tally[1] += 1
                else:
                    tally[2] += decision == "proceed"
                    tally[3] += 1
                if arguments.show and decision != row["expected"]:
                    print(f"  {row['id']}: expected {row['expected']}, got {decision}: {row['request']}")
                    for reason in reasons:
                        print(f"      {reason}")
            print(f"{half} ({len(rows)} checkouts, {errors} errors)")
            print(f"  {'kind':<10} {'problems asked':>16} {'clean proceeded':>16}")
            total = [0, 0, 0, 0]
            for kind in KINDS:
                tally = counts[kind]
                total = [left + right for left, right in zip(total, tally)]
                print(f"  {kind:<10} {tally[0]:>10}/{tally[1]:<5} {tally[2]:>10}/{tally[3]:<5}")
            print(f"  {'all':<10} {total[0]:>10}/{total[1]:<5} {total[2]:>10}/{total[3]:<5}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
