"""Practice rules (TTX001-TTX003) and practice files, from fixtures/practice/cases.yaml."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from compliance.pipeline import load_and_check
from tests.workspaces import minimal

CASES: list[dict[str, Any]] = YAML(typ="safe").load(
    (Path(__file__).parent.parent / "fixtures/practice/cases.yaml").read_text(encoding="utf-8"))
CODES = ("TTX", "REF", "SCH", "YML")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case: dict[str, Any], tmp_path: Path) -> None:
    files = {k.replace("/", "__"): v for k, v in case["files"].items()}
    ws = minimal(tmp_path, **files)
    today = case.get("today", dt.date(2026, 11, 30))
    checked = load_and_check(ws, today)
    found = [f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}"
             for d in checked.result.findings if d.code.startswith(CODES)]
    assert found == case["found"]


def test_cases_cover_every_practice_rule() -> None:
    from compliance.rules.practice import PRACTICE_RULES

    text = " ".join(f for c in CASES for f in c["found"])
    here = Path(__file__).parent
    elsewhere = {"MET": (here / "test_metrics.py").read_text(encoding="utf-8"),
                 "DRL": (here / "test_drills.py").read_text(encoding="utf-8")}
    for code in PRACTICE_RULES:  # metrics and drills are tested on copies of the example
        assert f" {code} " in (text if code.startswith("TTX") else elsewhere[code[:3]]), code


def test_a_workspace_scenario_replaces_the_builtin_one(tmp_path: Path) -> None:
    ws = minimal(tmp_path, scenarios__mine="")
    (ws / "scenarios/mine").unlink()
    (ws / "scenarios/mine.yaml").write_text(
        "scenarios:\n  - id: readme-injection\n    title: Ours\n    summary: Short.\n"
        "    steps:\n      - {id: a, action: b, needs: [escape-isolation]}\n")
    checked = load_and_check(ws, dt.date(2026, 11, 30))
    ours = [s for s in checked.workspace.model.scenarios if s.id == "readme-injection"]
    assert [s.title for s in ours] == ["Ours"]


def test_every_practice_rule_has_a_page_with_every_section() -> None:
    import inspect
    import re

    from compliance.rules.base import DOC_SECTIONS
    from compliance.rules.practice import PRACTICE_RULES

    for code, rule in PRACTICE_RULES.items():
        headings = re.findall(r"^## (.+)$", inspect.getdoc(rule) or "", flags=re.M)
        assert headings == list(DOC_SECTIONS), code
        assert code == rule.code and code.startswith(("TTX", "MET", "DRL"))
        assert rule.family == "practice"
