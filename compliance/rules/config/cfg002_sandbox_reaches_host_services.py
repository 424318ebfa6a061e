"""CFG002: the sandbox cannot reach host services."""

from __future__ import annotations

import json
from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.claude_merge import Effective, Sourced, merge_claude_settings
from compliance.rules.config._claude import HOST_COMMANDS
from compliance.rules.config.base import ConfigRule, require_sandbox
from compliance.rules.config.verdict import Findings


class SandboxReachesHostServices(ConfigRule):
    """Flags a claim that the sandbox cannot reach host services when settings open a way out.

    ## What it does
    Refutes the claim when the effective settings exclude docker, kubectl,
    ssh (or similar) from the sandbox, allow the Docker socket or all Unix
    sockets, enable the weaker nested sandbox, or leave the sandbox off.

    ## Why is this bad?
    An excluded command runs outside the sandbox; `/var/run/docker.sock`
    "effectively grants access to the host system"; a weaker nested sandbox
    trades isolation for compatibility.

    ## Example
    `"excludedCommands": ["docker"]` or `"allowUnixSockets": ["/var/run/docker.sock"]`.

    ## Use instead
    Keep these lists empty and run container tooling outside the agent's sandbox.

    ## Sources
    Claude Code "Sandboxing": "/var/run/docker.sock ... effectively grants access to
    the host system".
    """

    code = "CFG002"
    name = "sandbox-reaches-host-services"
    reads: ClassVar[tuple[str, ...]] = ("claude-settings",)
    export_hint = "export the Claude Code settings files of every scope"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        eff = merge_claude_settings(docs)
        enabled = require_sandbox(
            eff, findings, "the sandbox is not enabled, so commands reach the host directly")
        if enabled is None:
            return
        findings.support(enabled.doc, enabled.fact, "sandbox.enabled is true")
        for src in eff.array("sandbox.excludedCommands"):
            prog = str(src.value).split()[0].rsplit("/", 1)[-1] if str(src.value).split() else ""
            if prog.rstrip("*:") in HOST_COMMANDS:
                findings.refute(src.doc, src.fact,
                                f"{src.value!r} runs outside the sandbox and reaches host services")
        for src in eff.array("sandbox.network.allowUnixSockets"):
            if "docker.sock" in str(src.value) or "containerd.sock" in str(src.value):
                findings.refute(src.doc, src.fact,
                                f"{src.value} effectively grants access to the host system")
        for key in ("sandbox.network.allowAllUnixSockets", "sandbox.enableWeakerNestedSandbox"):
            flag = eff.value(key)
            if flag is not None and flag.value is True:
                findings.refute(flag.doc, flag.fact, f"{key} is true")
        if not findings.refuted:
            self._support(eff, enabled, findings)

    @staticmethod
    def _support(eff: Effective, enabled: Sourced, findings: Findings) -> None:
        """Each setting at its own line; one no scope sets at its file (it has no line)."""

        def cite(key: str, message: str) -> None:
            src = eff.value(key)
            findings.support(src.doc if src else enabled.doc, src.fact if src else None,
                             message)

        excluded = [str(s.value) for s in eff.array("sandbox.excludedCommands")]
        state = (f"lists {', '.join(excluded)}, none of " if excluded else "is empty, so no "
                 if eff.value("sandbox.excludedCommands") else "is not set in any scope, so no ")
        cite("sandbox.excludedCommands", "excludedCommands " + state + "docker, podman, "
             "kubectl, ssh or similar runs outside the sandbox")
        sockets = [str(s.value) for s in eff.array("sandbox.network.allowUnixSockets")]
        cite("sandbox.network.allowUnixSockets",
             "allowed Unix sockets: " + (", ".join(sockets) if sockets else "none"))
        for key in ("sandbox.network.allowAllUnixSockets", "sandbox.enableWeakerNestedSandbox"):
            src = eff.value(key)
            cite(key, f"{key.rsplit('.', 1)[-1]} is "
                      + (json.dumps(src.value) if src else "not set in any scope (default false)"))
