"""Draft narrative answers for a questionnaire no mapping recognises.

Each question is matched against the model's vocabulary (:mod:`match`); a
question that clearly asks about something a deployed control settles gets
a narrative composed only from the model, honestly:

- narrative only: never a Yes/No/NA choice (on an unmapped questionnaire that
  stays a human's);
- it opens with the scope it speaks for (the model's system and scope);
- it is composed only from the claims and limits of deployed controls whose
  claim the configuration checks VERIFIED (anything else, a partly verified
  claim included, supports nothing here);
- a question partly about something no control covers says which part it
  covers; a question about something else (offices, HR, insurance, physical
  security, corporate SIEM, written policies, ...) is left blank with the
  reason, and so is one that matches below ``--min-confidence``;
- every narrative passes the claims judge as the answer to its question.

The review lists each answer's controls, evidence sha256 and limits, with the
match score and the question's words that matched.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from compliance.questionnaire.controls import (
    control_text,
    layer_of,
    status_name,
    unique,
    verified_and_deployed,
    waived_reason,
)
from compliance.questionnaire.judging import Judge
from compliance.questionnaire.match import (
    DEFAULT_MIN_CONFIDENCE,
    Match,
    Matcher,
    Qualifier,
    builtin_matcher,
)
from compliance.questionnaire.types import Answer, Question
from compliance.questionnaire.verdicts import status_of


@dataclass(frozen=True, slots=True)
class UnmappedPolicy:
    """How unmapped questions are drafted: the score a match needs (``--min-confidence``)."""

    min_confidence: float = DEFAULT_MIN_CONFIDENCE
    matcher: Matcher | None = None

    def resolved(self) -> Matcher:
        return self.matcher or builtin_matcher()


def scope_line(system: Any) -> str:
    """The sentence every unmapped answer opens with: which system it speaks for."""
    name = " ".join(system.name.split())
    scope = " ".join(str(system.scope).split())
    return f"Scope: this answer covers only {name}: {scope}"


def draft_unmapped(
    q: Question,
    model: Any,
    verdicts: dict[str, Any],
    limits: dict[str, Any],
    shas: dict[str, str],
    judge: Judge,
    policy: UnmappedPolicy,
    waived: dict[str, str] | None = None,
) -> Answer:
    matcher = policy.resolved()
    m = matcher.match(q.text, q.headings, q.titles)
    score, words = m.score, m.words
    off = m.off_topic
    if off is not None:
        said = (
            ", ".join(
                dict.fromkeys(h.words for t, hits in m.elsewhere if t.id == off.id for h in hits)
            )
            or f"under the heading {m.heading!r}"
        )
        return Answer(
            unanswered_reason=f"about {off.label} ({said}), which the model of agent controls "
            "does not describe; left for a human",
            match_score=score,
            matched=words,
            layers=m.layers,
        )
    if not m.concepts:
        if m.uncovered:
            labels = ", ".join(t.label for t, _ in m.uncovered)
            reason = f"about {labels}, which no control in the model covers"
        else:
            reason = (
                "no control in the model speaks to it (nothing about isolation, network egress, "
                "credentials, review, pipelines or logs)"
            )
        return Answer(unanswered_reason=reason, match_score=score, matched=words)
    concepts = [c for c in m.concepts if c.strong] or list(m.concepts)
    candidates = _unique_controls(
        c
        for hit in concepts
        for c in model.controls
        if layer_of(c) == hit.concept.layer
        and matcher.control_mentions(hit.concept, control_text(c))
    )
    suggested = tuple(c.id for c in candidates)
    if score < policy.min_confidence:
        return Answer(
            control_ids=suggested,
            unanswered_reason=f"the question matches the model too weakly to draft (score "
            f"{score:.2f} < --min-confidence {policy.min_confidence:.2f}; matched: "
            f"{', '.join(words)})"
            + (f"; controls that may answer it: {', '.join(suggested)}" if suggested else ""),
            match_score=score,
            matched=words,
            layers=m.layers,
        )
    backing = [c for c in candidates if verified_and_deployed(c, verdicts.get(c.id))]
    left_for_waiver = waived_reason(backing, waived or {})
    if left_for_waiver:
        return Answer(control_ids=tuple(c.id for c in backing), unanswered_reason=left_for_waiver,
                      match_score=score, matched=words, layers=m.layers)
    if not backing:
        labels = ", ".join(h.concept.label for h in concepts)
        why = "; ".join(f"{c.id}: {_why_not(c, verdicts.get(c.id))}" for c in candidates)
        return Answer(
            control_ids=suggested,
            unanswered_reason=f"no deployed control with a VERIFIED claim covers {labels}"
            + (f" ({why})" if why else " (the model has no control for it)"),
            match_score=score,
            matched=words,
            layers=m.layers,
        )
    unmet = [(ql, hits) for ql, hits in m.qualifiers
             if not any(matcher.speaks_to(ql, c.claim) for c in backing)]  # fmt: skip
    if unmet:
        score = round(max(0.0, score - sum(ql.penalty for ql, _ in unmet)), 2)
    if unmet and score < policy.min_confidence:
        return Answer(
            control_ids=tuple(c.id for c in backing),
            unanswered_reason=f"{_unmet_reason(unmet, backing, candidates, verdicts, matcher)}"
            f" (score {m.score:.2f}, {score:.2f} for what they say < --min-confidence "
            f"{policy.min_confidence:.2f})",
            match_score=score,
            matched=words,
            layers=m.layers,
        )
    covered = [h for h in concepts if any(layer_of(c) == h.concept.layer for c in backing)]
    narrative = compose_unmapped(
        model.system, backing, limits, m, covered, [ql.label for ql, _ in unmet]
    )
    limit_ids = unique(lid for c in backing for lid in c.limits)
    answer = Answer(
        narrative=narrative,
        control_ids=tuple(c.id for c in backing),
        evidence_sha256=unique(shas[e] for c in backing for e in c.evidence if e in shas),
        limits=tuple(" ".join(limits[lid].text.split()) for lid in limit_ids if lid in limits),
        match_score=score,
        matched=words,
        layers=m.layers,
    )
    flagged = judge(q.text, narrative)
    if flagged:
        return Answer(
            narrative=narrative,
            control_ids=answer.control_ids,
            evidence_sha256=answer.evidence_sha256,
            limits=answer.limits,
            unanswered_reason=f"the claims judge flagged the drafted answer: {flagged[0]}",
            match_score=score,
            matched=words,
            layers=m.layers,
        )
    return answer


def _unmet_reason(
    unmet: list[tuple[Qualifier, Any]],
    backing: list[Any],
    candidates: list[Any],
    verdicts: dict[str, Any],
    matcher: Matcher,
) -> str:
    """Why a question whose qualifiers no drafted claim speaks to is left for a human, and
    which other controls' claims speak to them and why those answer nothing."""
    asked = "; ".join(
        f"{ql.label} ({', '.join(dict.fromkeys(h.words for h in hits))})" for ql, hits in unmet
    )
    ids = ", ".join(c.id for c in backing)
    claims = f"the claim of {ids} does" if len(backing) == 1 else f"the claims of {ids} do"
    others = [
        f"the claim of {c.id} speaks to it, but it is {_why_not(c, verdicts.get(c.id))}"
        for c in candidates
        if c not in backing and any(matcher.speaks_to(ql, c.claim) for ql, _ in unmet)
    ]
    also = "".join(f"; {line}" for line in others)
    return f"the question asks about {asked}, which {claims} not speak to{also}"


