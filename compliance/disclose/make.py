"""Make a disclosure record from what a build or an answer run just sent.

Only what was sent is recorded: for a build, every control the outputs show
and the stance; for answers, every question with its drafted answer (or why
it was left for a human) and the claims those answers rest on. The date is
the model's ``last_reviewed``; nothing reads the clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from compliance import __version__
from compliance.disclose.state import claim_states, file_hasher, stance_record
from compliance.model import Model
from compliance.model.audience import Audience
from compliance.model.disclosure import (
    AnswerRecord,
    DisclosureRecord,
    QuestionRecord,
    RecordKind,
    YesNeedRecord,
)
from compliance.pipeline import Checked


def _model(checked: Checked) -> Model:
    model = checked.workspace.model
    if model is None:
        raise ValueError("a disclosure is recorded only from a model that loaded")
    return model


def _record(checked: Checked, name: str, kind: RecordKind, sent: str,
            audience: Audience | None,
            controls: Iterable[str] | None, answers: list[AnswerRecord]) -> DisclosureRecord:
    model = _model(checked)
    controls = None if controls is None else sorted(controls)
    verdicts = checked.result.verdicts
    return DisclosureRecord(
        format="compliance-disclosure/1",
        name=name,
        kind=kind,
        date=model.system.last_reviewed,
        generator=f"compliance {__version__}",
        system=model.system.name,
        audience=audience,
        sent=sent,
        stance=stance_record(model, verdicts, controls) if kind is RecordKind.BUILD else None,
        claims=claim_states(model, verdicts, file_hasher(checked.workspace.evidence_dir),
                            controls),
        answers=answers,
    )


def build_record(checked: Checked, name: str, *, sent: str = "evidence-pack.zip",
                 audience: Audience = Audience.INTERNAL,
                 controls: Iterable[str] | None = None) -> DisclosureRecord:
    """The record of a build: the stance and every control the outputs show (``controls``:
    those its audience may read; all when None)."""
    return _record(checked, name, RecordKind.BUILD, sent, audience, controls, [])


def question_record(question: Any) -> QuestionRecord:
    entry = question.mapping
    return QuestionRecord(
        key=question.key,
        id=question.id,
        text=" ".join(str(question.text).split()) or "(no question text)",
        style=question.style,
        choices=list(question.choices),
        layers=list(entry.layers) if entry else [],
        controls=list(entry.controls) if entry else [],
        topics=list(entry.topics) if entry else [],
        mapped=entry is not None,
        suggest_only=bool(entry.suggest_only) if entry else False,
        yes_needs=[YesNeedRecord(part=part, topics=list(topics))
                   for part, topics in (entry.yes_needs if entry else ())],
    )


def answer_record(question: Any, answer: Any) -> AnswerRecord:
    """One question and what was drafted for it (``answer`` is a questionnaire Answer)."""
    answered = answer is not None and answer.answered
    reason = None if answered else (
        (answer.unanswered_reason if answer is not None else None)
        or "no answer was drafted for this question")
    return AnswerRecord(
        question=question_record(question),
        choice=answer.choice.value if answered and answer.choice else None,
        narrative=answer.narrative if answered else "",
        controls=list(answer.control_ids) if answered else [],
        evidence_sha256=list(answer.evidence_sha256) if answered else [],
        limits=list(answer.limits) if answered else [],
        left_for_human=reason,
    )


def answers_record(checked: Checked, name: str, questionnaire: Any,
                   answers: Mapping[str, Any], *, sent: str,
                   min_confidence: float | None) -> DisclosureRecord:
    """The record of an answered questionnaire: every answer, the claims they rest on, and
    how it was drafted (whether a mapping recognised it; the unmapped match threshold)."""
    items = [answer_record(q, answers.get(q.key)) for q in questionnaire.questions]
    cited = {cid for item in items for cid in item.controls}
    record = _record(checked, name, RecordKind.ANSWER, sent, None, sorted(cited), items)
    recognised = bool(questionnaire.recognised)
    return record.model_copy(update={
        "recognised": recognised, "min_confidence": None if recognised else min_confidence})
