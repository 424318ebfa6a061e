"""The small judgements the checks share: paths, hosts, ruleset targets."""

from __future__ import annotations

import pytest

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
