"""Helpers shared by the checks over Claude Code settings."""

from __future__ import annotations

import json

from compliance.adapters.claude_merge import Effective
from compliance.rules.config.verdict import Findings

HOST_COMMANDS = ("docker", "podman", "kubectl", "ssh", "scp", "nerdctl", "sudo")


def require(eff: Effective, findings: Findings, key: str, want: object, default: object,
            why: str) -> None:
    """Refute unless the effective ``key`` equals ``want``; an absent key has its default."""
    src = eff.value(key)
    if src is None:
        top = eff.top()
        message = f"{key} is not set in any scope (default {json.dumps(default)}); {why}"
        findings.refute(top, None, message)
    elif src.value != want:
        message = f"{key} is {json.dumps(src.value)} ({src.scope} scope); {why}"
        findings.refute(src.doc, src.fact, message)
    else:
        findings.support(src.doc, src.fact, f"{key} is {json.dumps(want)} ({src.scope} scope)")
        if src.scope != "managed":
            findings.gap(f"{src.doc.path}:{src.fact.line}: {key} is set in {src.scope} settings, "
                         "which a higher scope (local settings, --settings) can override; only "
                         "managed settings make it binding")
