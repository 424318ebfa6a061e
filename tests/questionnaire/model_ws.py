"""A small workspace for drafter and command tests: one control per support case."""

from __future__ import annotations

from tests.workspaces import SYSTEM, sha256

EVIDENCE = b"iptables -P OUTPUT DROP\n"
MODEL = SYSTEM + f"""\
  - id: host
    text: Isolation depends on a well-configured host.
    sources: [owasp-llm01]
evidence:
  - id: fw
    path: fw.sh
    sha256: {sha256(EVIDENCE)}
    collected: 2026-11-01
controls:
  - id: NET-01
    layer: network
    title: Default-deny egress
    status: deployed
    claim: Outbound traffic from agent sessions is denied by default.
    implementation: An iptables policy drops everything not allowed.
    evidence: [fw]
    limits: [model-open]
    residual_risk: Allowed hosts still receive data.
    owner: platform
  - id: ISO-01
    layer: isolation
    title: Disposable VMs
    status: deployed
    claim: Agent sessions run in single-use virtual machines.
    implementation: Each session boots a fresh VM.
    limits: [host]
    residual_risk: A hypervisor escape would reach the host.
    owner: platform
  - id: LOG-01
    layer: logs
    title: Session logs
    status: partial
    claim: Agent tool calls are logged centrally.
    implementation: A collector ships tool-call events.
    limits: [host]
    residual_risk: Commands run outside the agent are not logged.
    owner: platform
  - id: GIT-01
    layer: git
    title: Review
    status: planned
    claim: Every agent change is reviewed by a human.
    implementation: Branch protection, to be enabled.
    limits: [host]
    residual_risk: Reviewers can miss things.
    owner: platform
"""
