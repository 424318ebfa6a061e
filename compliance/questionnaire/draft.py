"""Draft answers from the checked model only: claims and their limits, never beyond.

For each question, the controls that may answer it are those its mapping
entry names, or those in its layers whose text mentions one of its topics.
Then, honestly:

- a deployed control whose claim the configuration checks VERIFIED supports
  "Yes" (for Yes/No questions) with its claim and its limits as narrative, but only
  when the verified claims speak to each part of the question the mapping lists
  (``yes_needs``); otherwise the narrative is written and the choice left for a
  human, with the reason in the review;
- a deployed but unverified control, or a partial one, gives narrative-only
  wording that starts "Partially:" and says why; the choice stays blank;
- planned controls support nothing; with no supporting control the question
  is left blank for a human, with the reason;
- "No" is never drafted: absence is a human's call;
- a control whose claim carries an overclaim the judge flagged and a waiver lets stand
  in the model answers nothing: the question is left for a human, with the reason;
- every drafted narrative goes through the claims judge before it is kept;
  a flagged (or unjudgeable) answer is left for a human with the reason.
"""

from __future__ import annotations

import enum
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from compliance.questionnaire.controls import (
    control_text,
    layer_of,
    status_name,
    unique,
    waived_reason,
)
from compliance.questionnaire.judging import Judge
from compliance.questionnaire.library import Library, reuse
from compliance.questionnaire.types import Answer, Choice, Question, Questionnaire
from compliance.questionnaire.unmapped import UnmappedPolicy, draft_unmapped
from compliance.questionnaire.verdicts import status_of


class Support(enum.StrEnum):
    FULL = "full"
    PARTIAL = "partial"


@dataclass(frozen=True, slots=True)
class Backing:
    """One control's part in an answer."""

    control: Any  # compliance.model.Control
    support: Support
    why_partial: str = ""


def draft_answers(
    questionnaire: Questionnaire,
    model: Any,
    verdicts: dict[str, Any],
    evidence_root: Path,
    judge: Judge,
    unmapped: UnmappedPolicy | None = None,
    library: Library | None = None,
    waived: dict[str, str] | None = None,
) -> dict[str, Answer]:
    """An :class:`Answer` for every question: drafted, or left for a human with the reason.

    ``verdicts`` maps control id -> verdict (see :func:`verdicts.control_verdicts`).
    With ``unmapped``, a questionnaire no mapping recognises is drafted by matching each
    question to the model (:mod:`unmapped`: narrative only, VERIFIED controls only); without
    it, such questions only get suggestions in the review. With ``library``, an approved
    answer still resting on the same verified controls and evidence is reused (judged
    again); a stale one is drafted afresh and marked for re-review. ``waived``: control id
    -> the waived overclaim in its claim (:func:`controls.waived_claims`); a question such a
    control would answer is left for a human with that reason."""
    waived = waived or {}
    limits = {limit.id: limit for limit in model.limits}
    shas = evidence_sha256(model, evidence_root)
    drafts: dict[tuple[Any, str], tuple[Answer, str | None]] = {}
    out = {}
    for q in questionnaire.questions:
        if q.unreadable is not None:  # no text to answer: listed, never drafted
            out[q.key] = Answer(unanswered_reason=q.unreadable)
            continue
        found = None
        if library is not None:
            allowed = questionnaire.recognised and q.style == "choice+narrative"
            found = reuse(library, q.text, model, verdicts, shas, allowed)
            if found is not None and found.answer is not None:
                text = found.answer.narrative
                choice = found.answer.choice
                flagged = judge(q.text, f"{choice.value}. {text}" if choice else text)
                if not flagged:
                    out[q.key] = found.answer
                    continue
                found = replace(
                    found, answer=None, stale=f"the claims judge flags it: {flagged[0]}"
                )
        if unmapped is not None and not questionnaire.recognised:
            answer = draft_unmapped(q, model, verdicts, limits, shas, judge, unmapped, waived)
        else:
            answer = _answer(q, model, verdicts, limits, shas, judge, waived, drafts)
        if found is not None:  # stale: never silently reused, listed for re-review
            where = found.entry.source or "the library"
            note = f"stale library answer from {where}: {found.stale}; re-review it"
            answer = replace(answer, library=note)
        out[q.key] = answer
    return out


