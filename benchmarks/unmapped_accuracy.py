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
an agent-relevant one left blank a miss.

    python benchmarks/unmapped_accuracy.py
    python benchmarks/unmapped_accuracy.py --thresholds 0.4 0.5 0.6 --show
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

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
    args = parser.parse_args()

    from compliance.pipeline import load_and_check
    from compliance.questionnaire import load_questionnaire
    from compliance.questionnaire.draft import draft_answers
    from compliance.questionnaire.judging import claims_judge
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
    wanted = labels()
    books = {name: load_questionnaire(path, unmapped_overrides()) for name, path in paths.items()}
    found = {(n, q.id or q.key) for n, b in books.items() for q in b.questions}
    absent = sorted(k for k in wanted if k not in found)
    if absent:
        raise SystemExit(f"labelled questions not found: {absent}")
    total = sum(len(b.questions) for b in books.values())
    print(f"{len(wanted)} labelled questions ({Counter(wanted.values())}) of {total} read")
    print("min-confidence | agent: drafted / blank | unrelated: drafted / blank | all drafted")
    for t in args.thresholds:
        counts: Counter[tuple[str, bool]] = Counter()
        drafted_all = 0
        rows = []
        for name, book in books.items():
            answers = draft_answers(
                book, model, verdicts, REPO / "evidence", judge, UnmappedPolicy(min_confidence=t)
            )
            drafted_all += sum(a.answered for a in answers.values())
            for q in book.questions:
                label = wanted.get((name, q.id or q.key))
                if label:
                    a = answers[q.key]
                    counts[(label, a.answered)] += 1
                    rows.append(
                        (
                            label,
                            a.answered,
                            name,
                            q.id or q.key,
                            a.match_score,
                            a.unanswered_reason or ", ".join(a.control_ids),
                        )
                    )
        print(
            f"{t:>14.2f} | {counts[('agent', True)]:>7} / {counts[('agent', False)]:<5}"
            f" | {counts[('unrelated', True)]:>11} / {counts[('unrelated', False)]:<5}"
            f" | {drafted_all} of {total}"
        )
        if args.show:
            for row in sorted(rows):
                print("   ", *row)


if __name__ == "__main__":
    main()
