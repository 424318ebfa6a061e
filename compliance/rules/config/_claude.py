"""Helpers shared by the checks over Claude Code settings."""

from __future__ import annotations

from compliance.adapters.claude_merge import Effective
from compliance.rules.config.verdict import Findings

HOST_COMMANDS = ("docker", "podman", "kubectl", "ssh", "scp", "nerdctl", "sudo")


def require(eff: Effective, findings: Findings, key: str, want: object, default: object,
            why: str) -> None:
    """Refute unless the effective ``key`` equals ``want``; an absent key has its default."""
    src = eff.value(key)
    if src is None:
        top = eff.top()
        findings.refute(top, None, f"{key} is not set in any scope (default {default!r}); {why}")
    elif src.value != want:
        findings.refute(src.doc, src.fact, f"{key} is {src.value!r} ({src.scope} scope); {why}")
    else:
        findings.support(src.doc, src.fact, f"{key} is {want!r} ({src.scope} scope)")
