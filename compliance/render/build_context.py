"""Checked model + findings -> the ReportContext every template receives.

Nothing here renders; nothing in the templates decides. Verdicts come from
the check stage (``CheckResult.verdicts``); a control no check verified is
UNVERIFIED, never passed. Findings are attached to the control whose YAML
item they point into; the rest are listed on their own.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from compliance import __version__
from compliance.diagnostics import Diagnostic, Level
from compliance.model import Control, Evidence, Limit, Source, Status
from compliance.model.audience import Audience
from compliance.model.layers import Layer
from compliance.pipeline import Checked
from compliance.practice.drills_view import DrillsView, drills_view
from compliance.practice.worksheet import metric_views, practice_view, trace_view
from compliance.render.audience import Redaction, Visibility
from compliance.render.context import (
    AssertionView,
    CheckView,
    ControlView,
    EvidenceView,
    FindingView,
    LayerView,
    LimitView,
    ReasonView,
    ReportContext,
    SummaryView,
    Verdict,
    WaiverView,
)
from compliance.render.pack import sha256
from compliance.render.stance import FIELD_LABEL, build_stance

NO_CHECK = "No configuration check over its evidence files verified the claim."
DEFAULT_REASON = {
    Verdict.VERIFIED: "The configuration checks over its evidence files verified the claim.",
    Verdict.PARTLY_VERIFIED: "The configuration checks verified some parts of the claim, "
                             "not all.",
    Verdict.REFUTED: "A configuration check over its evidence files refuted the claim.",
    Verdict.UNVERIFIED: NO_CHECK,
}
MISSING = "missing"


def verdict_of(raw: Any) -> tuple[Verdict, str]:
    """Read a check verdict (object with ``status``/``message`` or a dict); None is UNVERIFIED."""
    if raw is None:
        return Verdict.UNVERIFIED, NO_CHECK
    status = raw.get("status") if isinstance(raw, dict) else getattr(raw, "status", raw)
    message = (raw.get("summary") or raw.get("message", "")) if isinstance(raw, dict) \
        else getattr(raw, "message", "")
    verdict = Verdict.of(str(getattr(status, "value", status)))
    return verdict, _sentence(str(message or "")) or DEFAULT_REASON[verdict]


def _what_was_checked(raw: Any) -> dict[str, Any]:
    """The claim's parts and every check that ran, as views (empty for a planned control)."""
    if not isinstance(raw, dict):
        return {}
    parts = tuple(
        AssertionView(number=i, text=a["text"], verdict=Verdict.of(a["status"]),
                      checks=tuple(a["checks"]), message=_sentence(a["message"]))
        for i, a in enumerate(raw.get("assertions", ()), start=1))
    checks = tuple(
        CheckView(code=code, name=c.get("name", ""), verdict=Verdict.of(c["status"]),
                  message=_sentence(c["message"]),
                  reasons=tuple(ReasonView(f"{r['path']}:{r['line']}", _key(r["key"]),
                                           r["message"], r["refutes"]) for r in c["reasons"]))
        for code, c in raw.get("checks", {}).items())
    return {"assertions": parts, "checks": checks,
            "parts_listed": bool(raw.get("parts_listed")),
            "stale": tuple(raw.get("stale", ()))}


def _key(key: str) -> str:
    """The key a reason points at, as the report names it ("(file)": the whole file)."""
    return "the whole file" if key == "(file)" else key


def _sentence(text: str) -> str:
    """'no check applies' -> 'No check applies.' (check messages are lower-case fragments)."""
    text = " ".join(text.split())
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def finding_view(d: Diagnostic) -> FindingView:
    return FindingView(
        code=d.code,
        name=d.name,
        level=d.level.value,
        message=d.message,
        location=f"{d.path}:{d.line}:{d.column}",
        waived_by=d.waived_by,
    )


