"""JSON questionnaires: the VSAQ dialect, the CAIQ dataset shape and a generic list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compliance.questionnaire import (
    Answer,
    Choice,
    QuestionnaireError,
    load_questionnaire,
    write_answers,
)
from compliance.questionnaire.json_io import read_json, relaxed_json, too_deep

VSAQ = """// Copyright line
// second line

{
  "questionnaire": [
    {"type": "block", "text": "Network", "items": [
      {"type": "info", "text": "Just information // not a comment"},
      {"type": "radiogroup", "id": "net_egress",
       "text": "Is egress " +
               "<b>restricted</b>?",
       "choices": [{"net_egress_yes": "Yes"}, {"net_egress_no": "No"}]},
      {"type": "checkgroup", "text": "Which protocols + ports?",
       "choices": [{"p_http": "HTTP"}]}
    ]}
  ]
}
"""


def test_relaxed_json_joins_strings_and_drops_comments_outside_strings() -> None:
    text = '// c\n{"a": "x // y" + "z", // trailing\n "b": "1 + 2"}'
    assert json.loads(relaxed_json(text)) == {"a": "x // yz", "b": "1 + 2"}
    with pytest.raises(ValueError, match="unexpected '\\+' at offset 6"):
        relaxed_json('{"a": + 1}')


def test_reads_vsaq_items_and_keeps_the_comment_header(tmp_path: Path) -> None:
    path = tmp_path / "vsaq.json"
    path.write_text(VSAQ, encoding="utf-8")
    q = load_questionnaire(path)
    assert q.kind == "vsaq"
    assert [(x.key, x.section, x.text, x.choices) for x in q.questions] == [
        ("net_egress", "Network", "Is egress restricted?", ("Yes", "No")),
        ("questionnaire/0/items/2", "Network", "Which protocols + ports?", ("HTTP",)),
    ]
    out = tmp_path / "out.json"
    write_answers(
        q,
        {
            "net_egress": Answer(
                choice=Choice.YES, narrative="Default deny.", control_ids=("NET-01",)
            )
        },
        out,
    )
    text = out.read_text(encoding="utf-8")
    assert text.startswith('// Copyright line\n// second line\n\n{\n  "questionnaire"')
    doc = read_json(out).document
    item = doc["questionnaire"][0]["items"][1]
    assert item["answer"] == {
        "choice": "Yes",
        "narrative": "Default deny.",
        "control_ids": ["NET-01"],
        "evidence_sha256": [],
        "limits": [],
    }
    assert item["text"] == "Is egress <b>restricted</b>?"
    assert "answer" not in doc["questionnaire"][0]["items"][2]


def test_generic_list_and_unknown_shape(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text(json.dumps([{"id": "G1", "question": "Are logs kept?"}, {"id": "G2"}]))
    q = load_questionnaire(path)
    assert [(x.key, x.text, x.json_path) for x in q.questions] == [("G1", "Are logs kept?", (0,))]
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(bad)
    assert str(err.value) == (
        f"{bad}: JSON shape not recognised (expected CAIQ 'questions', VSAQ 'questionnaire', "
        "or a list of {id, question})"
    )


def test_a_documents_title_is_what_its_questions_stand_under(tmp_path: Path) -> None:
    path = tmp_path / "titled.json"
    doc = {"title": "Coding agent  review", "questions": [{"id": "1", "question": "Can it push?"}]}
    path.write_text(json.dumps(doc))
    assert load_questionnaire(path).questions[0].titles == ("Coding agent review",)


def test_nesting_depth_skips_strings_and_comments() -> None:
    assert too_deep("[" * 100 + "]" * 100) is None
    assert too_deep("[" * 101) == 100
    brackets = '"' + "[" * 500 + '\\"' + "{" * 500 + '"'
    assert too_deep("// " + "[" * 500 + "\n[" + brackets + "]") is None
    assert too_deep('["]", ' + "[" * 100 + "]") == 6 + 99  # the outer [ is level 1


def test_an_empty_or_null_answer_is_unanswered_and_a_real_one_is_kept(tmp_path: Path) -> None:
    items = [
        {"id": "E1", "question": "Is it empty text?", "answer": ""},
        {"id": "E2", "question": "Is it null?", "answer": None},
        {"id": "E3", "question": "Is it only spaces?", "answer": " \t\n"},
        {"id": "E4", "question": "Is it an empty object?", "answer": {}},
        {"id": "K1", "question": "Was it answered by a person?", "answer": "No, see policy P-4."},
        {"id": "K2", "question": "Was it answered as false?", "answer": False},
    ]
    path = tmp_path / "partly.json"
    path.write_text(json.dumps({"questions": items}), encoding="utf-8")
    q = load_questionnaire(path)
    drafted = {x.key: Answer(narrative=f"Drafted for {x.key}.") for x in q.questions}
    result = write_answers(q, drafted, tmp_path / "out.json")
    assert result.written == ["E1", "E2", "E3", "E4"]
    kept = {k: a.unanswered_reason for k, a in result.answers.items() if k.startswith("K")}
    assert kept == dict.fromkeys(("K1", "K2"), "the item already has an answer; left as it is")
    doc = read_json(tmp_path / "out.json").document["questions"]
    assert [item["answer"]["narrative"] for item in doc[:4]] == [
        "Drafted for E1.", "Drafted for E2.", "Drafted for E3.", "Drafted for E4."
    ]
    assert [item["answer"] for item in doc[4:]] == ["No, see policy P-4.", False]
