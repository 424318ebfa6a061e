"""The registry, the pages and the kind -> checks mapping of the configuration checks."""

from __future__ import annotations

import inspect

import pytest

from compliance.adapters import KINDS
from compliance.rules.base import DOC_SECTIONS
from compliance.rules.config import CONFIG_RULES, KIND_CHECKS, checks_for_kind


def test_codes_are_cfg001_to_cfg027_in_order() -> None:
    assert list(CONFIG_RULES) == [f"CFG{n:03d}" for n in range(1, 28)]


def test_names_are_unique_and_name_the_flagged_pattern() -> None:
    names = [rule.name for rule in CONFIG_RULES.values()]
    assert len(set(names)) == 27
    assert all(name == name.lower() and " " not in name for name in names)


@pytest.mark.parametrize("code", sorted(CONFIG_RULES))
def test_page_has_every_section_and_reads_known_kinds(code: str) -> None:
    rule = CONFIG_RULES[code]
    doc = inspect.getdoc(rule) or ""
    for section in DOC_SECTIONS:
        assert f"\n## {section}\n" in doc, f"{code} page lacks ## {section}"
    assert rule.family == "config"
    assert rule.reads and set(rule.reads) <= set(KINDS)
    assert rule.export_hint


def test_kind_mapping_points_at_registered_checks() -> None:
    assert all(set(codes) <= set(CONFIG_RULES) for codes in KIND_CHECKS.values())
    covered = {code for codes in KIND_CHECKS.values() for code in codes}
    assert covered == set(CONFIG_RULES)
    assert checks_for_kind("os-sandbox") == ["CFG001", "CFG002"]
    assert checks_for_kind("egress-default-deny") == ["CFG007"]
    assert checks_for_kind("no-such-kind") == []
