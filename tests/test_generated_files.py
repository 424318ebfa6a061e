"""Committed JSON Schemas match the models; refresh with `compliance schema --write`."""

from __future__ import annotations

import pytest

from compliance.schema import HERE, SCHEMAS, render


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schema_is_current(name: str) -> None:
    committed = (HERE / name).read_text(encoding="utf-8")
    assert committed == render(SCHEMAS[name]), (
        f"compliance/schema/{name} is stale: run `compliance schema --write` and commit it")
