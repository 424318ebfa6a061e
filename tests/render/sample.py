"""A hand-built ReportContext covering every element the templates show."""

from __future__ import annotations

from compliance.practice.drills_view import DrillRowView, DrillsView
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
    StanceView,
    SummaryView,
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
        parts_listed=True,
        assertions=(
            AssertionView(1, "Egress is denied by default.", Verdict.VERIFIED, ("CFG007",),
                          "CFG007: supported by evidence/egress-policy.json:3 default: deny."),
            AssertionView(2, "Only allowlisted hosts are reachable.", Verdict.VERIFIED,
                          ("CFG008",), "CFG008: supported by evidence/egress-policy.json:5."),
        ),
        checks=(
            CheckView("CFG007", "egress-not-default-deny", Verdict.VERIFIED,
                      "Supported by evidence/egress-policy.json:3 default: deny.",
                      (ReasonView("evidence/egress-policy.json:3", "default",
                                  "the default action is deny", False),)),
            CheckView("CFG008", "egress-allowlist-too-broad", Verdict.VERIFIED,
                      "Supported by evidence/egress-policy.json:5 allow[0].",
                      (ReasonView("evidence/egress-policy.json:5", "allow[0]",
                                  "pypi.org is allowed", False),)),
        ),
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
    cred2 = ControlView(
        id="CRED-02",
        title="Credential files denied to the sandbox",
        status="deployed",
        claim="The sandbox cannot read ~/.ssh. The Read tool cannot either.",
        verdict=Verdict.PARTLY_VERIFIED,
        verdict_reason="1 of 2 parts of the claim verified (1). Not verified: (2) The Read "
                       "tool cannot read ~/.ssh (no configuration check covers this part).",
        implementation="denyRead in managed settings.",
        owner="identity@example.com",
        residual_risk="Files elsewhere are readable.",
        limits=(LimitView(text="Read deny rules do not bind subprocesses.",
                          source="vendor documentation"),),
        parts_listed=True,
        assertions=(
            AssertionView(1, "The sandbox cannot read ~/.ssh.", Verdict.VERIFIED, ("CFG014",),
                          "CFG014: supported by evidence/settings.json:7."),
            AssertionView(2, "The Read tool cannot read ~/.ssh.", Verdict.UNVERIFIED, (),
                          "No configuration check covers this part."),
        ),
        checks=(
            CheckView("CFG014", "credential-files-readable", Verdict.VERIFIED,
                      "Supported by evidence/settings.json:7.",
                      (ReasonView("evidence/settings.json:7", "sandbox.filesystem.denyRead[0]",
                                  "~/.ssh is denied to the sandbox", False),)),
        ),
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
        assertions=(
            AssertionView(1, "Agent sessions are logged.", Verdict.REFUTED, ("CFG024",),
                          "CFG024: refuted by evidence/log-config.yaml:2."),
        ),
        checks=(
            CheckView("CFG024", "session-logs-not-central", Verdict.REFUTED,
                      "Refuted by evidence/log-config.yaml:2 tools: tool calls are not logged.",
                      (ReasonView("evidence/log-config.yaml:2", "tools",
                                  "tool calls are not logged", True),)),
        ),
    )
    layers = (
        LayerView(key="isolation", title="Isolation", question=QUESTIONS["isolation"]),
        LayerView(key="network", title="Network", question=QUESTIONS["network"], controls=(net,)),
        LayerView(
            key="credentials",
            title="Credentials",
            question=QUESTIONS["credentials"],
            controls=(cred, cred2),
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
        partly_verified=("CRED-02 Credential files denied to the sandbox: partly verified. "
                         "Not verified: (2) The Read tool cannot read ~/.ssh.",),
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
        checked_as_of="2026-11-03",
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
        summary=SummaryView(verified=1, partly_verified=1, unverified=1, refuted=1, stale=0,
                            planned=0, errors=1, warnings=1, notes=0, waived=0, waivers=1,
                            model_sha256=SHA_A, manifest_sha256=SHA_B, manifest_files=3),
        drills=DRILLS,
    )


#: One drill row of each kind: failed, stale, superseded, and a passing newest one.
DRILLS = DrillsView(
    rows=(
        DrillRowView("2026-10-30", "hostile-readme", "Pipeline gating", "FAILED", "PIPE-01",
                     "CI ran the changed workflow on the pull request at once.",
                     "newest drill of this layer", ("failed",)),
        DrillRowView("2026-10-30", "hostile-readme", "Network egress", "passed", "NET-01",
                     "The canary call was blocked.", "newest drill of this layer", ()),
        DrillRowView("2026-03-02", "hostile-readme", "Isolation", "passed", "ISO-01",
                     "Only the working copy changed.",
                     "STALE: the newest drill of this layer, more than 180 days old; drill "
                     "it again", ("stale",)),
        DrillRowView("2026-03-02", "hostile-readme", "Pipeline gating", "passed",
                     "no control named", "The run waited for approval.",
                     "superseded by the drill of 2026-10-30", ("superseded",)),
    ),
    interval_days=180,
    not_drilled=("Credentials", "Git write and review", "Logs"),
    status="2 drill(s) recorded, the newest on 2026-10-30; each layer is drilled at least "
           "every 180 days.",
)
