"""Effective Claude Code settings: precedence, merged arrays, deny first, scope-only keys."""

from __future__ import annotations

from compliance.adapters import merge_claude_settings, parse_text
from compliance.adapters.claude_settings import infer_scope

MANAGED = '{\n  "permissions": {"deny": ["Bash(curl *)"]},\n  "sandbox": {"enabled": false}\n}\n'
PROJECT = ('{\n  "permissions": {\n    "allow": ["Bash(curl *)", "Bash(npm run *)"]\n  },\n'
           '  "sandbox": {\n    "enabled": true,\n    "network": {"strictAllowlist": true,\n'
           '      "allowedDomains": ["pypi.org"]}\n  }\n}\n')
USER = '{\n  "sandbox": {"network": {"allowedDomains": ["registry.npmjs.org"]}}\n}\n'


def _docs():  # type: ignore[no-untyped-def]
    return [parse_text(USER, "~/.claude/settings.json"),
            parse_text(PROJECT, ".claude/settings.json"),
            parse_text(MANAGED, "managed-settings.json")]


def test_scope_is_inferred_from_the_file_name() -> None:
    assert [infer_scope(p) for p in (
        "evidence/managed-settings.json", "repo/.claude/settings.local.json",
        "repo/.claude/settings.json", "~/.claude/settings.json", "home/user-settings.json",
        "exports/claude.json", "etc/claude-code/managed-settings.d/10-network.json")] == [
        "managed", "local", "project", "user", "user", None, "managed"]


def test_explicit_scoped_kind_overrides_the_name() -> None:
    doc = parse_text("{}", "exports/claude.json", "claude-managed-settings")
    assert (doc.kind, doc.scope) == ("claude-settings", "managed")


def test_managed_scalar_wins_over_project() -> None:
    src = merge_claude_settings(_docs()).value("sandbox.enabled")
    assert src is not None
    assert (src.value, src.scope, src.doc.path, src.fact.line) == (
        False, "managed", "managed-settings.json", 3)


def test_arrays_merge_across_scopes_with_their_own_lines() -> None:
    items = merge_claude_settings(_docs()).array("sandbox.network.allowedDomains")
    assert [(s.value, s.doc.path, s.fact.line) for s in items] == [
        ("pypi.org", ".claude/settings.json", 8),
        ("registry.npmjs.org", "~/.claude/settings.json", 2)]


def test_deny_beats_allow() -> None:
    eff = merge_claude_settings(_docs())
    decision = eff.decide("Bash(curl https://x)")
    assert decision is not None
    assert (decision[0], decision[1].doc.path, decision[1].fact.line) == (
        "deny", "managed-settings.json", 2)
    allowed = eff.decide("Bash(npm run build)")
    assert allowed is not None and allowed[0] == "allow"
    assert eff.decide("Bash(rm -rf /)") is None


def test_strict_allowlist_in_project_scope_is_ignored_and_recorded() -> None:
    eff = merge_claude_settings(_docs())
    assert eff.value("sandbox.network.strictAllowlist") is None
    assert [(s.doc.path, s.fact.line, why) for s, why in eff.ignored] == [
        (".claude/settings.json", 7, "sandbox.network.strictAllowlist is honoured only in "
                                     "managed or user settings, not project scope")]


def test_managed_only_permission_rules_drop_other_scopes() -> None:
    managed = parse_text('{"allowManagedPermissionRulesOnly": true,\n'
                         ' "permissions": {"allow": ["Read"]}}', "managed-settings.json")
    project = parse_text(PROJECT, ".claude/settings.json")
    eff = merge_claude_settings([project, managed])
    assert [s.value for s in eff.array("permissions.allow")] == ["Read"]


def test_unknown_scope_counts_as_project_never_managed() -> None:
    doc = parse_text('{"sandbox": {"network": {"allowManagedDomainsOnly": true}}}',
                     "exports/claude.json")
    eff = merge_claude_settings([doc])
    assert doc.scope is None
    assert eff.value("sandbox.network.allowManagedDomainsOnly") is None
