"""The positional JSON parser reads what ``json`` reads, and every position it keeps is
where that key or item starts in the text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.adapters.base import EvidenceError
from compliance.adapters.jsonpos import parse_json
from tests.conftest import REPO

_SCALARS = (st.none() | st.booleans() | st.integers(-10**12, 10**12)
            | st.text(st.characters(blacklist_categories=("Cs",)), max_size=30))
_VALUES = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=25)


def _offset(text: str, line: int, column: int) -> int:
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    return starts[line - 1] + column - 1


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


@settings(max_examples=300, derandomize=True, database=None)
@given(_VALUES, st.sampled_from([None, 0, 2]), st.booleans())
def test_reads_what_json_reads_and_positions_point_at_their_text(
        value: Any, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    data, positions = parse_json(text, "x.json")
    assert data == json.loads(text)
    for path, (line, column) in positions.items():
        at = _offset(text, line, column)
        if path and isinstance(_at(data, path[:-1]), dict):  # a key: its quoted text
            assert json.loads(text[at:at + len(json.dumps(path[-1], ensure_ascii=ascii_only))]
                              ) == path[-1]
        else:  # an item or the document: its value starts there
            decoded, _end = json.JSONDecoder().raw_decode(text, at)
            assert decoded == _at(data, path)


@pytest.mark.parametrize(("text", "where"), [
    ('{"a": "b\nc"}', "1:7"), ('["ab', "1:2"), ('{"a": "\\q"}', "1:8"), ('"x\\u12"', "1:3")])
def test_a_bad_string_is_an_error_at_its_position(text: str, where: str) -> None:
    with pytest.raises(EvidenceError) as err:
        parse_json(text, "x.json")
    assert f"x.json:{where}:" in str(err.value)


_NESTED = (
    '{\n'
    '  "a": [1, [2, 3], {"x": "]}"}],\n'
    '  "b": {\n'
    '    "say": "he said \\"{\\" and \\\\",\n'
    '    "c": {"d": [], "e": {}},\n'
    '    "f": true\n'
    '  },\n'
    '  "g": [\n'
    '    {"h": 1},\n'
    '    "i"\n'
    '  ],\n'
    '  "j": null\n'
    '}\n'
)
_WHERE = {
    ("a",): (2, 3), ("a", 1): (2, 12), ("a", 2): (2, 20), ("a", 2, "x"): (2, 21),
    ("b",): (3, 3), ("b", "say"): (4, 5), ("b", "c"): (5, 5), ("b", "c", "d"): (5, 11),
    ("b", "c", "e"): (5, 20), ("b", "f"): (6, 5), ("g",): (8, 3), ("g", 0): (9, 5),
    ("g", 0, "h"): (9, 6), ("g", 1): (10, 5), ("j",): (12, 3),
}


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_exact_line_and_column_of_nested_keys(newline: str) -> None:
    """Keys after arrays and nested objects, after strings holding escaped quotes and
    brackets, with LF or CRLF line endings: each at the line:col of its opening quote."""
    text = _NESTED.replace("\n", newline)
    data, positions = parse_json(text, "x.json")
    assert data["b"]["say"] == 'he said "{" and \\'
    for path, where in _WHERE.items():
        assert positions[path] == where, path


def test_the_example_settings_keys_the_trial_found_miscited() -> None:
    """The lines the new-user trial expected, read through the parser (they were right; the
    checks cited a neighbouring key)."""
    for rel, path, line in [
        ("evidence/github/branch-protection-main.json",
         ("required_pull_request_reviews", "require_code_owner_reviews"), 33),
        ("evidence/github/ruleset-main.json",
         ("rules", 2, "parameters", "require_code_owner_review"), 28),
        ("evidence/claude/managed-settings.json", ("sandbox", "excludedCommands"), 23),
    ]:
        _, positions = parse_json((REPO / rel).read_text(encoding="utf-8"), rel)
        assert positions[path][0] == line, rel
