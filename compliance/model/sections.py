"""Model sections: system, sources, limits, evidence, controls, waivers."""

from __future__ import annotations

import datetime as dt

from pydantic import Field, model_validator

from compliance.model.audience import Audience, TieredField
from compliance.model.base import Identifier, Line, Sha256, Strict, Text
from compliance.model.enums import Status
from compliance.model.layers import Layer


class System(Strict):
    """What the model covers and who answers for it."""

    name: Line = Field(description="Name of the system the model covers.",
                       examples=["Acme coding agents"])
    scope: Text = Field(description="What is and is not covered, in plain words.")
    owner: Line = Field(description="Team or person accountable for the model.",
                        examples=["security-engineering@acme.example"])
    last_reviewed: dt.date = Field(
        description="Date the model was last reviewed end to end (YYYY-MM-DD). "
        "Rendered outputs take their dates from here, never from the clock.",
        examples=["2026-11-15"],
    )
    sources: list[Identifier] = Field(default_factory=list,
                                      description="Ids of sources describing the system.")


class Source(Strict):
    """A citation: a vendor page, a standard, an internal test."""

    id: Identifier = Field(description="Id that limits and controls cite.",
                           examples=["owasp-llm01"])
    title: Line = Field(description="Title of the cited document.")
    url: Line | None = Field(default=None, description="Where to read it (not fetched).")
    quote: Text | None = Field(default=None, description="The sentence relied on, verbatim.")


class Limit(Strict):
    """A known limit of a control, in plain words, with where it is documented."""

    id: Identifier = Field(description="Id that controls cite.",
                           examples=["model-channel-open"])
    text: Text = Field(description="The limit in plain words, as a customer would read it.")
    topics: list[Identifier] = Field(
        default_factory=list,
        description="Topics this limit covers; the limit rules require certain topics "
        "for certain control kinds (see `required_limits` in compliance.yaml).",
        examples=[["model-channel-open"]],
    )
    sources: list[Identifier] = Field(description="Ids of sources documenting the limit.",
                                      min_length=1)
    audience: Audience = Field(
        default=Audience.PUBLIC,
        description="Who may read the limit: public, nda or internal. It must be at least as "
        "wide as every control that cites it (a reader shown a claim is shown its limits).")


class Evidence(Strict):
    """A file under evidence/ that claims rest on, pinned by its sha256."""

    id: Identifier = Field(description="Id that controls cite.", examples=["firewall-script"])
    path: Line = Field(description="Path relative to the workspace's evidence/ folder.",
                       examples=["devcontainer/init-firewall.sh"])
    sha256: Sha256 | None = Field(
        default=None,
        description="sha256 of the file when last reviewed; `compliance evidence pin` "
        "writes it. A different hash makes every claim resting on the file stale.",
    )
    kind: Identifier | None = Field(
        default=None,
        description="Adapter that reads the file; detected when omitted. `opaque` says no "
        "adapter reads it on purpose (an in-house format): it is pinned and packed, and "
        "claims resting only on it stay unverified.",
        examples=["claude-settings", "opaque"])
    description: Text | None = Field(default=None, description="What the file is.")
    collected: dt.date = Field(description="Date the file was exported or collected.")
    max_age_days: int = Field(
        default=90, ge=1, le=3650,
        description="How old the file may be, in days after `collected`: an older file is "
        "reported (EVD005) and no claim resting on it is VERIFIED.")


class Assertion(Strict):
    """One statement a control's claim makes, and the checks that verify that statement."""

    text: Text = Field(
        description="This part of the claim, in words an auditor can hold against the "
        "evidence.",
        examples=["No API key or token is forwarded into the session's environment."])
    verified_by: list[Identifier] = Field(
        description="Configuration check codes that verify this part. An empty list says "
        "no check reads the evidence this part rests on: the part stays unverified and "
        "the claim is at most PARTLY VERIFIED.",
        examples=[["CFG013"], []])


class Control(Strict):
    """A deployed, partial or planned control, its claim, and the limits that bound it."""

    id: Identifier = Field(description="Stable id, unique across the workspace.",
                           examples=["NET-01"])
    layer: Layer = Field(description="Which of the six layers the control belongs to.")
    kind: Identifier | None = Field(
        default=None,
        description="What sort of control this is (e.g. egress-default-deny, "
        "egress-allowlist, microvm-isolation, env-secrets). Drives the required "
        "limits and the configuration checks that verify the claim.",
        examples=["egress-default-deny"],
    )
    title: Line = Field(description="Short name of the control.")
    status: Status = Field(description="deployed, partial or planned.")
    claim: Text = Field(description="The claim as it may be said to a customer.")
    stance_clause: Text | None = Field(
        default=None,
        description="Clause this control adds to the stance summary when it is deployed "
        "and verified, e.g. 'run in isolated, disposable environments'.",
    )
    implementation: Text = Field(description="How the control is implemented.")
    evidence: list[Identifier] = Field(default_factory=list,
                                       description="Ids of evidence files the claim rests on.")
    verified_by: list[Identifier] | None = Field(
        default=None,
        description="Configuration check codes that verify the claim as one assertion; "
        "inferred from `kind` when omitted. An empty list says no file can verify it. Not "
        "allowed together with `assertions` (each assertion names its own checks).",
    )
    assertions: list[Assertion] | None = Field(
        default=None,
        min_length=1,
        description="The separate statements the claim makes, each with the checks that "
        "verify it. The claim is VERIFIED only when every assertion is; when only some are "
        "it is PARTLY VERIFIED and the others are named. Without this list the whole claim "
        "is one assertion, verified by `verified_by` (or the checks its kind selects).",
    )
    limits: list[Identifier] = Field(default_factory=list,
                                     description="Ids of the limits this control has.")
    residual_risk: Text = Field(description="What risk remains with the control in place.")
    owner: Line = Field(description="Team or person who runs the control.")
    audience: Audience = Field(
        default=Audience.PUBLIC,
        description="Who may read the control at all: public, nda or internal "
        "(`build --audience`). Its claim, status, verdict and limits go with it.")
    field_audience: dict[TieredField, Audience] = Field(
        default_factory=dict,
        description="Narrow single fields (implementation, residual_risk, owner, evidence) "
        "to an audience; overrides `field_audience` in compliance.yaml for this control.",
        examples=[{"implementation": "internal"}])

    @model_validator(mode="after")
    def _checks_in_one_place(self) -> Control:
        if self.assertions is not None and self.verified_by is not None:
            raise ValueError("give `verified_by` on each assertion, not on the control, "
                             "when `assertions` are listed")
        return self


class Waiver(Strict):
    """A reviewed exception to one rule for one target, with an owner and an expiry."""

    rule: Line = Field(description="Rule code or name waived.", examples=["LIM002"])
    target: Line = Field(description="Control, limit or evidence id the waiver covers, "
                         "or a file path.", examples=["GIT-02"])
    reason: Text = Field(description="Why the finding is accepted for now.")
    owner: Line = Field(description="Who accepted it.")
    expires: dt.date = Field(description="Date after which the waiver is an error.")