def compose_unmapped(
    system: Any,
    backing: list[Any],
    limits: dict[str, Any],
    m: Match,
    covered: list[Any],
    unmet: Sequence[str] = (),
) -> str:
    """Scope, what part of the question this covers (when not all of it: a topic no control
    covers, a topic elsewhere, or a qualifier no claim here speaks to), each control's
    claim with its id, then "Limits:" and every limit of those controls."""
    lines = [scope_line(system)]
    rest = [t.label for t, _ in m.uncovered] + [t.label for t, _ in m.elsewhere] + list(unmet)
    if rest:
        labels = " and ".join(h.concept.label for h in covered)
        lines.append(
            f"This answer covers only the part about {labels}; the part about "
            f"{', '.join(dict.fromkeys(rest))} is left for a human."
        )
    for c in backing:
        lines.append(f"{c.claim.strip().rstrip('.')} ({c.id}).")
    texts = [
        " ".join(limits[lid].text.split())
        for lid in unique(lid for c in backing for lid in c.limits)
        if lid in limits
    ]
    if texts:
        lines.append("Limits:")
        lines.extend(f"- {t}" for t in texts)
    return "\n".join(lines)


def _why_not(control: Any, verdict: Any) -> str:
    status = status_name(control)
    return status_of(verdict) if status == "deployed" else status


def _unique_controls(items: Iterable[Any]) -> list[Any]:
    return list({c.id: c for c in items}.values())
