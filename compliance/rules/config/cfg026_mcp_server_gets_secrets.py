"""CFG026: MCP servers are started without long-lived secrets."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.mcp import env_key, servers_in
from compliance.rules.config._mcp import literal_secret, secret_refs
from compliance.rules.config._secrets import is_secret_name
from compliance.rules.config.base import ConfigRule
from compliance.rules.config.verdict import Findings

_AUTH_HEADERS = frozenset({"authorization", "proxy-authorization", "x-api-key", "api-key"})


class McpServerGetsSecrets(ConfigRule):
    """Flags a no-secrets claim about MCP servers when one is started with a secret.

    ## What it does
    For every enabled MCP server in the cited configuration: an `env` entry
    named like a secret (`*_TOKEN`, `*_API_KEY`, ...) or referring to one
    (`${GITHUB_TOKEN}`, `$COPILOT_MCP_SENTRY_TOKEN`); a secret written into the
    file itself; an `Authorization` or key header; Codex `env_vars`,
    `bearer_token_env_var` and `env_http_headers` naming a secret. A VS Code
    `envFile` loads variables no given file shows: UNVERIFIED.

    ## Why is this bad?
    An MCP server runs outside the agent's sandbox with whatever it was given;
    the agent drives it through tool calls, so an injected instruction can use
    the token through the server. A secret written in `.mcp.json` is also in
    the repository for anyone who can read it.

    ## Example
    `"env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}` in `.mcp.json`.

    ## Use instead
    Servers that need no credential, or a short-lived, narrowly scoped token per
    session issued outside the agent's reach; claim what the server can do with it.

    ## Sources
    GitHub, "Extending Copilot coding agent with MCP": servers get secrets from the
    `copilot` environment as `COPILOT_MCP_*`, and Copilot uses their tools
    "autonomously". Claude Code docs, "Connect Claude Code to tools via MCP":
    `${VAR}` expands in `command`, `args`, `env`, `url` and `headers`.
    """

    code = "CFG026"
    name = "mcp-server-gets-secrets"
    reads: ClassVar[tuple[str, ...]] = ("mcp-config", "claude-settings", "codex-config")
    export_hint = "export the MCP configuration files the agent reads"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        servers = servers_in(docs)
        for doc, s in servers:
            bad = False
            for name, value in s.env:
                if literal_secret(name, value):
                    findings.refute(doc, env_key(s, name), f"secret {name} of MCP server {s.name} "
                                                           "is written in the file itself")
                    bad = True
                elif is_secret_name(name) or secret_refs(value):
                    refs = ", ".join(secret_refs(value)) or value
                    findings.refute(doc, env_key(s, name), f"MCP server {s.name} is started with "
                                                           f"{name} from {refs}")
                    bad = True
            for header, value in s.headers:
                if header.lower() in _AUTH_HEADERS or is_secret_name(header) or \
                        secret_refs(value):
                    where = "written in the file" if literal_secret("TOKEN", value) else (
                        f"from {', '.join(secret_refs(value)) or 'a variable'}")
                    findings.refute(doc, (*s.keys, "headers", header),
                                    f"header {header} of MCP server {s.name} carries a "
                                    f"credential ({where})")
                    bad = True
            for var in s.forwarded:
                if is_secret_name(var):
                    findings.refute(doc, s.keys, f"MCP server {s.name} is given {var} from the "
                                                 "agent's environment")
                    bad = True
            if s.env_file:
                findings.gap(f"{doc.path}: MCP server {s.name} loads variables from "
                             f"{s.env_file}, which is not in the evidence")
            if not bad:
                findings.support(doc, s.keys, f"MCP server {s.name} is given no secret")
        if not servers:
            findings.gap("no enabled MCP server in the given files")
