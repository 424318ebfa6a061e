"""Mapping files: the documented YAML format, its errors, and the shipped CAIQ mapping."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import openpyxl
import pytest

from compliance.questionnaire import Overrides, QuestionnaireError, load_questionnaire
from compliance.questionnaire.mapping import builtin_mappings, load_mapping, parse_mapping

USER_MAPPING = """
name: Acme vendor review
layout: {header_row: 1, id_col: A, question_col: B, answer_col: D, notes_col: E}
default_style: narrative
choices: ["Yes", "No", "N/A"]
questions:
  - {text_regex: "egress|outbound", layers: [network], topics: [egress]}
  - {id_regex: "^L-\\\\d+$", layers: [logs], style: choice+narrative}
"""


def test_user_mapping_sets_columns_and_matches_by_text_and_id(tmp_path: Path) -> None:
    mapping = tmp_path / "acme.yaml"
    mapping.write_text(USER_MAPPING, encoding="utf-8")
    book = tmp_path / "acme.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Id", "Question", "Owner", "Answer", "Notes"])
    ws.append(["N-1", "Is outbound traffic filtered?"])
    ws.append(["L-7", "Are sessions logged?"])
    ws.append(["H-1", "Do staff get security training?"])
    wb.save(book)
    q = load_questionnaire(book, Overrides(mapping=mapping))
    assert q.kind == "Acme vendor review"
    assert [
        (x.key, str(x.answer_ref), x.style, x.mapping.layers if x.mapping else None)
        for x in q.questions
    ] == [
        ("N-1", "Sheet!D2", "narrative", ("network",)),
        ("L-7", "Sheet!D3", "choice+narrative", ("logs",)),
        ("H-1", "Sheet!D4", "narrative", None),
    ]
    assert q.questions[1].choices == ("Yes", "No", "N/A")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name: x\nquestions:\n  - {id: A, layers: [firewall]}\n",
            "3:21: mapping invalid at questions.0.layers: Value error, unknown layer 'firewall'; "
            "layers are isolation, network, credentials, git, pipeline, logs",
        ),
        (
            "name: x\nquestions:\n  - {id: A, text_regex: b, layers: [git]}\n",
            "3:5: mapping invalid at questions.0: Value error, each question rule needs exactly "
            "one of id, id_regex, text_regex",
        ),
        (
            "name: x\nquestions:\n  - {id: A}\n",
            "3:5: mapping invalid at questions.0: Value error, each question rule needs layers or "
            "controls",
        ),
        (
            "name: x\ncolour: red\n",
            "2:1: mapping invalid at colour: Extra inputs are not permitted",
        ),
        (
            "name: x\nlayout: {question_col: '??'}\n",
            "2:24: mapping invalid at layout.question_col: Value error, not a column: '??'",
        ),
        (
            "- a\n",
            "1:1: mapping invalid at the top level: Input should be a valid dictionary or instance "
            "of Mapping",
        ),
        # A regex that does not compile points at the character that is wrong in it.
        (
            'name: x\nquestions:\n  - {text_regex: "(", layers: [network]}\n',
            "3:19: mapping invalid at questions.0.text_regex: Value error, not a valid regular "
            "expression: missing ), unterminated subpattern at position 0",
        ),
        (
            "name: x\nquestions:\n  - id_regex: |\n      ^A-\\d+\n      [0-9\n    layers: [git]\n",
            "5:7: mapping invalid at questions.0.id_regex: Value error, not a valid regular "
            "expression: unterminated character set at position 7 (line 2, column 1)",
        ),
        # The YAML itself: syntax, duplicate keys, nesting, an empty file.
        (
            "name: x\nname: y\n",
            "2:1: mapping: duplicate key 'name' (first defined at line 1, column 1)",
        ),
        (
            "a: " + "[" * 300 + "\n",
            "1:203: mapping: nested deeper than 200 levels; refusing to parse",
        ),
        (
            "",
            "1:1: mapping: empty file: a mapping needs at least `name:` "
            "(see docs/questionnaires.md)",
        ),
    ],
)
def test_mapping_errors_name_the_file_and_place(text: str, message: str) -> None:
    with pytest.raises(QuestionnaireError) as err:
        parse_mapping(text, "m.yaml")
    assert str(err.value) == f"m.yaml:{message}"


def test_mapping_yaml_syntax_error_is_positioned() -> None:
    with pytest.raises(QuestionnaireError) as err:
        parse_mapping("name: x\nquestions: [unclosed\n", "m.yaml")
    assert re.match(r"m\.yaml:\d+:\d+: mapping: YAML syntax error: ", str(err.value))
    assert "<unicode string>" not in str(err.value)


def test_mapping_file_not_utf8_is_positioned(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_bytes(b"name: x\nnote: caf\xe9\n")
    with pytest.raises(QuestionnaireError) as err:
        load_mapping(path)
    assert str(err.value) == (
        f"{path}:2:10: mapping: not valid UTF-8 (byte 0xe9); save the file as UTF-8"
    )


def test_builtin_caiq_mapping_coverage() -> None:
    caiq = next(m for m in builtin_mappings() if m.name == "CSA CAIQ v4.0.3")
    assert caiq.name == "CSA CAIQ v4.0.3"
    assert len(caiq.questions) == 33
    per_layer = Counter(layer for rule in caiq.questions for layer in rule.layers)
    assert dict(per_layer) == {
        "isolation": 4,
        "network": 6,
        "credentials": 9,
        "git": 5,
        "pipeline": 5,
        "logs": 10,
    }
    assert all(rule.topics for rule in caiq.questions)
