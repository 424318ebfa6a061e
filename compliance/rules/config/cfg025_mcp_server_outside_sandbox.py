"""CFG025: the agent's tools run inside the sandbox (and behind its egress controls)."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc, as_dict
from compliance.adapters.claude_merge import Effective, merge_claude_settings, scope_of
from compliance.adapters.mcp import McpServer, describe, servers_in
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings

#: What each agent's MCP servers run outside of, in the vendors' words.
OUTSIDE = {
    "claude-code": "Claude Code's Bash sandbox (it covers Bash only)",
    "copilot": "the Copilot agent firewall (it does not apply to MCP servers)",
    "vscode-copilot": "any sandbox (sandboxEnabled is not set)",
    "codex": "the Codex shell sandbox",
}


class McpServerOutsideSandbox(ConfigRule):
    """Flags a claim that the sandbox covers the agent's tools when an MCP server or hook is set.

    ## What it does
    Reads MCP configuration (`.mcp.json`, `.vscode/mcp.json`, `managed-mcp.json`,
    `~/.claude.json`, the Copilot repository MCP JSON, `mcpServers` in Claude Code
    settings, Codex `[mcp_servers.*]`) and Claude Code hooks. Every enabled MCP
    server refutes the claim, and so does every command or http hook that is
    honoured (not dropped by managed `allowManagedHooksOnly` or `disableAllHooks`).
    The claim is VERIFIED only when managed Claude Code settings set
    `allowedMcpServers: []` (no MCP server may run) and no hook is honoured;
    otherwise servers could come from files not given (user scope, the Copilot
    repository setting), so the verdict is UNVERIFIED.

    ## Why is this bad?
    An MCP server is a separate process (or a remote service) the agent calls as
    a tool. Claude Code's sandbox "only applies to the Bash tool"; the Copilot
    firewall "does not apply to Model Context Protocol (MCP) servers"; a Codex
    MCP server is started outside the shell sandbox. A hook command runs with
    the user's rights on the agent's events. A claim that the sandbox or the
    allowlist bounds what the agent can do is false while any of these run.

    ## Example
    `.mcp.json`: `{"mcpServers": {"fs": {"command": "npx", "args": ["-y",
    "@modelcontextprotocol/server-filesystem", "/home/dev"]}}}`.

    ## Use instead
    Claim what holds ("Bash commands run in the OS sandbox; the MCP servers
    `docs` and `issues` run outside it with the rights of the user"), or block
    MCP servers in managed settings (`allowedMcpServers: []`).

    ## Sources
    anthropics/claude-code `examples/settings/README.md`: the `sandbox` property
    "only applies to the `Bash` tool; it does not apply to other tools (like Read,
    Write, WebSearch, WebFetch, MCPs), hooks, or internal commands". GitHub,
    "Customizing or disabling the firewall for GitHub Copilot coding agent".
    """

    code = "CFG025"
    name = "mcp-server-outside-sandbox"
    reads: ClassVar[tuple[str, ...]] = ("mcp-config", "claude-settings", "codex-config")
    export_hint = ("export every MCP configuration the agent reads (.mcp.json, "
                   ".vscode/mcp.json, ~/.claude.json, Codex config.toml, the Copilot "
                   "repository MCP JSON) and the managed Claude Code settings")

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        claude = of_kind(docs, "claude-settings")
        eff = merge_claude_settings(claude) if claude else None
        locked = self._lockdown(eff, findings)
        for doc, server in servers_in(docs):
            if "claude-code" in server.agents and self._blocked(eff, locked, server):
                findings.support(doc, server.keys, f"MCP server {server.name} is not allowed by "
                                                   "managed settings")
                continue
            if server.sandboxed:
                findings.support(doc, server.keys, f"MCP server {server.name} runs in VS Code's "
                                                   "MCP sandbox (sandboxEnabled)")
                continue
            outside = " and ".join(OUTSIDE[a] for a in server.agents if a in OUTSIDE)
            findings.refute(doc, server.keys, f"MCP server {server.name} ({describe(server)}) "
                                              f"runs outside {outside}")
        if eff is not None:
            self._hooks(eff, findings)
        if not locked:
            findings.gap("MCP servers can also be configured in files not given (user scope "
                         "~/.claude.json, ~/.codex/config.toml, the Copilot repository "
                         "setting); only managed allowedMcpServers: [] rules them out")

    @staticmethod
    def _lockdown(eff: Effective | None, findings: Findings) -> bool:
        if eff is None:
            return False
        allowed = eff.value("allowedMcpServers")
        if allowed is not None and allowed.scope == "managed" and allowed.value == []:
            findings.support(allowed.doc, allowed.fact, "managed allowedMcpServers is empty: "
                                                        "no MCP server may run")
            return True
        return False

    @staticmethod
    def _blocked(eff: Effective | None, locked: bool, server: McpServer) -> bool:
        if locked:
            return True
        if eff is None:
            return False
        denied = {str(as_dict(d.value).get("serverName", "")) for d in
                  eff.array("deniedMcpServers") if d.scope == "managed"}
        disabled = {str(d.value) for d in eff.array("disabledMcpjsonServers")}
        return server.name in denied or server.name in disabled

    @staticmethod
    def _hooks(eff: Effective, findings: Findings) -> None:
        off = eff.value("disableAllHooks")
        if off is not None and off.value is True:
            return
        managed_only = any(scope_of(d) == "managed" and d.get("allowManagedHooksOnly") is True
                           for d in eff.docs)
        for doc in eff.docs:
            if managed_only and scope_of(doc) != "managed":
                continue
            for fact in doc.fact_list("hook"):
                hook = fact.value
                if hook.type == "command":
                    findings.refute(doc, fact, f"{hook.event} hook runs `{hook.command}` outside "
                                               "the Bash sandbox with the user's rights")
                elif hook.type == "http":
                    findings.refute(doc, fact, f"{hook.event} hook posts the agent's tool data "
                                               f"to {hook.url}, outside the sandbox")

