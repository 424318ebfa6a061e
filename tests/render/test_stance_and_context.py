"""Stance clauses only from deployed, verified controls; context from the checked model."""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import replace
from pathlib import Path

import pytest

from compliance.diagnostics import Diagnostic, Level
from compliance.pipeline import Checked, load_and_check
from compliance.render.build_context import NO_CHECK, build_context, verdict_of
from compliance.render.context import Verdict
from compliance.render.stance import NO_CLAUSE, build_stance, join_clauses
from tests.workspaces import SYSTEM, make_workspace

CONTROLS = """\
controls:
  - id: ISO-01
    layer: isolation
    title: Disposable VMs
    status: deployed
    claim: Agent sessions run in single-use virtual machines.
    stance_clause: run in isolated, disposable environments
    implementation: Each session boots a fresh VM.
    limits: [model-open]
    residual_risk: A hypervisor escape would reach the host.
    owner: platform
  - id: NET-01
    layer: network
    title: Default-deny egress
    status: deployed
    claim: Outbound traffic is denied by default.
    stance_clause: have default-deny network access
    implementation: A firewall in every session.
    limits: [model-open]
    residual_risk: Allowed hosts receive data.
    owner: platform
  - id: CRED-01
    layer: credentials
    title: Short-lived tokens
    status: partial
    claim: Tokens expire after one hour.
    stance_clause: hold only short-lived tokens
    implementation: A token broker.
    limits: [model-open]
    residual_risk: A token works until it expires.
    owner: identity
  - id: GIT-01
    layer: git
    title: Branch protection
    status: planned
    claim: Every change to main is reviewed.
    stance_clause: may only propose changes through reviewed pull requests
    implementation: Branch protection on main.
    limits: [model-open]
    residual_risk: Reviewers can miss things.
    owner: platform
"""


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    root = tmp_path_factory.mktemp("ws")
    make_workspace(root, {"controls/system.yaml": SYSTEM, "controls/controls.yaml": CONTROLS})
    result = load_and_check(root, dt.date(2026, 11, 2))
    assert result.workspace.model is not None
    return result


def test_only_deployed_verified_controls_make_clauses(checked: Checked) -> None:
    model = checked.workspace.model
    assert model is not None
    verdicts = {
        "ISO-01": (Verdict.VERIFIED, ""),
        "NET-01": (Verdict.UNVERIFIED, "No check covers it."),
        "CRED-01": (Verdict.VERIFIED, ""),
        "GIT-01": (Verdict.VERIFIED, ""),
    }
    stance = build_stance(model, verdicts)
    assert stance.summary == "In Test agents, agents run in isolated, disposable environments."
    assert stance.unverified == ("NET-01 Default-deny egress: unverified. No check covers it.",)
    assert stance.relied_on == ("CRED-01 Short-lived tokens (partial, verified).",)
    assert stance.planned == ("GIT-01 Branch protection: planned, not in place.",)
    assert stance.refuted == ()
    assert stance.limits == ("The connection to the model provider stays open.",)
    assert stance.gaps == (
        "Git write and review: no control in place. Where can the agent write, and who reviews it?",
        "Pipeline gating: no control in place. Do workflows run before a human looks?",
        "Logs: no control in place. Can we reconstruct a session?",
    )


def test_refuted_and_nothing_verified(checked: Checked) -> None:
    model = checked.workspace.model
    assert model is not None
    verdicts = {cid: (Verdict.UNVERIFIED, "") for cid in ("ISO-01", "CRED-01", "GIT-01")}
    verdicts["NET-01"] = (Verdict.REFUTED, "CFG007: OUTPUT policy is ACCEPT.")
    stance = build_stance(model, verdicts)
    assert stance.summary == NO_CLAUSE
    assert stance.refuted == (
        "NET-01 Default-deny egress: refuted by its evidence. CFG007: OUTPUT policy is ACCEPT.",
    )


def test_join_clauses() -> None:
    assert join_clauses(["a"]) == "a"
    assert join_clauses(["a", "b"]) == "a and b"
    assert join_clauses(["a", "b", "c"]) == "a, b, and c"


class _Status(enum.Enum):
    VERIFIED = "verified"


class _Verdict:
    status = _Status.VERIFIED
    message = "CFG007 verified default deny."


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, (Verdict.UNVERIFIED, NO_CHECK)),
        (
            "refuted",
            (Verdict.REFUTED, "A configuration check over its evidence files refuted the claim."),
        ),
        (
            {"status": "verified", "message": "supported by x:1"},
            (Verdict.VERIFIED, "Supported by x:1."),
        ),
        (_Verdict(), (Verdict.VERIFIED, "CFG007 verified default deny.")),
        ("passed", (Verdict.UNVERIFIED, NO_CHECK)),
    ],
)
def test_verdict_of(raw: object, expected: tuple[Verdict, str]) -> None:
    assert verdict_of(raw) == expected


def test_context_layers_gaps_and_findings_placement(checked: Checked) -> None:
    located = checked.workspace.where("controls", "NET-01")
    assert located is not None
    pos = located.pos("claim")
    inside = Diagnostic(
        pos.path,
        pos.line,
        pos.column,
        "CLM001",
        "absolute-safety-claim",
        Level.ERROR,
        "An absolute claim.",
    )
    outside = Diagnostic("waivers.yaml", 3, 1, "WVR001", "waiver-expired", Level.ERROR, "Expired.")
    forced = replace(checked, result=replace(checked.result, findings=[inside, outside]))
    ctx = build_context(forced, forced=True)
    assert [layer.key for layer in ctx.layers] == [
        "isolation",
        "network",
        "credentials",
        "git",
        "pipeline",
        "logs",
    ]
    assert [layer.gap for layer in ctx.layers] == [False, False, False, True, True, True]
    net = ctx.layers[1].controls[0]
    assert [f.code for f in net.findings] == ["CLM001"]
    assert [f.code for f in ctx.other_findings] == ["WVR001"]
    assert [f.code for f in ctx.open_findings] == ["CLM001", "WVR001"]
    assert ctx.reviewed == "2026-11-01"
    assert net.limits[0].source == "OWASP LLM01 Prompt Injection"


def test_evidence_is_hashed_from_the_file(tmp_path: Path) -> None:
    data = b"policy\n"
    make_workspace(
        tmp_path,
        {
            "controls/system.yaml": SYSTEM
            + ("evidence:\n  - id: pol\n    path: pol.txt\n    collected: 2026-10-01\n"),
            "controls/controls.yaml": CONTROLS.replace(
                "    limits: [model-open]\n    residual_risk: A hypervisor",
                "    evidence: [pol]\n    limits: [model-open]\n    residual_risk: A hypervisor",
            ),
            "evidence/pol.txt": data,
        },
    )
    ctx = build_context(load_and_check(tmp_path, dt.date(2026, 11, 2)))
    (evidence,) = ctx.layers[0].controls[0].evidence
    import hashlib

    assert evidence.path == "evidence/pol.txt"
    assert evidence.sha256 == hashlib.sha256(data).hexdigest()
    assert evidence.collected == "2026-10-01"
