"""Every configuration check over its cases file: exact verdict and exact refuting lines.

Cases live in tests/fixtures/config/cases/<CODE>.yml: each case names evidence
files (display path -> content, recognised by name and content like real
evidence), the expected status and, for refuted cases, every refuting reason as
``path:line key`` in order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from compliance.adapters import parse_text
from compliance.rules.config import CONFIG_RULES, Status

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "config" / "cases"


def _load(code: str) -> list[dict[str, Any]]:
    return YAML(typ="safe").load((CASES / f"{code}.yml").read_text(encoding="utf-8"))


def _all_cases() -> list[Any]:
    out = []
    for path in sorted(CASES.glob("CFG*.yml")):
        for case in _load(path.stem):
            out.append(pytest.param(path.stem, case, id=f"{path.stem}-{case['name']}"))
    return out


@pytest.mark.parametrize(("code", "case"), _all_cases())
def test_case(code: str, case: dict[str, Any]) -> None:
    docs = [parse_text(text, name, case.get("kinds", {}).get(name))
            for name, text in case["files"].items()]
    verdict = CONFIG_RULES[code]().evaluate(docs)
    assert verdict.status == Status(case["status"]), verdict.message
    got = [f"{r.path}:{r.line} {r.key}" for r in verdict.refuting]
    assert got == case.get("refuting", [])
    if "message" in case:
        assert case["message"] in verdict.message


@pytest.mark.parametrize("code", sorted(CONFIG_RULES))
def test_every_check_has_a_refuted_and_a_non_refuted_case(code: str) -> None:
    statuses = {case["status"] for case in _load(code)}
    assert "refuted" in statuses
    assert statuses & {"verified", "unverified"}
