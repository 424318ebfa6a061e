"""Codex ``config.toml`` (user or trusted project) and admin ``requirements.toml``.

Facts: every profile's sandbox and approval settings are gathered so rules can
treat ``[profiles.x] sandbox_mode`` like the top-level one.
"""

from __future__ import annotations

from typing import Any

from compliance.adapters import mcp
from compliance.adapters.base import EvidenceDoc
from compliance.adapters.tomlpos import parse_toml

CONFIG_KIND = "codex-config"
REQUIREMENTS_KIND = "codex-requirements"

CONFIG_KEYS = frozenset({
    "sandbox_mode", "approval_policy", "sandbox_workspace_write", "shell_environment_policy",
    "mcp_servers", "projects", "profiles", "model", "model_provider", "web_search",
    "default_permissions", "permissions", "otel", "history", "project_doc_max_bytes",
    "project_root_markers", "model_reasoning_effort", "profile", "tools", "features",
})
REQUIREMENT_KEYS = frozenset({
    "allowed_approval_policies", "allowed_sandbox_modes", "allowed_web_search_modes",
    "allowed_permission_profiles",
})
_SCOPED = ("sandbox_mode", "approval_policy", "web_search", "default_permissions")


def looks_like_requirements(data: Any) -> bool:
    return isinstance(data, dict) and bool(REQUIREMENT_KEYS & set(data))


def looks_like_config(data: Any) -> bool:
    return isinstance(data, dict) and bool(CONFIG_KEYS & set(data))


def parse_config(text: str, display_path: str) -> EvidenceDoc:
    data, positions = parse_toml(text, display_path)
    doc = EvidenceDoc(CONFIG_KIND, display_path, data, positions)
    layers: list[tuple[str, ...]] = [()]
    layers += [("profiles", name) for name in (data.get("profiles") or {})]
    for prefix in layers:
        for key in _SCOPED:
            fact = doc.at(*prefix, key)
            if fact is not None:
                doc.add(key, fact.value, fact.line, fact.column, fact.key)
        net = doc.at(*prefix, "sandbox_workspace_write", "network_access")
        if net is not None:
            doc.add("network_access", net.value, net.line, net.column, net.key)
        for root in doc.items(*prefix, "sandbox_workspace_write", "writable_roots"):
            doc.add("writable_root", root.value, root.line, root.column, root.key)
    for name, server in doc.entries("mcp_servers"):
        doc.add("mcp_server", name, server.line, server.column, server.key)
    mcp.add_server_facts(doc, ("mcp_servers",), ("codex",))
    return doc


def parse_requirements(text: str, display_path: str) -> EvidenceDoc:
    data, positions = parse_toml(text, display_path)
    return EvidenceDoc(REQUIREMENTS_KIND, display_path, data, positions)
