"""The real CAIQ v4.0.3 workbook and JSON dataset, and Google's VSAQ files (../shared/data)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import openpyxl
import pytest

from compliance.questionnaire import Answer, Choice, load_questionnaire, write_answers
from compliance.questionnaire.mapping import builtin_mappings
from tests.questionnaire.workbooks import cells_by_ref, part_names, parts, sheet_without_cells

CAIQ = "questionnaires/caiq-v4.0.3/CAIQv4.0.3.xlsx"
CAIQ_JSON = "questionnaires/caiq-v4.0.3/CAIQv4.0.3-primary-dataset.json"
SHEET = "xl/worksheets/sheet2.xml"


def test_caiq_workbook_is_recognised(shared_data: Path) -> None:
    q = load_questionnaire(shared_data / CAIQ)
    assert q.kind == "CSA CAIQ v4.0.3"
    assert len(q.questions) == 261
    first, last = q.questions[0], q.questions[-1]
    assert (first.key, first.row, first.section, str(first.answer_ref), str(first.notes_ref)) == (
        "A&A-01.1",
        3,
        "Audit & Assurance",
        "CAIQv4.0.3!C3",
        "CAIQv4.0.3!E3",
    )
    assert (last.key, last.row, last.section) == ("UEM-14.1", 263, "Universal Endpoint Management")
    assert first.text.startswith("Are audit and assurance policies, procedures, and standards")
    assert [x.row for x in q.questions] == list(range(3, 264))
    mapped = [x.key for x in q.questions if x.mapping]
    assert len(mapped) == 33
    assert q.by_key()["IVS-03.3"].mapping.layers == ("network",)
    assert all(x.existing is None for x in q.questions)


def test_every_caiq_mapping_id_exists_in_the_dataset(shared_data: Path) -> None:
    ids = {item["id"] for item in json.loads((shared_data / CAIQ_JSON).read_text())["questions"]}
    caiq = next(m for m in builtin_mappings() if m.name == "CSA CAIQ v4.0.3")
    assert [r.id for r in caiq.questions if r.id not in ids] == []


def test_caiq_exported_as_csv_is_recognised_by_its_header(
    shared_data: Path, tmp_path: Path
) -> None:
    wb = openpyxl.load_workbook(shared_data / CAIQ, read_only=True)
    path = tmp_path / "caiq.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        for row in wb["CAIQv4.0.3"].iter_rows(values_only=True):
            writer.writerow(["" if v is None else v for v in row])
    q = load_questionnaire(path)
    assert (q.kind, len(q.questions)) == ("CSA CAIQ v4.0.3", 261)
    first = q.questions[0]
    assert (first.key, str(first.answer_ref), str(first.notes_ref)) == ("A&A-01.1", "C3", "E3")


def test_caiq_json_dataset_uses_the_same_mapping(shared_data: Path) -> None:
    q = load_questionnaire(shared_data / CAIQ_JSON)
    assert (q.kind, len(q.questions), sum(1 for x in q.questions if x.mapping)) == (
        "CSA CAIQ v4.0.3",
        261,
        33,
    )
    assert q.questions[0].section == "A&A-01"


@pytest.mark.filterwarnings("ignore:Data Validation extension is not supported")
def test_caiq_answered_in_place(shared_data: Path, tmp_path: Path) -> None:
    src = shared_data / CAIQ
    q = load_questionnaire(src)
    answers = {
        "IVS-03.3": Answer(choice=Choice.YES, narrative="Egress is default deny (NET-01)."),
        "LOG-08.1": Answer(narrative="Partially: agent sessions are logged; see LOG-01."),
        "A&A-01.1": Answer(unanswered_reason="no control supports it"),
    }
    out = tmp_path / "caiq-answered.xlsx"
    assert write_answers(q, answers, out).written == ["IVS-03.3", "LOG-08.1"]
    before, after = parts(src), parts(out)
    assert part_names(src) == part_names(out)
    assert [n for n in before if before[n] != after[n]] == [SHEET]
    assert sheet_without_cells(before[SHEET]) == sheet_without_cells(after[SHEET])
    old, new = cells_by_ref(before[SHEET]), cells_by_ref(after[SHEET])
    rows = {x.key: x.row for x in q.questions}
    expected = sorted([f"C{rows['IVS-03.3']}", f"E{rows['IVS-03.3']}", f"E{rows['LOG-08.1']}"])
    assert sorted(r for r in old if old[r] != new.get(r)) == expected
    wb = openpyxl.load_workbook(out)
    ws = wb["CAIQv4.0.3"]
    row = rows["IVS-03.3"]
    assert (ws.cell(row, 3).value, ws.cell(row, 5).value) == (
        "Yes",
        "Egress is default deny (NET-01).",
    )
    assert ws.protection.sheet is True
    assert [str(dv.sqref) for dv in ws.data_validations.dataValidation] == ["C3:C263", "D3:D263"]


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("infrastructure.json", 95),
        ("physical_and_datacenter.json", 29),
        ("security_privacy_programs.json", 45),
        ("webapp.json", 73),
    ],
)
def test_vsaq_files(shared_data: Path, tmp_path: Path, name: str, count: int) -> None:
    q = load_questionnaire(shared_data / "questionnaires" / "vsaq" / name)
    assert (q.kind, len(q.questions)) == ("vsaq", count)
    assert len({x.key for x in q.questions}) == count
    assert all(x.text and "<p>" not in x.text and "<a " not in x.text for x in q.questions)
    first = q.questions[0]
    out = tmp_path / name
    write_answers(q, {first.key: Answer(narrative="Left to the team.")}, out)
    again = load_questionnaire(out)
    assert [x.key for x in again.questions] == [x.key for x in q.questions]
    assert out.read_text(encoding="utf-8").startswith("\n// Copyright 2016 Google Inc.")


AICM = "questionnaires/aicm-caiq-1.1.0/aicm-caiq-1.1.0-questions.csv"


def test_aicm_csv_is_recognised(shared_data: Path) -> None:
    q = load_questionnaire(shared_data / AICM)
    assert (q.kind, len(q.questions)) == ("CSA AI-CAIQ (AICM) v1.1.0", 320)
    first = q.questions[0]
    assert (first.key, first.section, str(first.answer_ref), str(first.notes_ref)) == (
        "A&A-01.1",
        "Audit & Assurance",
        "H2",
        "I2",
    )
    assert "\n" not in first.text and first.text.startswith("Are audit and assurance policies")
    assert len({x.key for x in q.questions}) == 320
    assert sum(1 for x in q.questions if x.mapping) == 26


def test_every_aicm_mapping_id_exists_in_the_csv(shared_data: Path) -> None:
    with (shared_data / AICM).open(encoding="utf-8", newline="") as handle:
        ids = {row["question_id"] for row in csv.DictReader(handle)}
    aicm = next(m for m in builtin_mappings() if m.name == "CSA AI-CAIQ (AICM) v1.1.0")
    assert [r.id for r in aicm.questions if r.id not in ids] == []


def test_aicm_answered_in_place(shared_data: Path, tmp_path: Path) -> None:
    src = shared_data / AICM
    q = load_questionnaire(src)
    answers = {
        "IAM-05.1": Answer(choice=Choice.YES, narrative="Scoped tokens only (CRED-01)."),
        "AIS-13.1": Answer(narrative='Sessions run in microVMs, "disposable" (ISO-01).'),
    }
    out = tmp_path / "aicm.csv"
    assert write_answers(q, answers, out).written == ["AIS-13.1", "IAM-05.1"]
    before = src.read_text(encoding="utf-8").splitlines(keepends=True)
    after = out.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(before) == len(after)
    assert after[0] == before[0].rstrip("\r\n") + ",AI-CAIQ Answer,Implementation Description" + (
        before[0][len(before[0].rstrip("\r\n")) :]
    )
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert len(changed) == 3  # the header and the two answered rows, nothing else
    rows = {r["question_id"]: r for r in csv.DictReader(out.open(encoding="utf-8", newline=""))}
    assert (rows["IAM-05.1"]["AI-CAIQ Answer"], rows["IAM-05.1"]["Implementation Description"]) == (
        "Yes",
        "Scoped tokens only (CRED-01).",
    )
    assert rows["AIS-13.1"]["Implementation Description"] == (
        'Sessions run in microVMs, "disposable" (ISO-01).'
    )
    assert rows["AIS-13.1"]["AI-CAIQ Answer"] == ""
    again = load_questionnaire(out)
    assert again.kind == "CSA AI-CAIQ (AICM) v1.1.0" and again.header_cells == {}
    assert again.by_key()["IAM-05.1"].existing == "Yes"


def test_caiq_ivs_03_3_gets_no_bare_yes_from_the_example(shared_data: Path, tmp_path: Path) -> None:
    """IVS-03.3 asks for connections restricted to authenticated and authorized ones, as
    justified by the business; the example's verified network claims speak only to the
    restriction. The narrative is drafted; the Yes/No/NA choice is left, with the reason."""
    from compliance.questionnaire.run import answer_questionnaire
    from compliance.questionnaire.types import Overrides

    repo = Path(__file__).resolve().parents[2]
    run = answer_questionnaire(shared_data / CAIQ, repo, tmp_path / "caiq.xlsx", Overrides())
    rows = {r["key"]: r for r in json.loads(run.review_json.read_text("utf-8"))["items"]}
    row = rows["IVS-03.3"]
    assert (row["status"], row["choice"], row["control_ids"]) == (
        "narrative only", None, ["NET-01", "NET-02"])
    assert row["narrative"].startswith("Scope: Acme coding agents (hosted sessions).\n"
                                       "Outbound traffic from an agent session is denied")
    assert row["reason"] == (
        "the Yes/No/NA choice is left for a human: no verified claim speaks to these parts of "
        "the question: only authenticated connections (looked for: authenticat, mtls, mutual "
        "tls); only authorized connections (looked for: authoriz); as justified by the "
        "business (looked for: justif, business need, business reason)")
    written = openpyxl.load_workbook(tmp_path / "caiq.xlsx")["CAIQv4.0.3"]
    assert written[f"C{row['row']}"].value is None
    assert written[f"E{row['row']}"].value.startswith("Scope: Acme coding agents")