def open_findings(findings: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Unwaived errors and warnings: what a forced build must state on its first page."""
    return [d for d in findings if d.waived_by is None and d.level in (Level.ERROR, Level.WARNING)]


@dataclass
class _Owners:
    """Which model item a (path, line) falls in: the last item starting at or before it."""

    starts: dict[str, list[tuple[int, str, str]]]

    @classmethod
    def of(cls, checked: Checked) -> _Owners:
        starts: dict[str, list[tuple[int, str, str]]] = {}
        for (section, item_id), located in checked.workspace.index.items():
            pos = located.pos()
            starts.setdefault(pos.path, []).append((pos.line, section, item_id))
        for items in starts.values():
            items.sort()
        return cls(starts)

    def control_at(self, path: str, line: int) -> str | None:
        items = self.starts.get(path, [])
        index = bisect.bisect_right(items, (line, "\uffff", "\uffff")) - 1
        if index < 0:
            return None
        _, section, item_id = items[index]
        return item_id if section == "controls" else None


def _digests(checked: Checked, items: Iterable[Evidence],
             packed: Mapping[str, bytes]) -> dict[str, str]:
    """Evidence id -> the sha256 of its file as packed, found under the pack path the
    build gave it (:func:`compliance.render.build.evidence_member`)."""
    from compliance.paths import OutsideFolder
    from compliance.render.build import evidence_member

    out = {}
    for ev in items:
        try:
            data = packed.get(evidence_member(checked.workspace, ev.path))
        except (OutsideFolder, OSError, ValueError):
            continue
        if data is not None:
            out[ev.id] = sha256(data)
    return out


def _evidence(by_id: Mapping[str, Evidence], control: Control,
              digests: Mapping[str, str]) -> tuple[EvidenceView, ...]:
    """``digests``: by evidence id, the sha256 of the bytes packed (none: not packed)."""
    views = []
    for eid in control.evidence:
        ev = by_id[eid]
        digest = digests.get(eid, MISSING)
        views.append(
            EvidenceView(
                path=f"evidence/{ev.path}",
                sha256=digest,
                collected=ev.collected.isoformat(),
                max_age_days=ev.max_age_days,
                description=(ev.description or "").strip(),
            )
        )
    return tuple(views)


def _limits(limits: Mapping[str, Limit], sources: Mapping[str, Source],
            control: Control) -> tuple[LimitView, ...]:
    views = []
    for lid in control.limits:
        limit = limits[lid]
        cited = [sources[sid] for sid in limit.sources if sid in sources]
        text = "; ".join(s.title + (f" ({s.url})" if s.url else "") for s in cited)
        views.append(LimitView(text=limit.text.strip(), source=text or "not given"))
    return tuple(views)


def build_context(checked: Checked, *, forced: bool = False,
                  evidence: Mapping[str, bytes] | None = None,
                  visibility: Visibility | None = None) -> ReportContext:
    """The typed context for every output of ``compliance build``, for one audience
    (``visibility``; everything when None).

    ``evidence`` is the evidence files as the pack holds them (pack path -> bytes,
    see ``render.build.evidence_files``), so the report shows the hashes of the
    bytes packed; read here when not given."""
    model = checked.workspace.model
    if model is None:
        raise ValueError("build_context needs a model that loaded")
    vis = visibility or Visibility(Audience.INTERNAL, model)
    checked = Redaction(vis, checked).checked_view()
    if evidence is None:
        from compliance.render.build import evidence_files

        evidence = evidence_files(checked)
    digests = _digests(checked, model.evidence, evidence)
    result = checked.result
    given: dict[str, Any] = result.verdicts
    verdicts = {c.id: verdict_of(given.get(c.id)) for c in model.controls}
    owners = _Owners.of(checked)
    per_control: dict[str, list[FindingView]] = {c.id: [] for c in model.controls}
    other: list[FindingView] = []
    for d in result.findings:
        owner = owners.control_at(d.path, d.line)
        bucket = per_control.get(owner, other) if owner is not None else other
        bucket.append(finding_view(d))
    waivers = [
        WaiverView(w.rule, w.target, w.reason.strip(), w.owner, w.expires.isoformat())
        for w in result.waivers_in_force
    ]
    # Looked up per control: dicts built once, so the context is linear in the model.
    evidence_by_id = {ev.id: ev for ev in model.evidence}
    limits_by_id = {limit.id: limit for limit in model.limits}
    sources_by_id = {source.id: source for source in model.sources}
    waivers_of: dict[str, list[WaiverView]] = {}
    for w in waivers:
        waivers_of.setdefault(w.target, []).append(w)
    # The waived overclaims this audience may read: in a control shown, a field not withheld.
    controls_by_id = {c.id: c for c in model.controls}
    waived = [w for w in result.waived_claims
              if w.section != "controls" or (
                  w.item_id in controls_by_id and vis.shows_control(controls_by_id[w.item_id])
                  and w.field not in vis.withheld_fields(controls_by_id[w.item_id]))]
    waived_of: dict[str, list[tuple[str, str]]] = {}
    for flagged in waived:
        if flagged.section == "controls":
            waived_of.setdefault(flagged.item_id, []).append(
                (FIELD_LABEL.get(flagged.field, flagged.field), flagged.note))
    by_layer: dict[Layer, list[Control]] = {}
    for c in model.controls:
        by_layer.setdefault(c.layer, []).append(c)
    layers = []
    for layer in Layer:
        controls = tuple(
            ControlView(
                id=c.id,
                title=c.title,
                status=c.status.value,
                claim=c.claim.strip(),
                verdict=verdicts[c.id][0],
                verdict_reason=verdicts[c.id][1],
                implementation=_shown(vis, c, "implementation", c.implementation.strip()),
                owner=_shown(vis, c, "owner", c.owner),
                residual_risk=_shown(vis, c, "residual_risk", c.residual_risk.strip()),
                evidence=() if "evidence" in vis.withheld_fields(c)
                else _evidence(evidence_by_id, c, digests),
                limits=_limits(limits_by_id, sources_by_id, c),
                findings=tuple(per_control[c.id]),
                waivers=tuple(waivers_of.get(c.id, ())),
                **_what_was_checked(given.get(c.id)),
                evidence_withheld="evidence" in vis.withheld_fields(c),
                waived=tuple(waived_of.get(c.id, ())),
            )
            for c in by_layer.get(layer, [])
            if vis.shows_control(c)
        )
        withheld = sum(1 for c in by_layer.get(layer, [])
                       if not vis.shows_control(c) and c.status is not Status.PLANNED)
        view = LayerView(layer.value, layer.label, layer.question, controls=controls,
                         withheld=withheld)
        layers.append(view)
    stance = build_stance(model, verdicts, shown=vis.control_ids, waived=waived)
    system = model.system
    summary = _summary(given, [verdicts[c.id][0] for c in model.controls], result.findings,
                       len(waivers), planned=sum(c.status.value == "planned"
                                                 for c in model.controls))
    practice = result.practice
    return ReportContext(
        title=f"{system.name}: agent sandbox audit report",
        system=system.name,
        owner=system.owner,
        scope=system.scope.strip(),
        reviewed=system.last_reviewed.isoformat(),
        checked_as_of=result.as_of.isoformat() if result.as_of else "",
        generator=f"compliance {__version__}",
        stance=stance,
        layers=tuple(layers),
        open_findings=tuple(finding_view(d) for d in open_findings(result.findings))
        if forced
        else (),
        forced=forced,
        other_findings=tuple(other),
        waivers=tuple(waivers),
        summary=summary,
        tabletop=tuple(trace_view(t) for t in practice.traces
                       if t.scenario.id in practice.checked)
        if practice and vis.audience is Audience.INTERNAL else (),
        practice=practice_view(practice),
        metrics=metric_views(practice.metrics)
        if practice and vis.audience is Audience.INTERNAL else (),
        drills=drills_view(model, practice) if vis.audience is Audience.INTERNAL
        else DrillsView(),
        audience=vis.audience.value,
        audience_note=vis.note(),
        practice_withheld=vis.audience is not Audience.INTERNAL,
    )


def _summary(given: dict[str, Any], verdicts: list[Verdict], findings: list[Diagnostic],
             waivers: int, *, planned: int) -> SummaryView:
    """Verdict counts, open findings and waivers for the first page (hashes come later)."""
    active = [d for d in findings if d.waived_by is None]
    return SummaryView(
        verified=verdicts.count(Verdict.VERIFIED),
        partly_verified=verdicts.count(Verdict.PARTLY_VERIFIED),
        unverified=verdicts.count(Verdict.UNVERIFIED),
        refuted=verdicts.count(Verdict.REFUTED),
        stale=sum(bool(v.get("stale")) for v in given.values() if isinstance(v, dict)),
        too_old=sum(bool(v.get("too_old")) for v in given.values() if isinstance(v, dict)),
        planned=planned,
        errors=sum(d.level is Level.ERROR for d in active),
        warnings=sum(d.level is Level.WARNING for d in active),
        notes=sum(d.level is Level.INFO for d in active),
        waived=sum(d.waived_by is not None for d in findings),
        waivers=waivers,
    )


def _shown(vis: Visibility, control: Control, name: str, text: str) -> str:
    """A field's text, or what stands in its place when this audience may not read it."""
    return vis.withheld_note() if name in vis.withheld_fields(control) else text
