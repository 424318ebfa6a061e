"""`--record NAME`: what was sent, in disclosures/NAME.yaml, written once and read back strictly."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from compliance.diagnostics import UserError
from compliance.disclose.make import build_record
from compliance.disclose.records import LoadedRecord, dump_record, write_record
from compliance.model.disclosure import DisclosureRecord, RecordKind
from compliance.pipeline import load_and_check
from tests.disclose.example import AS_OF, answer, copy_example, invoke

TODAY = dt.date.fromisoformat(AS_OF)


def read_back(root: Path) -> tuple[dict[str, LoadedRecord], list[str]]:
    """The records the workspace loader reads, and its findings in disclosures/."""
    from compliance.load import load_workspace

    ws = load_workspace(root)
    return ws.disclosures, [f"{d.path}:{d.line}: {d.message}" for d in ws.findings
                            if d.path.startswith("disclosures/")]

@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_example(tmp_path_factory.mktemp("example"))


def test_a_build_record_holds_the_stance_and_every_claim_and_reads_back(example: Path,
                                                                        tmp_path: Path) -> None:
    checked = load_and_check(example, TODAY)
    record = build_record(checked, "acme-bank")
    assert record.kind is RecordKind.BUILD and record.date == dt.date(2026, 11, 27)
    assert record.stance is not None and record.stance.summary.startswith("In Acme")
    assert [c.control for c in record.claims] == [c.id for c in checked.workspace.model.controls]
    pipe = next(c for c in record.claims if c.control == "PIPE-01")
    assert (pipe.status.value, pipe.verdict) == ("deployed", "VERIFIED")
    assert [e.id for e in pipe.evidence] == [
        "fork-pr-approval", "workflow-ci", "workflow-sensitive-change-gate"]
    assert all(len(e.sha256) == 64 for e in pipe.evidence)
    assert [limit.id for limit in pipe.limits] == [
        "approval-covers-outside-contributors", "review-quality-matters"]
    root = copy_example(tmp_path / "ws")
    write_record(root, record, replace=False)
    first = (root / "disclosures/acme-bank.yaml").read_bytes()
    write_record(root, build_record(load_and_check(example, TODAY), "acme-bank"), replace=True)
    assert (root / "disclosures/acme-bank.yaml").read_bytes() == first  # same input, same bytes
    records, findings = read_back(root)
    assert findings == []
    assert records["acme-bank"].record == record


def test_strings_survive_the_round_trip_exactly(tmp_path: Path, example: Path) -> None:
    """Quotes, backslashes, tabs, U+2028, astral characters and YAML punctuation."""
    record = build_record(load_and_check(example, TODAY), "odd")
    odd = 'a "quote", a \\ backslash,\nline two\ttab \u2028 sep \u00e9 \U0001f600 #: - [x]'
    record = record.model_copy(update={"sent": "x: y # z", "system": odd.replace("\n", " ")})
    text = dump_record(record)
    root = copy_example(tmp_path / "ws")
    (root / "disclosures").mkdir()
    (root / "disclosures/odd.yaml").write_text(text, encoding="utf-8")
    records, findings = read_back(root)
    assert findings == []
    assert records["odd"].record == record


def test_build_record_on_the_command_line_and_refusal_to_overwrite(example: Path,
                                                                  tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, stdout, stderr = invoke("build", str(example), "--out", str(out), "--today", AS_OF,
                                  "--record", "acme-bank")
    assert (code, stderr) == (0, "")
    assert stdout.endswith(f"recorded what was sent in {example}/disclosures/acme-bank.yaml\n")
    recorded = (example / "disclosures/acme-bank.yaml").read_bytes()
    # The same name again: refused before anything is built; nothing is replaced.
    out2 = tmp_path / "out2"
    code, stdout, stderr = invoke("build", str(example), "--out", str(out2), "--today", AS_OF,
                                  "--record", "acme-bank")
    assert (code, stdout) == (2, "")
    assert stderr == ("error: disclosures/acme-bank.yaml already records what was sent under "
                      "that name; choose another name, or pass --replace-record to replace it\n")
    assert not out2.exists()
    assert (example / "disclosures/acme-bank.yaml").read_bytes() == recorded
    (example / "disclosures/acme-bank.yaml").unlink()


@pytest.mark.parametrize("name", ["../x", "a b", "-x", "", "x" * 81, "a/b"])
def test_a_record_name_must_be_an_identifier(example: Path, tmp_path: Path, name: str) -> None:
    code, stdout, stderr = invoke("build", str(example), "--out", str(tmp_path / "o"),
                                  "--record", name)
    assert (code, stdout) == (2, "")
    assert stderr.startswith(f"error: --record {name!r}: a record name is letters, digits")
    assert not (tmp_path / "o").exists() and not any((example / "disclosures").glob("*"))


def test_answer_record_holds_every_answer_and_the_claims_they_rest_on(example: Path,
                                                                     tmp_path: Path) -> None:
    code, stdout, stderr = answer(example, tmp_path, "--record", "cust-a")
    assert (code, stderr) == (0, "note: layout: the file: header row 1, ids A, questions B, "
                              "answers C, narrative D; 3 questions in rows 2-4 (override with "
                              "--sheet, --header-row, --id-col, --question-col, --answer-col, "
                              "--notes-col)\n")
    assert stdout.endswith(f"recorded what was sent in {example}/disclosures/cust-a.yaml\n")
    records, findings = read_back(example)
    assert findings == []
    record = records["cust-a"].record
    assert (record.kind, record.sent, record.stance, record.audience) == (
        RecordKind.ANSWER, "answered.csv", None, None)
    review = json.loads((tmp_path / "answered.csv.review.json").read_text(encoding="utf-8"))
    assert [a.question.key for a in record.answers] == ["Q1", "Q2", "Q3"]
    for item, row in zip(record.answers, review["items"], strict=True):
        assert (item.left_for_human is None) == (row["status"] != "left for a human")
        assert item.left_for_human in (None, row["reason"])
        if item.left_for_human is None:  # what was sent, exactly as the review lists it
            assert (item.choice, item.narrative, item.controls, item.evidence_sha256) == (
                row["choice"], row["narrative"], row["control_ids"], row["evidence_sha256"])
        else:  # nothing was sent for it
            assert (item.choice, item.narrative, item.controls) == (None, "", [])
    assert record.answers[0].choice == "Yes"
    assert record.answers[0].controls == ["NET-01", "NET-02"]
    # (Q2 was left for a human while the judge misread PIPE-01's "trigger (PIPE-01)." as a
    # pipeline-immune claim)
    assert (record.answers[1].choice, record.answers[1].controls[0]) == ("Yes", "PIPE-01")
    cited = sorted({cid for item in record.answers for cid in item.controls})
    assert [c.control for c in record.claims] == [
        c.id for c in load_and_check(example, TODAY).workspace.model.controls if c.id in cited]
    # Refused the second time before the questionnaire is answered again.
    (tmp_path / "answered.csv").unlink()
    code, _, stderr = answer(example, tmp_path, "--record", "cust-a")
    assert code == 2 and "already records what was sent" in stderr
    assert not (tmp_path / "answered.csv").exists()
    (example / "disclosures/cust-a.yaml").unlink()


def test_a_malformed_record_is_a_positioned_error(example: Path) -> None:
    folder = example / "disclosures"
    folder.mkdir(exist_ok=True)
    bad = folder / "bad.yaml"
    bad.write_text('format: "compliance-disclosure/1"\nname: "other"\nkind: sent\ncolour: 1\n',
                   encoding="utf-8")
    try:
        code, stdout, stderr = invoke("check", str(example), "--today", AS_OF)
        assert code == 1 and stderr == ""
        assert "disclosures/bad.yaml:3:7: error kind: 'sent' is not one of answer, build" in stdout
        assert "disclosures/bad.yaml:4:1: error unknown key 'colour' in the file" in stdout
        assert "missing required field 'date'" in stdout
        bad.write_bytes(b"\x00\x01binary")
        code, stdout, stderr = invoke("check", str(example), "--today", AS_OF)
        assert code == 2 and stderr.startswith("disclosures/bad.yaml:1:1: error ")
        assert "Traceback" not in stdout + stderr
    finally:
        bad.unlink()


def test_a_record_whose_name_is_not_its_file_name_is_refused(example: Path) -> None:
    record = build_record(load_and_check(example, TODAY), "acme-bank")
    folder = example / "disclosures"
    folder.mkdir(exist_ok=True)
    (folder / "renamed.yaml").write_text(dump_record(record), encoding="utf-8")
    try:
        code, stdout, _ = invoke("check", str(example), "--today", AS_OF)
        assert code == 1
        assert ("disclosures/renamed.yaml:4:7: error name: 'acme-bank' is not this file's name "
                "('renamed'); a record lives in disclosures/NAME.yaml [SCH001]") in stdout
    finally:
        (folder / "renamed.yaml").unlink()


def test_record_path_refuses_a_disclosures_link_out_of_the_workspace(tmp_path: Path) -> None:
    from compliance.disclose.records import record_path

    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws/disclosures").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(UserError, match="resolves outside"):
        record_path(tmp_path / "ws", "x")


def test_the_record_model_is_strict() -> None:
    with pytest.raises(ValueError, match="format"):
        DisclosureRecord.model_validate({"format": "other/2", "name": "x", "kind": "build",
                                         "date": "2026-01-01", "generator": "g",
                                         "system": "s", "sent": "p"})
