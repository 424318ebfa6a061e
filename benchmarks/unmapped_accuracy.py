"""How well unmapped drafting separates agent-relevant questions from unrelated ones.

Reads CSA CAIQ v4.0.3 (its built-in mapping disabled), CSA AI-CAIQ (AICM
v1.1.0, read as an unmapped CSV) and Google VSAQ from ../shared/data, drafts
each with the example workspace (the repository's controls/ and evidence/)
exactly as ``compliance answer`` does for a questionnaire no mapping
recognises, and compares the outcome with hand labels in
tests/questionnaire/data/relevance-labels.csv (question ids and labels only;
see tests/questionnaire/labelled.py).

For each --min-confidence value it prints, per label, how many questions were
drafted and how many left blank; an unrelated question drafted is a defect,
an agent-relevant one left blank a miss. Then, at the default, the same per
questionnaire.

``--extra QUESTIONNAIRE LABELS`` adds a labelled set of your own (a CSV, XLSX
or JSON questionnaire and a CSV with columns id,label), scored separately:
the way to measure on text nobody tuned on without putting others' text in
the repository.

    python benchmarks/unmapped_accuracy.py
    python benchmarks/unmapped_accuracy.py --thresholds 0.4 0.5 0.6 --show
    python benchmarks/unmapped_accuracy.py --extra ~/fresh.csv ~/fresh-labels.csv
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.conftest import SHARED_DATA  # noqa: E402
from tests.questionnaire.labelled import FILES, labels, unmapped_overrides  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--thresholds", type=float, nargs="+", default=[0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7]
    )
    parser.add_argument("--show", action="store_true", help="list each labelled question")
    parser.add_argument(
        "--extra",
        nargs=2,
        action="append",
        default=[],
        metavar=("QUESTIONNAIRE", "LABELS"),
        help="a labelled set of your own, scored on its own line",
    )
    args = parser.parse_args()

    from compliance.pipeline import load_and_check
    from compliance.questionnaire import load_questionnaire
    from compliance.questionnaire.draft import draft_answers
    from compliance.questionnaire.judging import claims_judge
    from compliance.questionnaire.match import DEFAULT_MIN_CONFIDENCE
    from compliance.questionnaire.unmapped import UnmappedPolicy
    from compliance.questionnaire.verdicts import control_verdicts

    paths = {name: SHARED_DATA / rel for name, rel in FILES.items()}
    missing = [str(p) for p in paths.values() if not p.is_file()]
    if missing:
        raise SystemExit(f"shared data not found: {', '.join(missing)}")
    checked = load_and_check(REPO)
    assert checked.ok and checked.workspace.model is not None
    model, verdicts = checked.workspace.model, control_verdicts(checked.result.verdicts)
    judge = claims_judge()

    def run(books: dict[str, Any], wanted: dict[tuple[str, str], str], t: float) -> list[Any]:
        rows = []
        for name, book in books.items():
            answers = draft_answers(
                book, model, verdicts, REPO / "evidence", judge, UnmappedPolicy(min_confidence=t)
            )
            for q in book.questions:
                a = answers[q.key]
                label = wanted.get((name, q.id or q.key), "-")
                why = a.unanswered_reason or ", ".join(a.control_ids)
                rows.append((label, a.answered, name, q.id or q.key, a.match_score, why))
        return rows

    def line(title: str, rows: list[Any]) -> str:
        n = Counter((r[0], r[1]) for r in rows)
        return (
            f"{title:>30} | {n[('agent', True)]:>7} / {n[('agent', False)]:<5}"
            f" | {n[('unrelated', True)]:>11} / {n[('unrelated', False)]:<5}"
            f" | {sum(r[1] for r in rows)} of {len(rows)}"
        )

    wanted = labels()
    books = {name: load_questionnaire(path, unmapped_overrides()) for name, path in paths.items()}
    found = {(n, q.id or q.key) for n, b in books.items() for q in b.questions}
    absent = sorted(k for k in wanted if k not in found)
    if absent:
        raise SystemExit(f"labelled questions not found: {absent}")
    total = sum(len(b.questions) for b in books.values())
    print(f"{len(wanted)} labelled questions ({Counter(wanted.values())}) of {total} read")
    header = "| agent: drafted / blank | unrelated: drafted / blank | all drafted"
    print(f"{'min-confidence':>30} {header}")
    for t in args.thresholds:
        rows = run(books, wanted, t)
        print(line(f"{t:.2f}", rows))
        if args.show:
            for row in sorted(r for r in rows if r[0] != "-"):
                print("   ", *row)
    print(f"\nat the default --min-confidence {DEFAULT_MIN_CONFIDENCE:.2f}, per questionnaire:")
    print(f"{'questionnaire':>30} {header}")
    rows = run(books, wanted, DEFAULT_MIN_CONFIDENCE)
    for name in books:
        print(line(name, [r for r in rows if r[2] == name]))
    for questionnaire, label_file in args.extra:
        book = load_questionnaire(Path(questionnaire), unmapped_overrides())
        with open(label_file, encoding="utf-8", newline="") as handle:
            extra = {("extra", r["id"]): r["label"] for r in csv.DictReader(handle)}
        rows = run({"extra": book}, extra, DEFAULT_MIN_CONFIDENCE)
        unread = sorted(i for (_n, i) in extra if i not in {r[3] for r in rows})
        print(line(Path(questionnaire).name, rows), end="")
        print(f" (labelled, not read as a question: {', '.join(unread)})" if unread else "")
        if args.show:
            for row in sorted(r for r in rows if r[0] != "-"):
                print("   ", *row)


if __name__ == "__main__":
    main()
