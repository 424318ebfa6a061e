"""CFG008: the agent can only reach package registries and the model API."""

from __future__ import annotations

import re
from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.claude_merge import Effective, merge_claude_settings
from compliance.rules.config._domains import describe
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings

_WEBFETCH = re.compile(r"^WebFetch\(domain:([^)]+)\)$")


def _ports(value: str) -> set[str]:
    return set(value.replace(":", ",").split(","))


class EgressAllowlistTooBroad(ConfigRule):
    """Flags a registries-and-model-API-only claim when the allowlist reaches further.

    ## What it does
    Reads the firewall script's allowed domains, GitHub `/meta` ranges and
    ACCEPT rules, and Claude Code's merged `sandbox.network.allowedDomains`
    (which binds only when `sandbox.enabled` is true) and `WebFetch(domain:…)`
    allow rules.
    Refutes on any host that is neither a package registry nor a model API
    (sharper message for write-capable services such as Slack, Notion, Sentry,
    all of GitHub), on `--dport 22`, and on UDP/TCP 53 accepted to any host.

    ## Why is this bad?
    Every allowed host receives whatever the agent sends it; DNS to any
    resolver is a tunnel; SSH to any host is a push channel.

    ## Example
    `iptables -A OUTPUT -p udp --dport 53 -j ACCEPT` (no `-d`), or
    `"allowedDomains": ["github.com"]`.

    ## Use instead
    Allow DNS only to the container's resolver (`-d 127.0.0.11`), drop port 22,
    list only registries and the model API, or reword the claim to name what is
    allowed.

    ## Sources
    anthropics/claude-code `init-firewall.sh` "also allows outbound UDP/53 and
    TCP/22 to any host"; Copilot firewall docs: "should not be considered a
    comprehensive security solution"; Claude Code allow decisions use "the
    client-supplied hostname without inspecting TLS".
    """

    code = "CFG008"
    name = "egress-allowlist-too-broad"
    reads: ClassVar[tuple[str, ...]] = ("shell", "claude-settings")
    export_hint = ("export the firewall script or the Claude Code settings with "
                   "sandbox.network.allowedDomains (the Copilot allowlist lives only in the "
                   "repository settings UI)")

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        for doc in of_kind(docs, "shell"):
            self._script(doc, findings)
        claude = of_kind(docs, "claude-settings")
        if claude:
            self._claude(merge_claude_settings(claude), findings)

    @staticmethod
    def _claude(eff: Effective, findings: Findings) -> None:
        """Bash egress is the sandbox allowlist (only when the sandbox is on); WebFetch
        egress is its `WebFetch(domain:…)` allow rules."""
        domains = eff.array("sandbox.network.allowedDomains")
        enabled = eff.value("sandbox.enabled")
        if (domains or eff.value("sandbox.network")) and (enabled is None
                                                         or enabled.value is not True):
            where = enabled or next(iter(domains), None)
            findings.refute(where.doc if where else eff.top(), where.fact if where else None,
                            "the sandbox is not enabled, so allowedDomains restricts nothing")
        for src in domains:
            why = describe(str(src.value))
            if why:
                findings.refute(src.doc, src.fact, why)
            else:
                findings.support(src.doc, src.fact, f"{src.value} is allowed")
        for src in eff.array("permissions.allow"):
            m = _WEBFETCH.match(str(src.value))
            if m is None:
                continue
            why = describe(m.group(1))
            if why:
                findings.refute(src.doc, src.fact, f"WebFetch: {why}")
            else:
                findings.support(src.doc, src.fact, f"WebFetch to {m.group(1)} is allowed")
        key = eff.value("sandbox.network.allowedDomains")
        if key is not None and not domains:
            findings.support(key.doc, key.fact, "allowedDomains is empty")

    def _script(self, doc: EvidenceDoc, findings: Findings) -> None:
        for fact in doc.fact_list("github-meta"):
            findings.refute(doc, fact, "allows all GitHub /meta ranges (github.com, its API and "
                                       "git: a write-capable service)")
        for fact in doc.fact_list("domain"):
            why = describe(fact.value)
            if why:
                findings.refute(doc, fact, why)
            else:
                findings.support(doc, fact, f"{fact.value} is allowed")
        for fact in doc.fact_list("rule"):
            rule = fact.value
            if rule["chain"] != "OUTPUT" or rule["target"] != "ACCEPT":
                continue
            ports = _ports(str(rule.get("dport", "")))
            if "22" in ports:
                findings.refute(doc, fact, "accepts outbound --dport 22 (SSH)"
                                + ("" if "dst" in rule else " to any host"))
            if "53" in ports and "dst" not in rule:
                proto = str(rule.get("proto", "any")).upper()
                findings.refute(doc, fact, f"accepts {proto}/53 to any host (DNS can tunnel data)")
