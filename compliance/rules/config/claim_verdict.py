"""A claim's verdict from its parts: VERIFIED, PARTLY VERIFIED, UNVERIFIED or REFUTED.

A control's claim makes one or more assertions. With an ``assertions:`` list
each part names the checks that verify it; without one, the whole claim is one
assertion verified by the control's ``verified_by`` (or its kind's checks).

Each part folds its checks: any REFUTED -> refuted; every check VERIFIED (at
least one) -> verified; otherwise unverified (a part with no check is never
verified). The claim then folds its parts:

- any part refuted -> REFUTED;
- every part verified -> VERIFIED;
- some parts verified, none refuted -> PARTLY VERIFIED, naming the parts no
  check verified;
- no part verified -> UNVERIFIED.

PARTLY VERIFIED is never VERIFIED: the stance, the questionnaire drafter and
every count treat it as not verified. The messages are written for an
auditor: which check ran, what file it read, at which line, what it shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compliance.rules.config.verdict import Status, Verdict

#: Why a part with ``verified_by: []`` is open.
NO_CHECK = "no configuration check covers this part"
#: Why a claim checked as one assertion, with no check, is unverified.
NO_CHECK_CLAIM = "no configuration check applies to this claim"


@dataclass(frozen=True, slots=True)
class Part:
    """One assertion of a claim and the checks that verify it."""

    text: str
    checks: tuple[str, ...]


def parts_of(control: Any, codes: list[str]) -> tuple[list[Part], bool]:
    """The claim's parts, and whether the control listed them (``assertions:``).

    ``codes`` are the control's checks when it lists no assertions."""
    from compliance.rules.config import CONFIG_RULES

    if control.assertions:
        return [Part(" ".join(a.text.split()),
                     tuple(c for c in a.verified_by if c in CONFIG_RULES))
                for a in control.assertions], True
    return [Part(" ".join(control.claim.split()), tuple(codes))], False


def fold_part(part: Part, checks: dict[str, Verdict]) -> Status:
    verdicts = [checks[c] for c in part.checks if c in checks]
    if any(v.status is Status.REFUTED for v in verdicts):
        return Status.REFUTED
    if verdicts and all(v.status is Status.VERIFIED for v in verdicts):
        return Status.VERIFIED
    return Status.UNVERIFIED


def claim_verdict(parts: list[Part], listed: bool,
                  checks: dict[str, Verdict]) -> dict[str, Any]:
    """The JSON-ready verdict of one claim: status, message, each part, each check."""
    from compliance.rules.config import CONFIG_RULES

    states = [fold_part(p, checks) for p in parts]
    numbered = [(i + 1, p, s) for i, (p, s) in enumerate(zip(parts, states, strict=True))]
    open_parts = [(n, p) for n, p, s in numbered if s is Status.UNVERIFIED]
    not_verified = "; ".join(f"({n}) {_bare(p.text)} ({_why_open(p, checks)})"
                             for n, p in open_parts)
    if Status.REFUTED in states:
        status = Status.REFUTED
        first = next(v for v in checks.values() if v.status is Status.REFUTED)
        message = summary = first.message
    elif all(s is Status.VERIFIED for s in states):
        status = Status.VERIFIED
        message = _verified_message(parts, listed, checks)
        codes = ", ".join(checks)
        summary = (f"all {len(parts)} parts of the claim are verified ({codes})" if listed
                   else f"verified as one assertion by {codes} (the control lists no "
                        "separate parts)")
    elif Status.VERIFIED in states:
        status = Status.PARTLY_VERIFIED
        done = [f"({n}) {_bare(p.text)} [{', '.join(p.checks)}]" for n, p, s in numbered
                if s is Status.VERIFIED]
        message = (f"{len(done)} of {len(parts)} parts of the claim verified: "
                   f"{'; '.join(done)}. Not verified: {not_verified}")
        numbers = ", ".join(f"({n})" for n, _, s in numbered if s is Status.VERIFIED)
        summary = (f"{len(done)} of {len(parts)} parts of the claim verified {numbers}. "
                   f"Not verified: {not_verified}")
    else:
        status = Status.UNVERIFIED
        if listed:
            message = "no part of the claim is verified: " + "; ".join(
                f"({n}) {_bare(p.text)} ({_why_open(p, checks)})" for n, p in open_parts)
        else:
            message = _why_open(parts[0], checks) if parts[0].checks else NO_CHECK_CLAIM
        summary = message
    return {
        "status": status.value,
        "message": message,
        "summary": summary,
        "parts_listed": listed,
        "assertions": [
            {"text": p.text, "status": s.value, "checks": list(p.checks),
             "message": _part_message(p, s, checks)}
            for p, s in zip(parts, states, strict=True)
        ],
        "unverified_parts": [p.text for _, p in open_parts],
        "checks": {code: plain(v, CONFIG_RULES[code].name) for code, v in checks.items()},
    }


def _verified_message(parts: list[Part], listed: bool, checks: dict[str, Verdict]) -> str:
    ran = "; ".join(f"{code} {_name(code)} {v.message}" for code, v in checks.items())
    if listed:
        return f"all {len(parts)} parts of the claim are verified: {ran}"
    return f"verified as one assertion (the control lists no separate parts): {ran}"


def _why_open(part: Part, checks: dict[str, Verdict]) -> str:
    if not part.checks:
        return NO_CHECK
    return "; ".join(f"{code}: {checks[code].message}" for code in part.checks
                     if code in checks and checks[code].status is not Status.VERIFIED)


def _part_message(part: Part, status: Status, checks: dict[str, Verdict]) -> str:
    if status is Status.UNVERIFIED:
        return _why_open(part, checks)
    wanted = Status.REFUTED if status is Status.REFUTED else Status.VERIFIED
    return "; ".join(f"{code}: {checks[code].message}" for code in part.checks
                     if checks[code].status is wanted)


def _bare(text: str) -> str:
    """A part's text inside a sentence: without its own full stop."""
    return text.rstrip(". ")


def _name(code: str) -> str:
    from compliance.rules.config import CONFIG_RULES

    return f"({CONFIG_RULES[code].name})"


def plain(v: Verdict, name: str = "") -> dict[str, Any]:
    """One check's verdict as JSON: status, message and every reason with its line."""
    return {"status": v.status.value, "name": name, "message": v.message,
            "reasons": [{"path": r.path, "line": r.line, "column": r.column, "key": r.key,
                         "message": r.message, "refutes": r.refutes} for r in v.reasons]}
