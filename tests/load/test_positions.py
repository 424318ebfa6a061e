"""Offsets inside string values map back to the exact line and column in the YAML."""

from __future__ import annotations

import pytest

from compliance.load import parse_yaml

TEXT = """\
a:
  plain: The sandbox narrows blast radius.
  quoted: "We never say zero risk."
  literal: |
    First line of prose.
    Second line says fully secure.
  folded: >
    Folded text keeps
    words apart here.
  café: naïve – unicode “quotes” then target
"""


@pytest.mark.parametrize(("key", "word", "line", "column"), [
    ("plain", "blast", 2, 30),
    ("quoted", "zero", 3, 25),
    ("literal", "First", 5, 5),
    ("literal", "fully", 6, 22),
    ("folded", "words", 9, 5),
    ("folded", "here", 9, 17),
    ("café", "target", 10, 39),
])
def test_offset_to_position(key: str, word: str, line: int, column: int) -> None:
    doc = parse_yaml(TEXT, "m.yaml")
    value = doc.data["a"][key]
    pos = doc.locate_in_scalar(("a", key), value.index(word))
    assert (pos.path, pos.line, pos.column) == ("m.yaml", line, column)
    assert TEXT.splitlines()[line - 1][column - 1:].startswith(word)


def test_key_and_value_positions() -> None:
    doc = parse_yaml(TEXT, "m.yaml")
    assert str(doc.pos(("a", "quoted"), key=True)) == "m.yaml:3:3"
    assert str(doc.pos(("a", "quoted"))) == "m.yaml:3:11"
    assert str(doc.pos(("a", "missing", 3))) == "m.yaml:2:3"  # nearest ancestor: a
