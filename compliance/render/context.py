"""The typed context every template receives. Templates only loop and branch over it.

Everything a template shows is computed here or by the builder: anchors,
labels, verdict words, gap flags. Dates are ISO strings taken from the
model, never from the clock. All views are frozen so a template cannot
change what another output will show.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from compliance.practice.worksheet import MetricView, PracticeView, TraceView


class Verdict(enum.StrEnum):
    """What the checks could establish about a claim."""

    VERIFIED = "VERIFIED"
    REFUTED = "REFUTED"
    UNVERIFIED = "UNVERIFIED"

    @property
    def css(self) -> str:
        return self.value.lower()


def anchor(prefix: str, key: str) -> str:
    """A stable HTML id: ``control-net-01`` for control ``NET-01``."""
    slug = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")
    return f"{prefix}-{slug or 'x'}"


@dataclass(frozen=True, slots=True)
class FindingView:
    code: str
    name: str
    level: str
    message: str
    location: str
    waived_by: str | None = None


@dataclass(frozen=True, slots=True)
class WaiverView:
    code: str
    target: str
    reason: str
    owner: str
    expires: str


@dataclass(frozen=True, slots=True)
class LimitView:
    text: str
    source: str


@dataclass(frozen=True, slots=True)
class EvidenceView:
    path: str
    sha256: str
    collected: str | None = None
    max_age_days: int | None = None
    description: str = ""


@dataclass(frozen=True, slots=True)
class ControlView:
    id: str
    title: str
    status: str
    claim: str
    verdict: Verdict
    verdict_reason: str
    implementation: str
    owner: str
    residual_risk: str
    evidence: tuple[EvidenceView, ...] = ()
    limits: tuple[LimitView, ...] = ()
    findings: tuple[FindingView, ...] = ()
    waivers: tuple[WaiverView, ...] = ()
    #: The evidence files are not shown to this build's audience (`build --audience`).
    evidence_withheld: bool = False

    @property
    def anchor(self) -> str:
        return anchor("control", self.id)


@dataclass(frozen=True, slots=True)
class LayerView:
    key: str
    title: str
    question: str
    controls: tuple[ControlView, ...] = ()
    findings: tuple[FindingView, ...] = ()
    #: Deployed or partial controls of this layer not shown to this build's audience.
    withheld: int = 0

    @property
    def anchor(self) -> str:
        return anchor("layer", self.key)

    @property
    def gap(self) -> bool:
        """No deployed or partial control: every output names the gap, none omits it.
        A layer whose controls are only withheld from this audience is not a gap."""
        return not self.withheld and not any(
            control.status in ("deployed", "partial") for control in self.controls)


@dataclass(frozen=True, slots=True)
class StanceView:
    """The defensible summary: supported clauses, then limits, then what else is relied on."""

    summary: str
    statement: str | None = None  # the team's own stance text, checked like every claim
    limits: tuple[str, ...] = ()
    relied_on: tuple[str, ...] = ()
    unverified: tuple[str, ...] = ()
    refuted: tuple[str, ...] = ()
    planned: tuple[str, ...] = ()
    gaps: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReportContext:
    title: str
    system: str
    owner: str
    scope: str
    #: The model's last-reviewed date (ISO): the only date any output carries.
    reviewed: str
    generator: str
    stance: StanceView
    layers: tuple[LayerView, ...]
    lang: str = "en"
    #: Unwaived findings when the build was forced with --allow-findings.
    open_findings: tuple[FindingView, ...] = ()
    forced: bool = False
    #: Findings not tied to one control (system, limits, evidence, waivers files).
    other_findings: tuple[FindingView, ...] = ()
    waivers: tuple[WaiverView, ...] = ()
    #: Tabletop traces and exercises (compliance.practice.worksheet views).
    tabletop: tuple[TraceView, ...] = ()
    #: The audience this build is for (`build --audience`) and what that means.
    audience: str = "internal"
    audience_note: str = "internal: everything in the model; do not send outside the team"
    #: Metrics, tabletop traces and exercises are for the team only (any other audience).
    practice_withheld: bool = False
    practice: PracticeView = PracticeView(status="No tabletop exercise is recorded.")
    metrics: tuple[MetricView, ...] = ()

    @property
    def controls(self) -> tuple[ControlView, ...]:
        return tuple(control for layer in self.layers for control in layer.controls)

    @property
    def gaps(self) -> tuple[LayerView, ...]:
        return tuple(layer for layer in self.layers if layer.gap)
