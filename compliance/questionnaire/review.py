"""``write_review``: the list a human works from, one line per question, answered or not.

Written next to the output, named after its full file name (``caiq.xlsx`` ->
``caiq.xlsx.review.csv`` and ``caiq.xlsx.review.json``, so answering ``caiq.xlsx``
and ``caiq.json`` into one folder keeps both reviews), with the answer, the
control ids, evidence sha256 and limits it rests on, and for each question
left blank, why. Status is ``answered`` (a choice, or a
free-text question answered), ``narrative only`` (the narrative is written;
the Yes/No/NA choice is left to a human) or ``left for a human``.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from compliance.questionnaire.safety import atomic_output, neutralise, refuse_overwrite
from compliance.questionnaire.types import Answer, Question, Questionnaire

NO_ANSWER = "no answer was drafted for this question"
ANSWERED, NARRATIVE_ONLY, LEFT = "answered", "narrative only", "left for a human"
FIELDS = (
    "key", "id", "sheet", "row", "section", "question", "status", "choice", "narrative",
    "control_ids", "evidence_sha256", "limits", "layers", "reason", "match_score",
    "matched_words", "library",
)  # fmt: skip


def review_paths(out_path: Path) -> tuple[Path, Path]:
    """``<out>.review.csv`` and ``<out>.review.json``: the full output name, extension kept."""
    out_path = Path(out_path)
    return (
        out_path.with_name(f"{out_path.name}.review.csv"),
        out_path.with_name(f"{out_path.name}.review.json"),
    )


def review_rows(questionnaire: Questionnaire, answers: dict[str, Answer]) -> list[dict[str, Any]]:
    return [_row(q, answers.get(q.key)) for q in questionnaire.questions]


def _row(q: Question, a: Answer | None) -> dict[str, Any]:
    answered = a is not None and a.answered
    reason = None if answered else (a.unanswered_reason if a else None) or NO_ANSWER
    if not answered:
        status = LEFT
    elif a is not None and a.choice is None and q.choices:
        status = NARRATIVE_ONLY
        reason = a.choice_left
    else:
        status = ANSWERED
    return {
        "key": q.key,
        "id": q.id,
        "sheet": q.sheet,
        "row": q.row,
        "section": q.section,
        "question": q.text,
        "status": status,
        "choice": a.choice.value if answered and a and a.choice else None,
        "narrative": a.narrative if answered and a else "",
        "control_ids": list(a.control_ids) if a else [],
        "evidence_sha256": list(a.evidence_sha256) if a else [],
        "limits": list(a.limits) if a else [],
        "layers": list(a.layers) if a and a.layers else list(q.mapping.layers if q.mapping else ()),
        "reason": reason,
        "match_score": a.match_score if a else None,
        "matched_words": list(a.matched) if a else [],
        "library": a.library if a else "",
    }


def write_review(
    questionnaire: Questionnaire, answers: dict[str, Answer], out_path: Path
) -> tuple[Path, Path]:
    """Write the review CSV and JSON beside ``out_path``; returns their paths.

    Neither may be the questionnaire itself (:class:`QuestionnaireError`)."""
    csv_path, json_path = review_paths(out_path)
    for path in (csv_path, json_path):
        refuse_overwrite(questionnaire.path, path)
    rows = review_rows(questionnaire, answers)
    with atomic_output(csv_path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS, lineterminator="\r\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(row[k]) for k in FIELDS})
    summary = {
        "questionnaire": str(questionnaire.path),
        "kind": questionnaire.kind,
        "questions": len(rows),
        "answered": sum(r["status"] == ANSWERED for r in rows),
        "narrative_only": sum(r["status"] == NARRATIVE_ONLY for r in rows),
        "left_for_human": sum(r["status"] == LEFT for r in rows),
        "library_reused": sum(r["library"].startswith("reused") for r in rows),
        "library_stale": sum(r["library"].startswith("stale") for r in rows),
        "notes": questionnaire.notes,
        "items": rows,
    }
    with atomic_output(json_path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    return csv_path, json_path


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return neutralise(" | ".join(str(v) for v in value))
    return neutralise(str(value))
