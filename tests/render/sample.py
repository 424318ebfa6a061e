"""A hand-built ReportContext covering every element the templates show."""

from __future__ import annotations

from compliance.render.context import (
    ControlView,
    EvidenceView,
    FindingView,
    LayerView,
    LimitView,
    ReportContext,
    StanceView,
    Verdict,
    WaiverView,
)

SHA_A = "a" * 64
SHA_B = "0123456789abcdef" * 4

QUESTIONS = {
    "isolation": "Is the runtime appropriate for the code it runs?",
    "network": "What can the agent reach, including via tools?",
    "credentials": "What can a leaked or misused token do?",
    "git": "Where can the agent write, and who reviews?",
    "pipeline": "Do workflows run before a human looks?",
    "logs": "Can we reconstruct a session?",
}


def sample_context(
    *, forced: bool = False, extra_text: str = "", reviewed: str = "2026-11-02"
) -> ReportContext:
    finding = FindingView(
        code="LIM001",
        name="deployed-control-without-limit",
        level="error",
        message="NET-01 is deployed but states no limit." + extra_text,
        location="controls/network.yaml:3:1",
    )
    waiver = WaiverView(
        code="EVD004",
        target="LOG-01",
        reason="Log sample is re-exported monthly.",
        owner="secops@example.com",
        expires="2027-01-31",
    )
    net = ControlView(
        id="NET-01",
        title="Default-deny egress with an allowlist",
        status="deployed",
        claim="Agents reach only allowlisted hosts." + extra_text,
        verdict=Verdict.VERIFIED,
        verdict_reason="evidence/egress-policy.json sets default deny.",
        implementation="Egress proxy with a per-sandbox allowlist.",
        owner="platform@example.com",
        residual_risk="Allowed hosts can still receive data.",
        evidence=(
            EvidenceView(
                path="evidence/egress-policy.json",
                sha256=SHA_A,
                collected="2026-10-30",
                max_age_days=90,
                description="Proxy policy export",
            ),
        ),
        limits=(
            LimitView(
                text="The model connection stays open.",
                source="OWASP LLM06 Excessive Agency",
            ),
            LimitView(
                text="Allowed destinations can still receive data.",
                source="internal test 2026-10",
            ),
        ),
    )
    cred = ControlView(
        id="CRED-01",
        title="No standing credentials in the sandbox",
        status="partial",
        claim="Agents hold no standing credentials they can read.",
        verdict=Verdict.UNVERIFIED,
        verdict_reason="No evidence file can verify this claim.",
        implementation="Short-lived tokens minted per task.",
        owner="identity@example.com",
        residual_risk="A token is readable by any command the agent runs during its lifetime.",
        limits=(
            LimitView(
                text="Environment secrets are readable by any command the agent runs.",
                source="vendor documentation",
            ),
        ),
        findings=(finding,),
    )
    log = ControlView(
        id="LOG-01",
        title="Session logs shipped to the SIEM",
        status="deployed",
        claim="Agent sessions are logged.",
        verdict=Verdict.REFUTED,
        verdict_reason="evidence/log-config.yaml disables tool-call logging.",
        implementation="Log forwarder in every sandbox.",
        owner="secops@example.com",
        residual_risk="Logs show what ran, not why.",
        evidence=(EvidenceView(path="evidence/log-config.yaml", sha256=SHA_B),),
        limits=(LimitView(text="Logs are not tamper-proof.", source="internal review"),),
        waivers=(waiver,),
    )
    layers = (
        LayerView(key="isolation", title="Isolation", question=QUESTIONS["isolation"]),
        LayerView(key="network", title="Network", question=QUESTIONS["network"], controls=(net,)),
        LayerView(
            key="credentials",
            title="Credentials",
            question=QUESTIONS["credentials"],
            controls=(cred,),
        ),
        LayerView(key="git", title="Git", question=QUESTIONS["git"]),
        LayerView(key="pipeline", title="Pipeline", question=QUESTIONS["pipeline"]),
        LayerView(key="logs", title="Logs", question=QUESTIONS["logs"], controls=(log,)),
    )
    stance = StanceView(
        summary="Agents run with default deny network access." + extra_text,
        limits=(
            "The model connection stays open.",
            "Allowed destinations can still receive data.",
        ),
        relied_on=("Human review of every pull request.",),
        unverified=("CRED-01 No standing credentials in the sandbox: unverified.",),
        refuted=("LOG-01 Session logs shipped to the SIEM: refuted by its evidence.",),
        gaps=("Isolation: no control.", "Git: no control.", "Pipeline: no control."),
    )
    return ReportContext(
        title="Agent sandbox audit report",
        system="Example agent platform",
        owner="security@example.com",
        scope="Coding agents in CI sandboxes",
        reviewed=reviewed,
        generator="compliance 0.1.0",
        stance=stance,
        layers=layers,
        open_findings=(finding,) if forced else (),
        forced=forced,
        other_findings=(
            FindingView(
                code="WVR002",
                name="waiver-without-reason",
                level="warning",
                message="A waiver in waivers.yaml has an empty reason.",
                location="waivers.yaml:4:5",
                waived_by=None,
            ),
        ),
        waivers=(waiver,),
    )
