"""The files of a workspace as models, and the whole model they make together."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from compliance.model.audience import DEFAULT_FIELD_AUDIENCE, Audience, TieredField
from compliance.model.base import Identifier, Strict, Text
from compliance.model.enums import FindingLevel
from compliance.model.metrics import Metric
from compliance.model.practice import Drill, Exercise, Need, Scenario
from compliance.model.sections import Control, Evidence, Limit, Source, System, Waiver


class ModelFile(Strict):
    """One YAML file under controls/. Every section is optional; ids are global."""

    system: System | None = Field(default=None, description="Exactly one file has it.")
    stance: Text | None = Field(
        default=None,
        description="Optional hand-written stance paragraph; it is checked like every claim "
        "and must name limits.")
    sources: list[Source] = Field(default_factory=list)
    limits: list[Limit] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    controls: list[Control] = Field(default_factory=list)
    metrics: list[Metric] = Field(
        default_factory=list,
        description="The layer metrics with thresholds, computed from exports under evidence/.")


class WaiversFile(Strict):
    """waivers.yaml at the workspace root."""

    waivers: list[Waiver] = Field(default_factory=list)


class Settings(Strict):
    """compliance.yaml at the workspace root: how strict this workspace's checks are."""

    unverified: FindingLevel = Field(
        default=FindingLevel.WARNING,
        description="Level of a claim (or part of one) that is not verified: a check could "
        "not confirm it from the given files, or no configuration check covers it (VRF004). "
        "Never counted as passing; off shows it only in the verdicts.")
    tabletop_limited: Literal["error", "warning", "info"] = Field(
        default="warning",
        description="Level of a tabletop scenario (TTX001) that no control stops, where a "
        "deployed, verified control would stop a step but for its own stated limit, which the "
        "step exploits (the path is LIMITED, never STOPPED). There is no off value; a path "
        "that nothing would stop is always an error.")
    evidence_too_old: FindingLevel = Field(
        default=FindingLevel.ERROR,
        description="Level of the finding on evidence older than its max_age_days (EVD005). "
        "Whatever the level, a claim resting on such evidence is never VERIFIED.")
    waiver_horizon_days: int = Field(
        default=180, ge=1, le=3650,
        description="Longest a waiver may run from today; longer is an error.")
    required_limits: dict[Identifier, list[Identifier]] | None = Field(
        default=None,
        description="Control kind -> limit topics every control of that kind must cite. "
        "Replaces the built-in table when given.")
    disclosure_out_of_date: FindingLevel = Field(
        default=FindingLevel.WARNING,
        description="Level of a recorded disclosure (disclosures/NAME.yaml) that the model "
        "no longer supports as sent: the customer is owed an update.")
    field_audience: dict[TieredField, Audience] = Field(
        default_factory=lambda: dict(DEFAULT_FIELD_AUDIENCE),
        description="Default audience of control fields (implementation, residual_risk, owner, "
        "evidence) for `build --audience`; unnamed fields are public. Replaces the built-in "
        "default (implementation and residual_risk: nda) when given.",
        examples=[{"implementation": "nda", "residual_risk": "nda", "evidence": "nda"}])
    disabled_rules: list[Identifier] = Field(
        default_factory=list, description="Rule codes or names not run in this workspace.")
    exercise_interval_days: int = Field(
        default=180, ge=1, le=3650,
        description="Longest time without a recorded tabletop exercise (exercises/*.yaml).")
    drill_interval_days: int = Field(
        default=180, ge=1, le=3650,
        description="Longest time a layer may go without a recorded drill (drills/*.yaml).")
    tabletop_scenarios: list[Identifier] | None = Field(
        default=None,
        description="Scenarios `check` traces; a path among them that no deployed, verified "
        "control stops is an error (TTX001). `all` means every scenario. Default: the "
        "scenarios of scenarios/*.yaml and those an exercise record names.",
        examples=[["all"], ["readme-injection", "leaked-session-token"]])
    tabletop_effects: dict[Identifier, dict[Need, Literal["stops", "hardens"]]] | None = \
        Field(default=None, description="Control kind -> need -> `stops` or `hardens`: how "
              "controls of a kind act on attacker steps in `compliance tabletop`. Added to "
              "the built-in table (a kind given here replaces its built-in row).")


class Model(Strict):
    """The whole workspace model after loading every file (ids unique)."""

    system: System
    stance: Text | None = None
    sources: list[Source]
    limits: list[Limit]
    evidence: list[Evidence]
    controls: list[Control]
    waivers: list[Waiver]
    settings: Settings
    metrics: list[Metric] = []
    scenarios: list[Scenario] = []
    exercises: list[Exercise] = []
    drills: list[Drill] = []

    def control(self, cid: str) -> Control | None:
        return next((c for c in self.controls if c.id == cid), None)
