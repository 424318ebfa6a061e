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

from compliance.practice.drills_view import DrillsView
from compliance.practice.worksheet import MetricView, PracticeView, TraceView


class Verdict(enum.StrEnum):
    """What the checks could establish about a claim (PARTLY VERIFIED is not VERIFIED)."""

    VERIFIED = "VERIFIED"
    PARTLY_VERIFIED = "PARTLY VERIFIED"
    REFUTED = "REFUTED"
    UNVERIFIED = "UNVERIFIED"

    @property
    def css(self) -> str:
        return self.value.lower().replace(" ", "-")

    @classmethod
    def of(cls, status: str) -> Verdict:
        """``verified`` / ``partly-verified`` / ... (the check stage's words); else UNVERIFIED."""
        word = str(status).upper().replace("-", "_").replace(" ", "_")
        return cls[word] if word in cls.__members__ else cls.UNVERIFIED


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
class ReasonView:
    """What one check read: the file and line, the key, and what the file shows there."""

    location: str
    key: str
    message: str
    refutes: bool


@dataclass(frozen=True, slots=True)
class CheckView:
    """One configuration check that ran over the control's evidence, and what it found."""

    code: str
    name: str
    verdict: Verdict
    message: str
    reasons: tuple[ReasonView, ...] = ()

    @property
    def open(self) -> bool:
        """Not VERIFIED: its message says what it could not confirm or what refutes."""
        return self.verdict is not Verdict.VERIFIED


@dataclass(frozen=True, slots=True)
class AssertionView:
    """One part of a claim, its verdict and the checks listed for it."""

    number: int
    text: str
    verdict: Verdict
    checks: tuple[str, ...]
    message: str


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
    #: The claim's parts (one, the whole claim, when the control lists none).
    assertions: tuple[AssertionView, ...] = ()
    #: Whether the control listed its parts (``assertions:``).
    parts_listed: bool = False
    #: Every check that ran, with what it read.
    checks: tuple[CheckView, ...] = ()
    #: Evidence ids that changed since they were pinned (the claim is then not verified).
    stale: tuple[str, ...] = ()
    #: The evidence files are not shown to this build's audience (`build --audience`).
    evidence_withheld: bool = False
    #: Sentences of this control the claims judge flagged and a waiver lets stand:
    #: (the field, as the report names it, and what the reader must be told).
    waived: tuple[tuple[str, str], ...] = ()

    @property
    def anchor(self) -> str:
        return anchor("control", self.id)

    @property
    def claim_waived(self) -> bool:
        """The claim itself carries a waived overclaim (marked where it is shown)."""
        return any(label == "claim" for label, _note in self.waived)


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
    partly_verified: tuple[str, ...] = ()
    unverified: tuple[str, ...] = ()
    refuted: tuple[str, ...] = ()
    planned: tuple[str, ...] = ()
    gaps: tuple[str, ...] = ()
    #: Numbered notes: each sentence the claims judge flagged as an overclaim and a
    #: waiver lets stand, where it is, who waived it and why. Marked in the summary and
    #: the statement with "[waived overclaim N]".
    waived_overclaims: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SummaryView:
    """The first page: what an auditor looks for before reading on."""

    verified: int = 0
    partly_verified: int = 0
    unverified: int = 0
    refuted: int = 0
    #: Of the unverified: claims whose evidence changed since it was pinned.
    stale: int = 0
    #: Of the unverified: claims whose evidence is older than its max_age_days.
    too_old: int = 0
    #: Of the unverified: planned controls, which are not checked.
    planned: int = 0
    errors: int = 0
    warnings: int = 0
    notes: int = 0
    waived: int = 0
    waivers: int = 0
    #: sha256 of model.json in the evidence pack (the loaded model as JSON).
    model_sha256: str = ""
    #: sha256 of manifest.json as attached to the PDF (every pack file but the PDF).
    manifest_sha256: str = ""
    #: How many files that manifest lists.
    manifest_files: int = 0

    @property
    def controls(self) -> int:
        return self.verified + self.partly_verified + self.unverified + self.refuted


@dataclass(frozen=True, slots=True)
class ReportContext:
    title: str
    system: str
    owner: str
    scope: str
    #: The model's last-reviewed date (ISO).
    reviewed: str
    generator: str
    stance: StanceView
    layers: tuple[LayerView, ...]
    lang: str = "en"
    #: Unwaived findings when the build was forced with --allow-findings.
    open_findings: tuple[FindingView, ...] = ()
    #: The date the checks measured evidence ages and practice intervals against (ISO).
    checked_as_of: str = ""
    forced: bool = False
    #: Findings not tied to one control (system, limits, evidence, waivers files).
    other_findings: tuple[FindingView, ...] = ()
    waivers: tuple[WaiverView, ...] = ()
    #: Tabletop traces and exercises (compliance.practice.worksheet views).
    tabletop: tuple[TraceView, ...] = ()
    #: The audience this build is for (`build --audience`) and what that means.
    audience: str = "internal"
    audience_note: str = "internal: everything in the model; do not send outside the team"
    #: Metrics, tabletop traces, exercises and drills are for the team only (any other
    #: audience).
    practice_withheld: bool = False
    practice: PracticeView = PracticeView(status="No tabletop exercise is recorded.")
    metrics: tuple[MetricView, ...] = ()
    #: The layer drills, each drilled layer a row (compliance.practice.drills_view).
    drills: DrillsView = DrillsView()
    #: The first page's summary (counts always; hashes once the pack's files are known).
    summary: SummaryView = SummaryView()

    @property
    def controls(self) -> tuple[ControlView, ...]:
        return tuple(control for layer in self.layers for control in layer.controls)

    @property
    def gaps(self) -> tuple[LayerView, ...]:
        return tuple(layer for layer in self.layers if layer.gap)
