"""CFG015: the agent's shell does not inherit our secrets."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.claude_merge import merge_claude_settings
from compliance.rules.config._secrets import is_secret_name
from compliance.rules.config.base import ConfigRule, of_kind, require_containment
from compliance.rules.config.verdict import Findings


class ShellInheritsSecrets(ConfigRule):
    """Flags a claim that the shell does not inherit secrets when no policy filters them.

    ## What it does
    Codex: requires `[shell_environment_policy]` with `inherit = "core"` or
    `"none"`, or `inherit = "all"` with `exclude` patterns and without
    `ignore_default_excludes = true`; secrets in its `set` table refute.
    Claude Code: requires `sandbox.credentials.envVars` entries (deny/mask),
    which bind only commands inside the sandbox: a sandbox that is off refutes,
    and a command that may run outside it (`sandbox.allowUnsandboxedCommands`
    true or unset, an `excludedCommands` entry) keeps the claim UNVERIFIED
    (refuted with `defaultMode: bypassPermissions` in effect).

    ## Why is this bad?
    Without a policy, every command the agent runs sees the parent process's
    environment, including tokens exported in the user's shell.

    ## Example
    A Codex config with no `[shell_environment_policy]`.

    ## Use instead
    `[shell_environment_policy] inherit = "core"`; Claude Code
    `"credentials": {"envVars": [{"name": "AWS_*", "mode": "deny"}]}`.

    ## Sources
    Codex "Configuration Reference": `[shell_environment_policy]`; Claude Code
    settings reference: `credentials.{files,envVars}` with `mode: deny|mask`.
    """

    code = "CFG015"
    name = "shell-inherits-secrets"
    reads: ClassVar[tuple[str, ...]] = ("codex-config", "claude-settings")
    export_hint = "export Codex config.toml or the Claude Code settings"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        for doc in of_kind(docs, "codex-config"):
            self._codex(doc, findings)
        claude = of_kind(docs, "claude-settings")
        if claude:
            eff = merge_claude_settings(claude)
            require_containment(eff, findings, "the sandbox is off: sandbox.credentials.envVars "
                                               "filters nothing and Bash commands inherit the "
                                               "session's environment",
                                "it inherits the session's environment, secrets included")
            env_vars = eff.array("sandbox.credentials.envVars")
            if env_vars:
                findings.support(env_vars[0].doc, env_vars[0].fact,
                                 "sandbox.credentials.envVars filters the environment")
            else:
                findings.refute(eff.top(), None, "no sandbox.credentials.envVars: Bash commands "
                                                 "inherit the session's environment")

    def _codex(self, doc: EvidenceDoc, findings: Findings) -> None:
        policy = doc.at("shell_environment_policy")
        if policy is None or not isinstance(policy.value, dict):
            findings.refute(doc, None, "no [shell_environment_policy]: commands inherit the "
                                       "whole environment")
            return
        inherit = doc.at("shell_environment_policy", "inherit")
        value = inherit.value if inherit else "all"
        if value in ("core", "none"):
            findings.support(doc, inherit, f'inherit = "{value}"')
        elif not policy.value.get("exclude"):
            findings.refute(doc, inherit or policy, 'inherit = "all" without exclude patterns')
        else:
            findings.support(doc, ("shell_environment_policy", "exclude"),
                             'inherit = "all" with exclude patterns')
        for name, fact in doc.entries("shell_environment_policy", "set"):
            if is_secret_name(str(name)):
                findings.refute(doc, fact, f"{name} is set in every command's environment")
