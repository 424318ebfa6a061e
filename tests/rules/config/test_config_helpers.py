"""The small judgements the checks share: paths, hosts, ruleset targets, the firewall's
OUTPUT chain."""

from __future__ import annotations

import pytest

from compliance.adapters import parse_text
from compliance.rules.config import CONFIG_RULES, _firewall
from compliance.rules.config._domains import classify
from compliance.rules.config._protection import targets_default_branch
from compliance.rules.config.cfg014_credential_files_readable import _covers


@pytest.mark.parametrize(
    ("entry", "target", "covered"),
    [
        ("~/.ssh", "~/.ssh", True), ("~/", "~/.ssh", True), ("~", "~/.aws", True),
        ("~/**", "~/.aws", True), ("/Users/me/.ssh", "~/.ssh", True),
        ("//home/dev/.aws/", "~/.aws", True), ("$HOME/.ssh/**", "~/.ssh", True),
        ("~/.aws/credentials", "~/.aws", True), ("~/.aws/config", "~/.aws", False),
        ("~/.sshx", "~/.ssh", False), ("/home/dev/.ssh/id_rsa", "~/.ssh", False),
        (".env", ".env", True), ("**/.env*", ".env", True), ("./.env", ".env", True),
        ("src/.env", ".env", False),
    ],
)
def test_deny_read_entry_covers_credential_location(entry: str, target: str,
                                                    covered: bool) -> None:
    assert _covers(entry, target) is covered


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("registry.npmjs.org", "registry"), ("files.pythonhosted.org", "registry"),
        ("api.anthropic.com", "model-api"), ("bedrock-runtime.eu-west-1.amazonaws.com",
                                             "model-api"),
        ("hooks.slack.com", "write-capable"), ("sentry.io", "write-capable"),
        ("*.github.com", "write-capable"), ("statsig.anthropic.com", "other"),
        ("*", "wildcard"), ("*.com", "wildcard"), ("evilnpmjs.org", "other"),
    ],
)
def test_hosts_are_classified(host: str, kind: str) -> None:
    assert classify(host) == kind


@pytest.mark.parametrize(
    ("ruleset", "applies"),
    [
        ({"target": "branch", "conditions": {"ref_name": {"include": ["~DEFAULT_BRANCH"]}}},
         True),
        ({"conditions": {"ref_name": {"include": ["~ALL"], "exclude": ["~DEFAULT_BRANCH"]}}},
         False),
        ({"conditions": {"ref_name": {"include": ["refs/heads/ma*"]}}}, True),
        ({"conditions": {"ref_name": {"include": ["refs/heads/release/*"]}}}, False),
        ({"target": "tag", "conditions": {"ref_name": {"include": ["~ALL"]}}}, False),
        ({"name": "no conditions"}, None),
    ],
)
def test_ruleset_targets_default_branch(ruleset: dict, applies: bool | None) -> None:
    assert targets_default_branch(ruleset) is applies


FIREWALL = """#!/bin/bash
iptables -P OUTPUT DROP
ip6tables -P OUTPUT DROP
iptables -N ALLOWED
iptables -A ALLOWED -p tcp --dport 443 -d 140.82.112.0/20 -j ACCEPT
iptables -A OUTPUT -p udp --dport 53 -j ACCEPT
iptables -A OUTPUT -p tcp --dport 22 -j ACCEPT
iptables -A OUTPUT -j ALLOWED
iptables -A OUTPUT -j REJECT
ip6tables -A OUTPUT -j REJECT
"""


@pytest.mark.parametrize(("code", "refuted"), [("CFG007", False), ("CFG008", True)])
def test_each_firewall_check_walks_the_output_chain_once_per_family(
        code: str, refuted: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """CFG008 (and CFG007) walked the chain once for its ACCEPT rules and again for what
    reaches any host; one walk per family (IPv4, IPv6) now answers both."""
    walks: list[object] = []
    ordered = _firewall._ordered

    def counted(doc: object, ours: object) -> object:
        walks.append(ours)
        return ordered(doc, ours)  # type: ignore[arg-type]

    monkeypatch.setattr(_firewall, "_ordered", counted)
    verdict = CONFIG_RULES[code]().evaluate([parse_text(FIREWALL, "init-firewall.sh")])
    assert (verdict.status.value == "refuted") is refuted, verdict.message
    assert len(walks) == 2  # IPv4 and IPv6
