"""CFG027: MCP servers reach neither the network nor the home folder."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.mcp import servers_in
from compliance.rules.config._mcp import home_arg, network_arg, remote_url
from compliance.rules.config.base import ConfigRule
from compliance.rules.config.verdict import Findings


class McpServerReachesNetworkOrHome(ConfigRule):
    """Flags a local-only claim about MCP servers when one is remote or given the home folder.

    ## What it does
    For every enabled MCP server: a remote server (`type: http`/`sse`, or a
    `url` that is not localhost or a Unix socket); a URL in its arguments
    (`mcp-remote https://...`); a launcher that fetches the server from a
    registry at start (`npx`, `uvx`, ...); `docker run` without
    `--network=none`; an argument naming the home folder (`~`, `$HOME`,
    `${userHome}`, `/home/<user>`, `/Users/<user>`). A local server with none of
    these still runs with the user's rights and no sandbox, so what it reaches
    depends on its code: UNVERIFIED. A VS Code server with `sandboxEnabled` is
    bounded by its sandbox rules.

    ## Why is this bad?
    Tool calls to a remote server carry whatever the agent puts in them; a
    filesystem server over home serves `~/.ssh` and `~/.aws` to the agent,
    outside the Bash sandbox's `denyRead`.

    ## Example
    `{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem",
    "~"]}`; `{"type": "http", "url": "https://mcp.example.com/mcp"}`.

    ## Use instead
    Pinned, locally installed servers over the repository folder only, run in a
    sandbox (VS Code `sandboxEnabled`) or the session's VM; or claim the
    destinations the servers reach.

    ## Sources
    VS Code docs, "MCP configuration reference": `sandboxEnabled` restricts a
    stdio server's "file system and network access". Codex config reference:
    `[mcp_servers.<name>] url` is a streamable HTTP server.
    """

    code = "CFG027"
    name = "mcp-server-reaches-network-or-home"
    reads: ClassVar[tuple[str, ...]] = ("mcp-config", "claude-settings", "codex-config")
    export_hint = "export the MCP configuration files the agent reads"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        servers = servers_in(docs)
        for doc, s in servers:
            url, net, home = remote_url(s), network_arg(s), home_arg(s)
            if url:
                findings.refute(doc, s.keys, f"MCP server {s.name} is remote ({url}): tool "
                                             "calls and their data go over the network")
            if net:
                findings.refute(doc, (*s.keys, "args") if "http" in net else s.keys,
                                f"MCP server {s.name} reaches the network ({net})")
            if home:
                findings.refute(doc, (*s.keys, "args"), f"MCP server {s.name} is given the home "
                                                        f"folder ({home})")
            if url or net or home:
                continue
            if s.sandboxed:
                findings.support(doc, s.keys, f"MCP server {s.name} runs in VS Code's MCP "
                                              "sandbox")
            elif s.remote:
                findings.support(doc, s.keys, f"MCP server {s.name} is on this machine "
                                              f"({s.url})")
            else:
                findings.gap(f"{doc.path}: MCP server {s.name} runs `{s.command}` with the "
                             "user's rights and no sandbox; what it reaches depends on its code")
        if not servers:
            findings.gap("no enabled MCP server in the given files")
