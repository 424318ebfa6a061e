"""Fuzz `compliance answer` on XLSX, CSV and JSON questionnaires.

The answers come from the small model of the questionnaire tests; inputs are the
seeds of tests/fuzz/questionnaires.py edited (built here, or the real CAIQ, VSAQ
and AICM files in ../shared/data in the ``shared`` variant, skipped visibly when
absent). Only ``out/`` may change: the answered copy and its two review files.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.harness import Box, sandbox
from tests.fuzz.questionnaires import questionnaire_inputs, shared_questionnaires
from tests.questionnaire.model_ws import EVIDENCE, MODEL

pytestmark = pytest.mark.filterwarnings("ignore:Data Validation extension is not supported",
                                        "ignore:Duplicate name")

#: Column options a user may give for an unknown layout (None: detection).
COLUMNS = st.sampled_from([(), ("--answer-col", "C", "--notes-col", "D"),
                           ("--question-col", "B", "--header-row", "1"),
                           ("--sheet", "Security", "--id-col", "A")])


def answer(suffix: str, content: bytes, options: tuple[str, ...]) -> None:
    with sandbox() as box:
        _model(box)
        path = box.write(f"q{suffix}", content)
        box.run("answer", str(path), "-w", str(box.ws), "--out", str(box.out / f"a{suffix}"),
                "--today", "2026-12-01", *options)


def _model(box: Box) -> None:
    box.write("controls/model.yaml", MODEL)
    box.write("evidence/fw.sh", EVIDENCE)


@pytest.mark.parametrize("suffix", [".csv", ".json", ".xlsx"])
@given(data=st.data(), options=COLUMNS)
def test_answer_on_built_questionnaires_edited(suffix: str, data: st.DataObject,
                                               options: tuple[str, ...]) -> None:
    if suffix == ".json":
        options = ()  # column options are for grids
    answer(suffix, data.draw(questionnaire_inputs(suffix, None), label="content"), options)


@pytest.mark.parametrize("suffix", [".csv", ".json", ".xlsx"])
@given(data=st.data())
def test_answer_on_real_questionnaires_edited(suffix: str, data: st.DataObject) -> None:
    content = data.draw(questionnaire_inputs(suffix, shared_questionnaires()), label="content")
    answer(suffix, content, ())
