"""Claude Code settings files (managed, CLI, local project, project, user scopes).

The scope matters: some keys are honoured only in some scopes (see
:mod:`compliance.adapters.claude_merge`). It is given by the caller (kind
``claude-managed-settings`` etc.) or inferred from the file name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from compliance.adapters import mcp
from compliance.adapters.base import EvidenceDoc, as_dict
from compliance.adapters.jsonpos import parse_json

KIND = "claude-settings"
SCOPES = ("managed", "cli", "local", "project", "user")
SCOPED_KINDS = {f"claude-{scope}-settings": scope for scope in SCOPES}

# Top-level keys of the settings reference; two of them make a file "look like" settings.
KNOWN_KEYS = frozenset({
    "permissions", "sandbox", "env", "hooks", "model", "cleanupPeriodDays", "apiKeyHelper",
    "allowManagedPermissionRulesOnly", "allowManagedHooksOnly", "strictKnownMarketplaces",
    "enableAllProjectMcpServers", "enabledMcpjsonServers", "disabledMcpjsonServers",
    "includeCoAuthoredBy", "forceLoginMethod", "statusLine", "outputStyle", "enabledPlugins",
    "extraKnownMarketplaces", "disableAllHooks", "awsAuthRefresh", "otelHeadersHelper",
    "companyAnnouncements", "allowedMcpServers", "deniedMcpServers", "defaultMode",
    "mcpServers", "allowManagedMcpServersOnly",
})


def infer_scope(display_path: str) -> str | None:
    """The settings scope named by a path, or None when the name does not say."""
    p = display_path.replace("\\", "/")
    name = PurePosixPath(p).name
    if "managed-settings" in name or "/managed-settings.d/" in f"/{p}":
        return "managed"
    if name.endswith("settings.local.json"):
        return "local"
    if p.startswith("~/.claude/") or "/home/" in p or "user-settings" in name:
        return "user"
    if p.endswith(".claude/settings.json") or name == "settings.json":
        return "project"
    if "cli-settings" in name:
        return "cli"
    return None


#: Keys generic enough to appear in other JSON files; they alone do not make settings.
_WEAK_KEYS = frozenset({"env", "model", "defaultMode", "outputStyle", "statusLine"})
_PERMISSION_KEYS = frozenset({"allow", "ask", "deny", "defaultMode", "additionalDirectories",
                              "disableBypassPermissionsMode"})


def named_like(display_path: str) -> bool:
    """Names only Claude Code gives its settings files (a bare settings.json is not one)."""
    p = display_path.replace("\\", "/")
    name = PurePosixPath(p).name
    return name.endswith("managed-settings.json") or (
        "/managed-settings.d/" in f"/{p}" and name.endswith(".json")) or (
        name in ("settings.json", "settings.local.json") and ".claude/" in p)


def looks_like(data: Any) -> bool:
    """True for JSON that can only be Claude Code settings (never a guess on generic keys)."""
    if not isinstance(data, dict):
        return False
    if "claude-code-settings" in str(data.get("$schema", "")):
        return True
    strong = (KNOWN_KEYS - _WEAK_KEYS) & set(data)
    permissions = data.get("permissions", {})
    sandbox = data.get("sandbox", {})
    return bool(strong) and isinstance(permissions, dict) and isinstance(sandbox, dict) and (
        "permissions" not in data or bool(_PERMISSION_KEYS & set(permissions))
        or not permissions)


def parse(text: str, display_path: str, scope: str | None = None) -> EvidenceDoc:
    data, positions = parse_json(text, display_path)
    return build(data, positions, display_path, scope)


def build(data: Any, positions: dict, display_path: str, scope: str | None) -> EvidenceDoc:
    doc = EvidenceDoc(KIND, display_path, data, positions,
                      scope=scope or infer_scope(display_path))
    if isinstance(data, dict):
        for name in ("allow", "ask", "deny"):
            for fact in doc.items("permissions", name):
                doc.add(f"permission.{name}", fact.value, fact.line, fact.column, fact.key)
        mode = doc.at("permissions", "defaultMode")
        if mode is not None:
            doc.add("defaultMode", mode.value, mode.line, mode.column, mode.key)
        if "mcpServers" in data:
            mcp.add_server_facts(doc, ("mcpServers",), ("claude-code",))
        add_hook_facts(doc)
    return doc


@dataclass(frozen=True, slots=True)
class Hook:
    """One configured hook: the event, its matcher, and what it runs.

    Settings say ``hooks: {Event: [{matcher, hooks: [{type, command, url, timeout}]}]}``;
    ``type`` is ``command`` (a shell command), ``http`` (a POST to ``url``), or
    ``prompt``/``agent`` (a model call). Command hooks run outside the Bash sandbox.
    """

    event: str
    matcher: str
    type: str
    command: str
    url: str


def add_hook_facts(doc: EvidenceDoc) -> None:
    """A ``hook`` fact per configured hook, at its entry in the file."""
    for event, _groups in doc.entries("hooks"):
        for g, group in doc.entries("hooks", event):
            matcher = str(as_dict(group.value).get("matcher") or "*")
            for h, entry in doc.entries("hooks", event, g, "hooks"):
                body = as_dict(entry.value)
                hook = Hook(str(event), matcher, str(body.get("type") or "command"),
                            str(body.get("command") or ""), str(body.get("url") or ""))
                doc.add_at("hook", hook, "hooks", event, g, "hooks", h)
