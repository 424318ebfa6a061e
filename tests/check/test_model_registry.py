"""Model rules: every rule has a page with every section, codes are unique per family."""

from __future__ import annotations

import inspect
import re

import pytest

from compliance.rules.base import DOC_SECTIONS, Rule
from compliance.rules.model import MODEL_RULES
from compliance.rules.registry import ALL_RULES, LOADER_CODES

PREFIX = {"limits": "LIM", "layers": "GAP", "evidence": "EVD", "waivers": ("WVR", "SUP"),
          "placeholders": "INI", "disclosures": "DSC", "audience": "AUD"}


@pytest.mark.parametrize(("code", "rule"), sorted(MODEL_RULES.items()))
def test_rule_page_has_every_section(code: str, rule: type[Rule]) -> None:
    doc = inspect.getdoc(rule) or ""
    headings = re.findall(r"^## (.+)$", doc, flags=re.M)
    assert headings == list(DOC_SECTIONS)
    assert code == rule.code and code.startswith(PREFIX[rule.family])
    assert rule.name == rule.name.lower() and " " not in rule.name


def test_evidence_and_waiver_codes_are_consecutive() -> None:
    for prefix, last in (("EVD", 6), ("WVR", 4)):
        assert sorted(c for c in MODEL_RULES if c.startswith(prefix)) == [
            f"{prefix}{n:03d}" for n in range(1, last + 1)]


def test_loader_codes_do_not_clash_with_rules() -> None:
    assert not set(LOADER_CODES) & set(ALL_RULES)
    names = [n for n, _ in LOADER_CODES.values()] + [r.name for r in ALL_RULES.values()]
    assert len(names) == len(set(names))
