"""MCP configuration in every documented format, hooks, and the tools-per-agent fact."""

from __future__ import annotations

from compliance.adapters import parse_text
from compliance.adapters.mcp import ToolCount, tools_per_agent


def _servers(doc):  # type: ignore[no-untyped-def]
    return [(f.key, f.line, f.value.name, f.value.transport, f.value.agents)
            for f in doc.fact_list("mcp")]


def test_claude_project_mcp_json_is_recognised_by_name_with_positions() -> None:
    doc = parse_text('{\n  "mcpServers": {\n    "a": {"command": "x"},\n'
                     '    "b": {"type": "http", "url": "https://h/mcp"}\n  }\n}', ".mcp.json")
    assert doc.kind == "mcp-config"
    agents = ("claude-code", "copilot")
    assert _servers(doc) == [("mcpServers.a", 3, "a", "stdio", agents),
                             ("mcpServers.b", 4, "b", "http", agents)]


def test_vscode_servers_format_and_copilot_coding_agent_format() -> None:
    vscode = parse_text('{"servers": {"m": {"type": "stdio", "command": "n"}}, "inputs": []}',
                        ".vscode/mcp.json")
    assert _servers(vscode) == [("servers.m", 1, "m", "stdio", ("vscode-copilot",))]
    agent = parse_text('{"mcpServers": {"s": {"type": "local", "command": "c", "args": [],'
                       ' "tools": ["a", "b"]}}}', "exports/copilot-mcp.json")
    assert _servers(agent) == [("mcpServers.s", 1, "s", "stdio", ("copilot",))]
    assert [f.value for f in agent.fact_list("tool-count")] == [
        ToolCount(("copilot",), 1, 2, ())]


def test_user_claude_json_with_project_servers() -> None:
    doc = parse_text('{"numStartups": 3, "mcpServers": {"u": {"command": "u"}},\n'
                     ' "projects": {"/repo": {"mcpServers": {"p": {"command": "p"}}}}}',
                     "home/.claude.json")
    assert [(k, n) for k, _l, n, _t, _a in _servers(doc)] == [
        ("mcpServers.u", "u"), ("projects./repo.mcpServers.p", "p")]


def test_codex_servers_enabled_tools_and_disabled_servers() -> None:
    doc = parse_text('[mcp_servers.a]\ncommand = "a"\nenabled_tools = ["x", "y", "z"]\n\n'
                     '[mcp_servers.b]\nurl = "https://b"\nenabled = false\n', "config.toml")
    assert [(f.value.name, f.value.enabled, f.line) for f in doc.fact_list("mcp")] == [
        ("a", True, 1), ("b", False, 5)]
    assert tools_per_agent([doc]) == {"codex": ToolCount(("codex",), 1, 3, ())}


def test_tools_per_agent_is_unknown_when_a_server_exposes_every_tool() -> None:
    a = parse_text('{"mcpServers": {"s": {"command": "c"}}}', ".mcp.json")
    b = parse_text('[mcp_servers.t]\ncommand = "t"\nenabled_tools = ["one"]\n', "config.toml")
    got = tools_per_agent([a, b])
    assert got["claude-code"] == ToolCount(("claude-code",), 1, None, ("s",))
    assert got["codex"] == ToolCount(("codex",), 1, 1, ())


def test_hooks_and_mcp_servers_in_claude_settings() -> None:
    doc = parse_text('{\n "mcpServers": {"s": {"command": "c"}},\n "hooks": {"PreToolUse": [\n'
                     '  {"matcher": "Bash", "hooks": [{"type": "command", "command": "./x"}]}]}}',
                     ".claude/settings.json")
    assert doc.kind == "claude-settings"
    assert [f.value.name for f in doc.fact_list("mcp")] == ["s"]
    [hook] = doc.fact_list("hook")
    assert (hook.value.event, hook.value.matcher, hook.value.command, hook.line) == (
        "PreToolUse", "Bash", "./x", 4)
