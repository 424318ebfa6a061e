"""Run the configuration checks over each control's cited evidence, inside `compliance check`.

A control's checks are its ``verified_by`` codes, or those its ``kind`` maps
to (:func:`~compliance.rules.config.checks_for_kind`). Each check sees only
the evidence files the control cites. Per check:

- REFUTED: an error at the claim's position in the YAML, naming the evidence
  file, key and line (every refuting line is also a related position);
- UNVERIFIED: a finding at the claim at the workspace's ``unverified`` level
  (``compliance.yaml``; ``off`` shows it only in the verdicts);
- VERIFIED: no finding.

:func:`control_verdicts` folds the checks into one verdict per control (any
refuted -> refuted; all verified -> verified; otherwise unverified) as plain
JSON-ready dicts for ``CheckResult.verdicts``. Planned controls are not
checked: their claim is not made about the present.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compliance.adapters import (
    EvidenceDoc,
    EvidenceError,
    UnrecognisedEvidence,
    kind_by_name,
    parse_read,
)
from compliance.diagnostics import Diagnostic, Level
from compliance.rules.config.verdict import Status, Verdict

if TYPE_CHECKING:  # pragma: no cover
    from compliance.check.context import CheckContext



#: ``kind: opaque``: pinned and packed, deliberately read by no adapter (an in-house
#: format). Claims resting only on it stay UNVERIFIED; nothing reports it as unreadable.
OPAQUE_KIND = "opaque"


def checks_of(control: Any) -> list[str]:
    """The check codes that verify a control's claim: those of its assertions, else its
    ``verified_by``, else those its kind selects."""
    from compliance.rules.config import CONFIG_RULES, checks_for_kind

    if control.assertions:
        codes = list(dict.fromkeys(c for a in control.assertions for c in a.verified_by))
    elif control.verified_by is not None:
        codes = control.verified_by
    else:
        codes = checks_for_kind(control.kind) if control.kind else []
    return [c for c in codes if c in CONFIG_RULES]


def _checked(ctx: CheckContext) -> Iterator[Any]:
    for control in ctx.model.controls:
        if getattr(control.status, "value", control.status) != "planned":
            yield control


def read_evidence(ctx: CheckContext, evidence_id: str) -> EvidenceDoc | Exception | None:
    """The parsed evidence file (parsed once per run), the error it raised, or None when
    it is missing or outside evidence/ (the evidence rules report those)."""
    from compliance.rules.model.evidence_rules import evidence_file

    ev = next((e for e in ctx.model.evidence if e.id == evidence_id), None)
    if ev is None or ev.kind == OPAQUE_KIND:
        return None
    file = evidence_file(ctx, ev)
    if file is None:
        return None

    def parse() -> EvidenceDoc | Exception:
        display = _display(ctx, file, ev.path)
        try:
            # Read through the workspace: resolved and kept inside it at this moment.
            return parse_read(lambda limit: ctx.workspace.read_evidence(ev.path, limit),
                              display, ev.kind)
        except (EvidenceError, UnrecognisedEvidence) as exc:
            return exc

    return ctx.memo(("evidence-doc", file, ev.kind), parse)


def _display(ctx: CheckContext, file: Path, rel: str) -> str:
    """The evidence file as the workspace names it (``evidence/...``), never absolute."""
    try:
        return file.relative_to(ctx.root.resolve()).as_posix()
    except ValueError:
        return f"evidence/{rel}"


def control_docs(ctx: CheckContext, control: Any) -> list[EvidenceDoc]:
    docs = [read_evidence(ctx, eid) for eid in control.evidence]
    return [d for d in docs if isinstance(d, EvidenceDoc)]


def control_unreadable(ctx: CheckContext, control: Any) -> list[tuple[EvidenceError, str | None]]:
    """The control's cited files that were given but could not be read (too large,
    malformed, binary), each with its ``kind`` (declared, else the one its name selects;
    None when only its contents could tell): the checks that may read it name it as such."""
    unreadable = [(eid, got) for eid in control.evidence
                  if isinstance(got := read_evidence(ctx, eid), EvidenceError)]
    if not unreadable:  # (the usual case: no kind to look up, in a run over every control)
        return []
    by_id = {e.id: e for e in ctx.model.evidence}
    return [(got, (ev.kind or kind_by_name(ev.path)) if (ev := by_id.get(eid)) else None)
            for eid, got in unreadable]


def evaluate_control(ctx: CheckContext, control: Any) -> dict[str, Verdict]:
    from compliance.rules.config import CONFIG_RULES

    def evaluate() -> dict[str, Verdict]:
        docs = control_docs(ctx, control)
        unreadable = control_unreadable(ctx, control)
        cited = tuple(control.evidence)
        # A verdict depends only on the check and the evidence files: controls citing the
        # same files share it.
        def verdict(code: str) -> Verdict:
            return ctx.memo(("verdict", code, cited),
                            lambda: CONFIG_RULES[code]().evaluate(docs, unreadable))

        return {code: verdict(code) for code in checks_of(control)}

    return ctx.memo(("verdicts", control.id), evaluate)


def claim_diagnostics(rule: Any, ctx: CheckContext) -> Iterator[Diagnostic]:
    """This check's findings on every control it verifies (called from ``Rule.check``).

    The controls are walked once per run for every check (not once per check)."""
    yield from ctx.memo(("config-findings",), lambda: _all_claim_diagnostics(ctx)).get(
        rule.code, [])


def _all_claim_diagnostics(ctx: CheckContext) -> dict[str, list[Diagnostic]]:
    from compliance.rules.config import CONFIG_RULES

    level = unverified_level(ctx)
    out: dict[str, list[Diagnostic]] = {}
    for control in _checked(ctx):
        verdicts = evaluate_control(ctx, control)
        if not verdicts:
            continue
        pos = ctx.pos("controls", control.id, "claim")
        for code, verdict in verdicts.items():
            rule = CONFIG_RULES[code]
            if verdict.status is Status.REFUTED:
                related = tuple(r.position for r in verdict.refuting)
                out.setdefault(code, []).append(rule.diagnostic(
                    pos, f"claim of {control.id} is {verdict.message}", related=related))
            elif verdict.status is Status.UNVERIFIED and level is not None:
                out.setdefault(code, []).append(rule.diagnostic(
                    pos, f"claim of {control.id} is unverified: {verdict.message}",
                    level=level))
    return out


def unverified_level(ctx: CheckContext) -> Level | None:
    """The level of a finding that a claim is unverified (``unverified`` in compliance.yaml),
    None for ``off``."""
    setting = getattr(ctx.model.settings, "unverified", "warning")
    value = str(getattr(setting, "value", setting))
    return None if value == "off" else Level(value)


def control_verdicts(ctx: CheckContext) -> dict[str, dict[str, Any]]:
    """control id -> {"status", "message", "summary", "parts_listed", "assertions",
    "unverified_parts", "checks": {code: {"status", "name", "message", "reasons"}}}: see
    :mod:`compliance.rules.config.claim_verdict`. Memoised: the engine and the rules that
    report on verdicts share one computation."""
    return ctx.memo(("control-verdicts",), lambda: _not_current(ctx, _verdicts(ctx)))


def _verdicts(ctx: CheckContext) -> dict[str, dict[str, Any]]:
    from compliance.rules.config.claim_verdict import claim_verdict, parts_of

    checked = {c.id for c in _checked(ctx)}
    out: dict[str, dict[str, Any]] = {}
    for control in ctx.model.controls:
        if control.id not in checked:
            out[control.id] = {"status": Status.UNVERIFIED.value,
                               "message": "planned control: not checked", "checks": {}}
            continue
        parts, listed = parts_of(control, checks_of(control))
        out[control.id] = claim_verdict(parts, listed, evaluate_control(ctx, control))
    return out


def _not_current(ctx: CheckContext, verdicts: dict[str, Any]) -> dict[str, Any]:
    """A claim resting on evidence that is not current is not VERIFIED (nor PARTLY VERIFIED):
    it becomes UNVERIFIED, saying why. Two reasons, one decision:

    - the file changed since it was pinned (``"stale": [ids]``): the checks read a file
      nobody reviewed;
    - the file is older than its ``max_age_days`` (``"too_old": [ids]``): what it shows may
      no longer be the configuration. EVD005 reports the file itself, at the level
      ``evidence_too_old`` sets; the verdict is the same whatever that level.

    A REFUTED claim stays refuted (the file contradicts it, whatever its age). Every output
    (check, report, stance, questionnaire answers, pack) reads this verdict."""
    from compliance.rules.model.evidence_rules import days_too_old, evidence_file

    changed: set[str] = set()
    old: dict[str, str] = {}
    for ev in ctx.model.evidence:
        file = evidence_file(ctx, ev)
        if file is not None and ev.sha256 is not None and \
                ctx.evidence_sha256(ev.path) != ev.sha256:
            changed.add(ev.id)
        over = days_too_old(ev, ctx.today)
        if over > 0:
            old[ev.id] = (f"evidence {ev.id} is {over} days older than its max_age_days "
                          f"({ev.max_age_days}) allows (collected {ev.collected})")
    if not changed and not old:
        return verdicts
    for c in ctx.model.controls:
        v = verdicts.get(c.id)
        if v is None or v["status"] not in (Status.VERIFIED.value, Status.PARTLY_VERIFIED.value):
            continue
        stale, too_old = sorted(changed & set(c.evidence)), sorted(old.keys() & set(c.evidence))
        why = [f"STALE: evidence {', '.join(stale)} changed since it was pinned; the checks "
               "read the new file"] if stale else []
        if too_old:
            why.append(f"{'; '.join(old[e] for e in too_old)}: what the checks read may no "
                       "longer be the configuration; re-export and re-pin it")
        if why:
            message = f"{'; '.join(why)} ({v['message']})"
            verdicts[c.id] = {**v, "status": "unverified", "message": message,
                              "summary": message, **({"stale": stale} if stale else {}),
                              **({"too_old": too_old} if too_old else {})}
    return verdicts


def unreadable_diagnostics(rule: Any, ctx: CheckContext) -> Iterator[Diagnostic]:
    """Cited evidence that cannot be read: at the file's own line, or at its entry in YAML."""
    cited = {eid for c in _checked(ctx) if checks_of(c) for eid in c.evidence}
    for eid in sorted(cited):
        got = read_evidence(ctx, eid)
        if isinstance(got, EvidenceError):
            d = got.diagnostic
            yield Diagnostic(d.path, d.line, d.column, rule.code, rule.name, Level.ERROR,
                             f"evidence {eid}: {d.message}")
        elif isinstance(got, UnrecognisedEvidence) and _declared_kind(ctx, eid):
            yield rule.diagnostic(ctx.pos("evidence", eid, "kind"), f"evidence {eid}: {got}")
        elif isinstance(got, UnrecognisedEvidence):
            yield rule.diagnostic(ctx.pos("evidence", eid, "path"),
                                  f"evidence {eid}: no adapter recognises this file, so no "
                                  "configuration check reads it (set `kind:` if one applies; "
                                  "`compliance rules CFG100`)", level=Level.INFO)


def _declared_kind(ctx: CheckContext, evidence_id: str) -> bool:
    """A ``kind:`` that names no adapter is an error at that key; an unrecognised file
    without one is only reported (info): no check reads it, none guesses at it."""
    ev = next((e for e in ctx.model.evidence if e.id == evidence_id), None)
    return ev is not None and ev.kind is not None
