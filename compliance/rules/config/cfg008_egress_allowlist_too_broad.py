"""CFG008: the agent can only reach package registries and the model API."""

from __future__ import annotations

import re
from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.claude_merge import Effective, merge_claude_settings
from compliance.rules.config._domains import describe
from compliance.rules.config._firewall import FAMILIES, Opening, covers, opening, walk
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings

_WEBFETCH = re.compile(r"^WebFetch\(domain:([^)]+)\)$")


class EgressAllowlistTooBroad(ConfigRule):
    """Flags a registries-and-model-API-only claim when the allowlist reaches further.

    ## What it does
    Reads the firewall script's allowed domains, GitHub `/meta` ranges and
    ACCEPT rules, and Claude Code's merged `sandbox.network.allowedDomains`
    (which binds only when `sandbox.enabled` is true) and `WebFetch(domain:…)`
    allow rules.
    Refutes on any host that is neither a package registry nor a model API
    (sharper message for write-capable services such as Slack, Notion, Sentry,
    all of GitHub), on `--dport 22`, and on any OUTPUT ACCEPT that reaches any
    host (UDP/TCP 53 and port 22 named as DNS and SSH; all TCP, HTTPS or
    everything by what it opens). The chain is read as CFG007 reads it: `-I`
    before `-A`, jumps followed, nothing after the catch-all REJECT counted;
    `-d` hosts, `--match-set S dst`, `-o lo` and replies are limited.

    ## Why is this bad?
    Every allowed host receives whatever the agent sends it; DNS to any
    resolver is a tunnel; SSH to any host is a push channel.

    ## Example
    `iptables -A OUTPUT -p udp --dport 53 -j ACCEPT` (no `-d`),
    `iptables -A OUTPUT -p tcp --dport 443 -j ACCEPT` (HTTPS to every host), or
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
        for family, ours in FAMILIES:
            walked = walk(doc, ours)
            for fact in walked.rules:
                dport = fact.value.get("dport")
                if (fact.value["target"] == "ACCEPT" and opening(fact) is None
                        and dport is not None and covers(str(dport), 22)):
                    findings.refute(doc, fact, "accepts outbound --dport 22 (SSH)")
            for opened in walked.openings():
                self._opening(doc, family, opened, findings)

    @staticmethod
    def _opening(doc: EvidenceDoc, family: str, opened: Opening,
                 findings: Findings) -> None:
        """An accept to any host: SSH and DNS named as such, anything else by what it opens."""
        fact = opened.fact
        if opened.ports is not None and opened.covers(22) and not opened.covers(443):
            findings.refute(doc, fact, "accepts outbound --dport 22 (SSH) to any host")
        elif opened.ports is not None and opened.covers(53) and not opened.covers(443):
            proto = opened.proto.upper() if opened.proto != "all" else "any"
            findings.refute(doc, fact, f"accepts {proto}/53 to any host (DNS can tunnel data)")
        else:
            findings.refute(doc, fact, f"{family} OUTPUT {opened.to_any_host()}: not only "
                                       "registries and the model API")
