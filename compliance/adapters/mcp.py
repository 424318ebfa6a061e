"""MCP server configuration, in every format an agent reads it from, as one fact shape.

Formats (as each vendor documents them):

- Claude Code ``.mcp.json`` (project scope), ``managed-mcp.json`` and ``~/.claude.json``
  (user scope, plus ``projects.<path>.mcpServers``): a top-level ``mcpServers`` object,
  each server ``{"type": "stdio"|"http"|"sse", "command", "args", "env", "url",
  "headers"}`` (``type`` defaults to stdio). ``${VAR}`` and ``${VAR:-default}`` expand
  in command, args, env, url and headers. The same ``.mcp.json`` at a repository root
  is the portable format Copilot reads.
- VS Code / Copilot ``.vscode/mcp.json``: a top-level ``servers`` object (plus
  ``inputs``); ``type`` is required; stdio servers may set ``envFile`` and
  ``sandboxEnabled`` with a ``sandbox`` of filesystem/network rules.
- Copilot coding agent, the repository setting's JSON (exported by hand): ``mcpServers``
  whose servers carry a required ``tools`` list (``"*"`` enables every tool) and
  ``type`` ``local``/``stdio``/``http``/``sse``; secrets come from ``COPILOT_MCP_*``.
- Codex ``[mcp_servers.<name>]`` in config.toml (read by :mod:`compliance.adapters.codex`
  through :func:`add_server_facts`): ``command``, ``args``, ``env``, ``env_vars``,
  ``url``, ``bearer_token_env_var``, ``http_headers``, ``env_http_headers``,
  ``enabled``, ``enabled_tools``, ``disabled_tools``.

Every server becomes one ``mcp`` fact (value: :class:`McpServer`) at its key, and
every file one ``tool-count`` fact (value: :class:`ToolCount`): how many servers the
agent gets and how many tools they expose, or None when a server exposes every tool
it has (the count is then not knowable from configuration).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from compliance.adapters.base import EvidenceDoc, KeyPath, as_dict, as_list
from compliance.adapters.jsonpos import parse_json

KIND = "mcp-config"

#: File names only MCP configuration uses.
FILE_NAMES = frozenset({".mcp.json", "mcp.json", "managed-mcp.json", "mcp-config.json",
                        ".claude.json"})
_SERVER_KEYS = frozenset({"command", "args", "env", "url", "type", "headers", "tools",
                          "envFile", "sandboxEnabled", "transport"})
_TOP_KEYS = frozenset({"mcpServers", "servers", "inputs", "$schema"})


@dataclass(frozen=True, slots=True)
class McpServer:
    """One configured MCP server, normalised across formats.

    ``transport`` is ``stdio`` (a local process), ``http`` or ``sse`` (remote);
    ``tools`` is the list of enabled tools, or None when every tool is enabled
    (no list, or ``"*"`` in it); ``keys`` is the server's key path in the file.
    """

    name: str
    agents: tuple[str, ...]
    transport: str
    command: str
    args: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    url: str
    headers: tuple[tuple[str, str], ...]
    tools: tuple[str, ...] | None
    enabled: bool
    sandboxed: bool
    keys: KeyPath
    forwarded: tuple[str, ...] = ()
    env_file: str = ""

    @property
    def remote(self) -> bool:
        return self.transport in ("http", "sse")


@dataclass(frozen=True, slots=True)
class ToolCount:
    """The tools one agent gets from one file's MCP servers."""

    agents: tuple[str, ...]
    servers: int
    tools: int | None
    unbounded: tuple[str, ...]


def named_like(display_path: str) -> bool:
    return PurePosixPath(display_path.replace("\\", "/")).name in FILE_NAMES


def looks_like(data: Any) -> bool:
    """JSON whose top level is only MCP keys, with at least one server-shaped entry."""
    if not isinstance(data, dict) or not data or not set(data) <= _TOP_KEYS:
        return False
    servers = data.get("mcpServers", data.get("servers"))
    return isinstance(servers, dict) and (not servers or any(
        isinstance(s, dict) and _SERVER_KEYS & set(s) for s in servers.values()))


def agents_for(display_path: str, data: Any) -> tuple[str, ...]:
    """Which agents read a file, from its name and shape."""
    p = display_path.replace("\\", "/")
    name = PurePosixPath(p).name
    if name == "mcp.json" and ".vscode/" in f"/{p}":
        return ("vscode-copilot",)
    servers = as_dict(as_dict(data).get("mcpServers"))
    if servers and all(isinstance(s, dict) and "tools" in s for s in servers.values()):
        return ("copilot",)
    if name in ("managed-mcp.json", ".claude.json"):
        return ("claude-code",)
    if name == "mcp-config.json":
        return ("copilot",)
    if "servers" in as_dict(data) and "mcpServers" not in as_dict(data):
        return ("vscode-copilot",)
    return ("claude-code", "copilot")


