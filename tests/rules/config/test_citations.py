"""A reason cites the line of the setting it speaks of, not a neighbouring key.

The new-user trial found "code-owner review is required" cited at
``required_approving_review_count`` and "excludedCommands is empty" at
``sandbox.enabled``: the positions were right, the checks passed the wrong fact.
"""

from __future__ import annotations

import json
import re
from typing import Any

from click.testing import CliRunner

from compliance.adapters.jsonpos import parse_json
from compliance.cli import cli
from tests.conftest import REPO


def _reasons() -> list[dict[str, Any]]:
    result = CliRunner().invoke(cli, ["check", str(REPO), "--format", "json"])
    out = []
    for verdict in json.loads(result.stdout)["verdicts"].values():
        for code, check in (verdict.get("checks") or {}).items():
            out += [{**r, "code": code} for r in check["reasons"]]
    return out


def test_the_trial_s_citations_point_at_the_setting() -> None:
    got = {(r["code"], r["path"], r["line"], r["key"]) for r in _reasons()
           if r["message"].startswith(("code-owner review is required", "excludedCommands"))}
    assert got == {
        ("CFG017", "evidence/github/branch-protection-main.json", 33,
         "required_pull_request_reviews.require_code_owner_reviews"),
        ("CFG017", "evidence/github/ruleset-main.json", 28,
         "rules[2].parameters.require_code_owner_review"),
        ("CFG002", "evidence/claude/managed-settings.json", 23, "sandbox.excludedCommands"),
    }


_WORD = re.compile(r"(?<![./~\w])[A-Za-z_][A-Za-z0-9_]*")  # not inside a path (".env")


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_a_reason_that_names_a_key_first_cites_that_key() -> None:
    """Over every reason the example's checks give on a JSON file: when the message's first
    word that is a key of the file is not part of the cited key path, the reason is about
    one setting and cites another."""
    keys: dict[str, set[str]] = {}
    wrong = []
    for r in _reasons():
        if not r["path"].endswith(".json") or r["key"] == "(file)":
            continue
        if r["path"] not in keys:
            text = (REPO / r["path"]).read_text(encoding="utf-8")
            data, _ = parse_json(text, r["path"], jsonc=True)
            keys[r["path"]] = _keys(data)
        named = [w for w in _WORD.findall(r["message"]) if w in keys[r["path"]]]
        cited = set(re.findall(r"\w+", r["key"]))
        if named and named[0] not in cited:
            wrong.append((r["code"], r["path"], r["line"], r["key"], r["message"]))
    assert wrong == []