def _answer(
    q: Question,
    model: Any,
    verdicts: dict[str, Any],
    limits: dict[str, Any],
    shas: dict[str, str],
    judge: Judge,
    waived: dict[str, str],
    drafts: dict[tuple[Any, str], tuple[Answer, str | None]] | None = None,
) -> Answer:
    """The drafted answer to ``q``, judged as the answer to its question.

    Everything but the judgement depends only on the question's mapping entry and style
    (not on its wording), so questions that share both share one draft (``drafts``, kept
    for one questionnaire) and only the judgement is made per question."""
    key = (q.mapping, q.style)
    drafted = drafts.get(key) if drafts is not None else None
    if drafted is None:
        drafted = _draft(q, model, verdicts, limits, shas, waived)
        if drafts is not None:
            drafts[key] = drafted
    answer, said = drafted
    if said is None:
        return answer
    flagged = judge(q.text, said)
    if flagged:
        return Answer(
            narrative=answer.narrative,
            control_ids=answer.control_ids,
            evidence_sha256=answer.evidence_sha256,
            limits=answer.limits,
            unanswered_reason=f"the claims judge flagged the drafted answer: {flagged[0]}",
        )
    return answer


def _draft(
    q: Question,
    model: Any,
    verdicts: dict[str, Any],
    limits: dict[str, Any],
    shas: dict[str, str],
    waived: dict[str, str],
) -> tuple[Answer, str | None]:
    """The answer its mapping entry and style give ``q``, and the text the claims judge must
    pass before it is kept (None: nothing is drafted, the answer stands as it is)."""
    if q.mapping is None:
        return Answer(unanswered_reason="no mapping entry covers this question"), None
    candidates = list(_candidates(q, model.controls))
    if not candidates:
        wanted = ", ".join(q.mapping.controls or q.mapping.layers)
        return Answer(
            unanswered_reason=f"no control in the model answers it (looked for: {wanted}"
            + (f"; topics: {', '.join(q.mapping.topics)})" if q.mapping.topics else ")")
        ), None
    if q.mapping.suggest_only:
        ids = ", ".join(c.id for c in candidates)
        return Answer(
            control_ids=tuple(c.id for c in candidates),
            unanswered_reason=f"no mapping recognises this questionnaire; controls that may "
            f"answer it: {ids} (write a mapping to draft it; see docs/questionnaires.md)",
        ), None
    backing = [b for c in candidates if (b := _backing(c, verdicts.get(c.id))) is not None]
    left_for_waiver = waived_reason((b.control for b in backing), waived)
    if left_for_waiver:
        return Answer(control_ids=tuple(b.control.id for b in backing),
                      unanswered_reason=left_for_waiver), None
    if not backing:
        refuted = [c.id for c in candidates if status_of(verdicts.get(c.id)) == "refuted"]
        planned = [c.id for c in candidates if c.id not in refuted]
        reasons = []
        if planned:
            reasons.append(f"only planned controls cover it ({', '.join(planned)})")
        if refuted:
            reasons.append(f"the configuration checks refute {', '.join(refuted)}")
        return Answer(unanswered_reason="; ".join(reasons)), None
    full = [b for b in backing if b.support is Support.FULL]
    left = _choice_left(q, backing) if full and q.style == "choice+narrative" else None
    choice = Choice.YES if full and q.style == "choice+narrative" and left is None else None
    narrative = compose(backing, limits, full_answer=bool(full), scope=model.system.name)
    controls = tuple(b.control.id for b in backing)
    limit_ids = unique(lid for b in backing for lid in b.control.limits)
    answer = Answer(
        choice=choice,
        narrative=narrative,
        control_ids=controls,
        evidence_sha256=unique(shas[e] for b in backing for e in b.control.evidence if e in shas),
        limits=tuple(" ".join(limits[lid].text.split()) for lid in limit_ids if lid in limits),
        choice_left=left,
    )
    return answer, f"{choice.value}. {narrative}" if choice else narrative