def parse(text: str, display_path: str) -> EvidenceDoc:
    data, positions = parse_json(text, display_path, jsonc=True)
    doc = EvidenceDoc(KIND, display_path, data, positions)
    agents = agents_for(display_path, data)
    top = as_dict(data)
    base = "servers" if "servers" in top and "mcpServers" not in top else "mcpServers"
    add_server_facts(doc, (base,), agents)
    for project, _fact in doc.entries("projects"):
        add_server_facts(doc, ("projects", project, "mcpServers"), agents, count=False)
    return doc


def add_server_facts(doc: EvidenceDoc, base: KeyPath, agents: tuple[str, ...],
                     count: bool = True) -> None:
    """Add an ``mcp`` fact per server under ``base`` and one ``tool-count`` fact."""
    servers = [server(doc, (*base, name), agents) for name, _f in doc.entries(*base)]
    for s in servers:
        doc.add_at("mcp", s, *s.keys)
    enabled = [s for s in servers if s.enabled]
    if count and (enabled or doc.has(*base)):
        unbounded = tuple(s.name for s in enabled if s.tools is None)
        tools = None if unbounded else sum(len(s.tools or ()) for s in enabled)
        doc.add_at("tool-count", ToolCount(agents, len(enabled), tools, unbounded), *base)


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in as_list(value))


def _pairs(value: Any) -> tuple[tuple[str, str], ...]:
    return tuple((str(k), str(v)) for k, v in as_dict(value).items())


def server(doc: EvidenceDoc, keys: KeyPath, agents: tuple[str, ...]) -> McpServer:
    """One server entry as an :class:`McpServer` (any of the documented formats)."""
    body = as_dict(doc.get(*keys))
    url = str(body.get("url") or "")
    declared = str(body.get("type") or body.get("transport") or "").lower()
    transport = ("stdio" if declared in ("local", "stdio") else declared if declared in (
        "http", "sse", "streamable-http") else "http" if url else "stdio")
    transport = "http" if transport == "streamable-http" else transport
    tools: tuple[str, ...] | None
    if "tools" in body:
        listed = _strings(body.get("tools"))
        tools = None if "*" in listed else listed
    elif "enabled_tools" in body:
        tools = _strings(body.get("enabled_tools"))
    else:
        tools = None
    headers = _pairs(body.get("headers")) + _pairs(body.get("http_headers"))
    forwarded = _strings(body.get("env_vars")) + tuple(
        str(v) for v in as_dict(body.get("env_http_headers")).values())
    if body.get("bearer_token_env_var"):
        forwarded += (str(body["bearer_token_env_var"]),)
    return McpServer(
        name=str(keys[-1]), agents=agents, transport=transport,
        command=str(body.get("command") or ""), args=_strings(body.get("args")),
        env=_pairs(body.get("env")), url=url, headers=headers, tools=tools,
        enabled=body.get("enabled", True) is not False and body.get("disabled") is not True,
        sandboxed=body.get("sandboxEnabled") is True, keys=keys, forwarded=forwarded,
        env_file=str(body.get("envFile") or ""))


def servers_in(docs: list[EvidenceDoc]) -> list[tuple[EvidenceDoc, McpServer]]:
    """Every enabled MCP server in the given files, with the file it is in."""
    return [(d, f.value) for d in docs for f in d.fact_list("mcp") if f.value.enabled]


def tools_per_agent(docs: list[EvidenceDoc]) -> dict[str, ToolCount]:
    """Per agent, the MCP servers and tools configured across the given files.

    ``tools`` is None when any server exposes every tool it has (unknowable from
    configuration); a caller reports that as unmeasured, never as zero.
    """
    out: dict[str, ToolCount] = {}
    for doc in docs:
        for fact in doc.fact_list("tool-count"):
            count: ToolCount = fact.value
            for agent in count.agents:
                prev = out.get(agent, ToolCount((agent,), 0, 0, ()))
                tools = (None if prev.tools is None or count.tools is None
                         else prev.tools + count.tools)
                out[agent] = ToolCount((agent,), prev.servers + count.servers, tools,
                                       prev.unbounded + count.unbounded)
    return out


def env_key(s: McpServer, name: str) -> KeyPath:
    """The key path of one ``env`` entry of a server."""
    return (*s.keys, "env", name)


def describe(s: McpServer) -> str:
    """A server in a few words, for messages: ``stdio npx -y pkg`` or ``http https://...``."""
    if s.remote:
        return f"{s.transport} {s.url}"
    return " ".join(["stdio", s.command, *s.args[:3]]).strip()


__all__ = ["FILE_NAMES", "KIND", "McpServer", "ToolCount", "add_server_facts", "describe",
           "env_key", "looks_like", "named_like", "parse", "server", "servers_in",
           "tools_per_agent"]
