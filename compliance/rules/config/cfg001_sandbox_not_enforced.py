"""CFG001: shell commands always run in the OS sandbox."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.claude_merge import merge_claude_settings
from compliance.rules.config._claude import require
from compliance.rules.config.base import ConfigRule
from compliance.rules.config.verdict import Findings


class SandboxNotEnforced(ConfigRule):
    """Flags a claim that shell commands always run in an OS sandbox when settings allow otherwise.

    ## What it does
    Merges every Claude Code settings scope given (managed > CLI > local >
    project > user) and requires `sandbox.enabled: true`,
    `sandbox.failIfUnavailable: true` and `sandbox.allowUnsandboxedCommands: false`.
    Set anywhere but managed settings, they can be overridden by a higher scope,
    so the claim stays UNVERIFIED.

    ## Why is this bad?
    The sandbox is off by default; when it cannot start, Claude Code "shows a
    warning and runs commands unsandboxed" unless `failIfUnavailable` is
    true; and `allowUnsandboxedCommands` (default true) lets a command retry
    with `dangerouslyDisableSandbox`. Any one of these makes "always" false.

    ## Example
    `{"sandbox": {"enabled": true}}` with the claim "commands always run sandboxed".

    ## Use instead
    Set all three keys in managed settings, or claim "commands run in the
    sandbox when it is available".

    ## Sources
    Claude Code settings reference and "Sandboxing" (code.claude.com/docs/en/sandboxing):
    "Sandboxing reduces risk but is not a complete isolation boundary".
    """

    code = "CFG001"
    name = "sandbox-not-enforced"
    reads: ClassVar[tuple[str, ...]] = ("claude-settings",)
    export_hint = "export the Claude Code settings files of every scope (managed first)"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        eff = merge_claude_settings(docs)
        require(eff, findings, "sandbox.enabled", True, False, "the Bash sandbox is off")
        require(eff, findings, "sandbox.failIfUnavailable", True, False,
                "when the sandbox cannot start, commands run unsandboxed with a warning")
        require(eff, findings, "sandbox.allowUnsandboxedCommands", False, True,
                "a command may retry outside the sandbox (dangerouslyDisableSandbox)")