def _choice_left(q: Question, backing: list[Backing]) -> str | None:
    """Why a drafted Yes would say more than the verified claims do, or None when it would
    not: each part of the question the mapping lists (``yes_needs``) is spoken to by the
    claim of a control the answer rests on that is deployed and VERIFIED."""
    assert q.mapping is not None
    claims = " ".join(b.control.claim for b in backing
                      if b.support is Support.FULL).casefold()
    missing = [(part, topics) for part, topics in q.mapping.yes_needs
               if not any(topic_pattern(t).search(claims) for t in topics)]
    if missing:
        said = "; ".join(f"{part} (looked for: {', '.join(topics)})" for part, topics in missing)
        return ("the Yes/No/NA choice is left for a human: no verified claim speaks to these "
                f"parts of the question: {said}")
    return None


def _candidates(q: Question, controls: Iterable[Any]) -> Iterable[Any]:
    entry = q.mapping
    assert entry is not None
    for c in controls:
        named = c.id in entry.controls
        if named or (layer_of(c) in entry.layers and _mentions(c, entry.topics)):
            yield c


def topic_pattern(topic: str) -> re.Pattern[str]:
    """Short topics (<= 3 letters: "vm", "tls", "ci") match whole words (plural allowed);
    longer ones match at the start of a word ("isolat" matches "isolated")."""
    word = re.escape(topic.casefold())
    return re.compile(rf"\b{word}s?\b" if len(topic) <= 3 else rf"\b{word}")


def _mentions(control: Any, topics: tuple[str, ...]) -> bool:
    if not topics:
        return True
    text = control_text(control).casefold()
    return any(topic_pattern(t).search(text) for t in topics)


def _backing(control: Any, verdict: Any) -> Backing | None:
    status = status_name(control)
    checked = status_of(verdict)
    if status == "planned" or checked == "refuted":
        return None
    # every reason a reader must weigh, not the first one: a partly deployed control whose
    # claim nothing verified was described as "only partly deployed" alone
    reasons = ["the control is only partly deployed"] if status == "partial" else []
    if checked == "partly-verified":  # some parts of the claim no check verified: not verified
        reasons.append("only some parts of this claim are verified")
    elif checked != "verified":
        reasons.append("no configuration evidence verifies this claim yet")
    if not reasons:
        return Backing(control, Support.FULL)
    return Backing(control, Support.PARTIAL, "; ".join(reasons))


def compose(
    backing: list[Backing], limits: dict[str, Any], full_answer: bool, scope: str | None = None
) -> str:
    """The narrative: the scope it speaks for (a questionnaire asks about a whole service;
    the answer covers only the system the model describes), each control's claim with its
    id (partial ones said to be partial), then "Limits:" and every limit, one per line."""
    lines = [f"Scope: {' '.join(scope.split())}."] if scope else []
    for b in backing:
        claim = b.control.claim.strip().rstrip(".")
        if b.support is Support.FULL:
            lines.append(f"{claim} ({b.control.id}).")
        else:
            lines.append(f"Partially: {claim} ({b.control.id}; {b.why_partial}).")
    limit_texts = [
        " ".join(limits[lid].text.split())
        for lid in unique(lid for b in backing for lid in b.control.limits)
        if lid in limits
    ]
    if limit_texts:
        lines.append("Limits:")
        lines.extend(f"- {text}" for text in limit_texts)
    return "\n".join(lines)


def evidence_sha256(model: Any, evidence_root: Path) -> dict[str, str]:
    """Evidence id -> sha256: the pinned value (the checks made sure it still matches), else
    the file's hash now."""
    from compliance.paths import OutsideFolder, read_inside

    out = {}
    for ev in model.evidence:
        if ev.sha256:
            out[ev.id] = ev.sha256
            continue
        try:
            data = read_inside(evidence_root, ev.path, workspace=evidence_root.parent)
            out[ev.id] = hashlib.sha256(data).hexdigest()
        except (OSError, OutsideFolder):
            continue
    return out
