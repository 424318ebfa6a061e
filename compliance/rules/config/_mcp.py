"""What the MCP checks look for in a server's launch: secrets, network, the home folder."""

from __future__ import annotations

import re

from compliance.adapters.mcp import McpServer
from compliance.rules.config._secrets import is_secret_name

#: ``${VAR}``, ``${VAR:-default}`` (Claude Code, Copilot) and ``$VAR`` (Copilot) references.
ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)")
#: VS Code ``${input:id}`` prompts for the value and stores it.
INPUT_REF = re.compile(r"\$\{input:([^}]+)\}")
#: Hosts that stay on the machine.
LOCAL_HOST = re.compile(r"^[a-z+]+://(localhost|127\.[0-9.]+|\[::1\]|0\.0\.0\.0)(:\d+)?(/|$)"
                        r"|^unix://|^pipe://", re.I)
#: Home written as people write it in args: ~, $HOME, ${HOME}, ${userHome}, /home/x, /Users/x.
HOME_PATH = re.compile(r"(^|[=:\s])(~(/|$)|\$\{?HOME\}?|\$\{userHome\}|/home/[^/\s]+|"
                       r"/Users/[^/\s]+|/root(/|$))")
#: Launchers that fetch the server's code from a registry when it starts.
FETCHING_LAUNCHERS = frozenset({"npx", "uvx", "bunx", "pnpx", "dlx"})
URL = re.compile(r"\bhttps?://[^\s\"']+")


def secret_refs(value: str) -> list[str]:
    """Secret-named variables a value refers to (``${GITHUB_TOKEN}``, ``$COPILOT_MCP_KEY``)."""
    names = [a or b for a, b in ENV_REF.findall(value)]
    return [n for n in names if is_secret_name(n)]


def literal_secret(name: str, value: str) -> bool:
    """A secret-named entry whose value is written in the file (not a reference)."""
    return (is_secret_name(name) and bool(value.strip()) and not ENV_REF.search(value)
            and not INPUT_REF.search(value))


def remote_url(s: McpServer) -> str | None:
    """The server's URL when it is off the machine."""
    return s.url if s.remote and s.url and not LOCAL_HOST.match(s.url) else None


def home_arg(s: McpServer) -> str | None:
    """The first argument that names the home folder (a filesystem server over $HOME)."""
    return next((a for a in s.args if HOME_PATH.search(a)), None)


def network_arg(s: McpServer) -> str | None:
    """A URL the server is told to reach, or the registry its launcher fetches it from."""
    for a in s.args:
        m = URL.search(a)
        if m and not LOCAL_HOST.match(m.group(0)):
            return m.group(0)
    launcher = s.command.rsplit("/", 1)[-1]
    if launcher in FETCHING_LAUNCHERS:
        return f"{launcher} downloads the server from a package registry at start"
    if launcher in ("docker", "podman") and "run" in s.args and not any(
            a in ("--network=none", "--net=none") for a in s.args) and not _net_none(s.args):
        return f"{launcher} run without --network=none"
    return None


def _net_none(args: tuple[str, ...]) -> bool:
    return any(a in ("--network", "--net") and args[i + 1:i + 2] == ("none",)
               for i, a in enumerate(args))
