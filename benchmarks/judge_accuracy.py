"""Precision and recall of the claims judge, per family and overall.

Usage: python benchmarks/judge_accuracy.py

Scores the tuning corpus (tests/corpus/claims.yaml, known failures included)
and, separately, two held-out sets never used for tuning: heldout.yaml, written
before the judge existed, and heldout2.yaml, written after the judge had been
tuned, with phrasing it had not seen. "overall" counts a text as a true
positive only when it is flagged with exactly the expected families; a
flagged honest text is a false positive, a missed overclaim a false negative.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.corpus.corpus_io import CORPUS, FAMILIES, HELDOUT, HELDOUT2, load, scores  # noqa: E402


def ratio(a: int, b: int) -> str:
    return f"{a / b:6.1%}" if b else "   n/a"


def report(title: str, path: Path) -> None:
    items = load(path)
    over = sum(1 for i in items if i.expect)
    known = sum(1 for i in items if i.known_failure)
    print(f"\n{title}: {len(items)} statements ({over} overclaims, {len(items) - over} honest"
          f"{f', {known} listed known failures' if known else ''})")
    print(f"{'family':40} {'tp':>4} {'fp':>4} {'fn':>4} {'precision':>10} {'recall':>8}")
    for fam, (tp, fp, fn) in scores(items).items():
        label = fam if fam != "overall" else "overall (exact family set per text)"
        print(f"{label:40} {tp:4} {fp:4} {fn:4} {ratio(tp, tp + fp):>10} {ratio(tp, tp + fn):>8}")


def main() -> None:
    assert set(FAMILIES.values())
    report("Tuning corpus", CORPUS)
    report("Held-out set 1 (written before the judge, never tuned on)", HELDOUT)
    report("Held-out set 2 (written after tuning, never tuned on)", HELDOUT2)


if __name__ == "__main__":
    main()
