"""CFG010: Codex runs without network."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.rules.config.base import ConfigRule
from compliance.rules.config.verdict import Findings


class CodexNetworkEnabled(ConfigRule):
    """Flags a "Codex runs without network" claim when its config opens a network path.

    ## What it does
    In `config.toml` (top level and every `[profiles.*]`): refutes on
    `[sandbox_workspace_write] network_access = true`, `sandbox_mode` or
    `default_permissions` of danger-full-access, `web_search = "live"`,
    `[permissions.*]` profiles with network rules, and any `[mcp_servers.*]`
    (a `url` server is remote; a command server runs outside the shell sandbox).

    ## Why is this bad?
    Each of these lets data leave through a path the sandbox does not cover.
    Note that `approval_policy = "on-request"` still lets a human approve a
    command outside the sandbox; the verdict says so.

    ## Example
    `[mcp_servers.linear-server] url = "https://mcp.linear.app/mcp"`.

    ## Use instead
    `network_access = false`, `web_search = "disabled"`, no MCP servers, or a
    claim that names the allowed channels.

    ## Sources
    Codex "Configuration Reference" and "Agent internet access":
    `[sandbox_workspace_write] network_access` defaults to false.
    """

    code = "CFG010"
    name = "codex-network-enabled"
    reads: ClassVar[tuple[str, ...]] = ("codex-config",)
    export_hint = "export ~/.codex/config.toml and the project's .codex/config.toml"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        for doc in docs:
            for fact in doc.fact_list("network_access"):
                if fact.value is True:
                    findings.refute(doc, fact, "network_access = true")
                else:
                    findings.support(doc, fact, "network_access = false")
            for fact in doc.fact_list("sandbox_mode") + doc.fact_list("default_permissions"):
                if "danger-full-access" in str(fact.value):
                    findings.refute(doc, fact, f"{fact.value}: no sandbox, full network")
                else:
                    findings.support(doc, fact, f"{fact.key} = {fact.value!r}")
            for fact in doc.fact_list("web_search"):
                if fact.value == "live":
                    findings.refute(doc, fact, 'web_search = "live" fetches the web')
            for name, fact in doc.entries("permissions"):
                net = fact.value.get("network") if isinstance(fact.value, dict) else None
                off = isinstance(net, dict) and net.get("enabled") is False
                if net and not off:
                    at = doc.at("permissions", name, "network") or fact
                    findings.refute(doc, at, f"permission profile {name} has network rules")
                if isinstance(fact.value, dict) and fact.value.get("extends") == \
                        ":danger-full-access":
                    at = doc.at("permissions", name, "extends") or fact
                    findings.refute(doc, at, f"permission profile {name} extends "
                                             ":danger-full-access")
            for fact in doc.fact_list("mcp_server"):
                body = doc.get("mcp_servers", fact.value) or {}
                if isinstance(body, dict) and body.get("url"):
                    findings.refute(doc, fact, f"MCP server {fact.value} is remote "
                                               f"({body['url']})")
                else:
                    findings.refute(doc, fact, f"MCP server {fact.value} runs outside the "
                                               "shell sandbox and may use the network")
            for fact in doc.fact_list("approval_policy"):
                if fact.value in ("on-request", "on-failure", "untrusted"):
                    # A human can approve a command to run outside the sandbox, network
                    # included: that is not support for "runs without network".
                    findings.gap(f"{doc.path}:{fact.line}: approval_policy = {fact.value!r} "
                                 "lets a person approve a command to run outside the sandbox, "
                                 "with network; the claim holds only for commands nobody "
                                 "approved")
