"""CFG009: unknown hosts are blocked, not prompted."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.claude_merge import merge_claude_settings
from compliance.rules.config.base import ConfigRule, require_containment
from compliance.rules.config.verdict import Findings

STRICT = "sandbox.network.strictAllowlist"
MANAGED_ONLY = "sandbox.network.allowManagedDomainsOnly"


class UnknownHostsPrompted(ConfigRule):
    """Flags a "blocked, not prompted" claim when a non-listed host can still be approved.

    ## What it does
    Requires `sandbox.network.strictAllowlist: true` in user or managed
    settings, or `allowManagedDomainsOnly: true` in managed settings. The same
    keys in a project or local file are ignored (and named in the reasons). Any
    `defaultMode: "bypassPermissions"` refutes, and so does a sandbox that is off.
    The allowlist binds only commands inside the sandbox: one that may run
    outside it (`sandbox.allowUnsandboxedCommands` true or unset, an
    `excludedCommands` entry) keeps the claim UNVERIFIED.

    ## Why is this bad?
    Without these keys a request to a non-listed host asks the user, who can
    say yes; "A repository can't turn it on or off"; bypass mode allows
    non-listed hosts outright.

    ## Example
    `.claude/settings.json` (project) with `"strictAllowlist": true`.

    ## Use instead
    Set `strictAllowlist` in managed (or user) settings, or
    `allowManagedDomainsOnly` in managed settings.

    ## Sources
    Claude Code settings reference: `strictAllowlist` "can only be set in user or
    managed settings ('A repository can't turn it on or off')";
    `allowManagedDomainsOnly` is managed-only.
    """

    code = "CFG009"
    name = "unknown-hosts-prompted"
    reads: ClassVar[tuple[str, ...]] = ("claude-settings",)
    export_hint = "export the managed or user Claude Code settings"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        eff = merge_claude_settings(docs)
        require_containment(eff, findings,
                            "the sandbox is not enabled: Bash commands reach any host",
                            "it reaches any host the network lets it")
        for doc in docs:
            for fact in doc.fact_list("defaultMode"):
                if fact.value == "bypassPermissions":
                    findings.refute(doc, fact, "bypassPermissions allows non-listed hosts")
        strict = eff.value(STRICT)
        managed_only = eff.value(MANAGED_ONLY)
        ok = [s for s in (strict, managed_only) if s is not None and s.value is True]
        for src in ok:
            findings.support(src.doc, src.fact, f"{src.key} is true ({src.scope} scope)")
        if ok:
            return
        for src, why in eff.ignored:
            if src.key in (STRICT, MANAGED_ONLY) and src.value is True:
                findings.refute(src.doc, src.fact, f"ignored: {why}")
        if not findings.refuted:
            set_false = strict or managed_only
            if set_false is not None:
                findings.refute(set_false.doc, set_false.fact, f"{set_false.key} is "
                                                               f"{set_false.value!r}")
            else:
                findings.refute(eff.top(), None, "neither sandbox.network.strictAllowlist nor "
                                "managed allowManagedDomainsOnly is set: unknown hosts prompt")
