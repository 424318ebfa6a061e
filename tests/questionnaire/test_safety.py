"""Refusals: zip bombs, DTDs, oversized workbooks; atomic output leaves no debris."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from compliance.questionnaire import QuestionnaireError, load_questionnaire, safety
from compliance.questionnaire.safety import atomic_output, neutralise
from tests.questionnaire.workbooks import rich_workbook


def test_zip_bomb_member_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("xl/worksheets/sheet1.xml", b"\0" * (4 * 1024 * 1024))
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(path)
    assert str(err.value).startswith(f"{path}: part xl/worksheets/sheet1.xml compresses ")
    assert str(err.value).endswith(":1 (limit 200:1); refused as a possible zip bomb")


def test_member_count_and_total_size_caps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = rich_workbook(tmp_path / "in.xlsx")
    monkeypatch.setattr(safety, "MAX_MEMBERS", 5)
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(book)
    assert str(err.value) == f"{book}: workbook has 14 parts, more than the 5 limit"
    monkeypatch.setattr(safety, "MAX_MEMBERS", 10_000)
    monkeypatch.setattr(safety, "MAX_TOTAL_BYTES", 1000)
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(book)
    assert str(err.value) == f"{book}: workbook expands to more than 1000 bytes; refused"


def test_oversized_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = rich_workbook(tmp_path / "in.xlsx")
    monkeypatch.setattr(safety, "MAX_INPUT_BYTES", 100)
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(book)
    assert str(err.value) == (
        f"{book}: file is {book.stat().st_size} bytes, more than the 100 byte limit"
    )


def test_entity_declarations_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "laughs.xlsx"
    book = rich_workbook(tmp_path / "in.xlsx")
    with zipfile.ZipFile(book) as src, zipfile.ZipFile(path, "w") as out:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/workbook.xml":
                data = b'<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "aaaa">]>' + data
            out.writestr(info, data)
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(path)
    assert str(err.value) == f"{path}: part xl/workbook.xml declares a DTD or entity; refused"


def test_not_a_zip_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.xlsx"
    path.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(path)
    assert str(err.value) == f"{path}: not a readable XLSX/XLSM workbook (File is not a zip file)"


def test_legacy_xls_and_missing_file(tmp_path: Path) -> None:
    for name in ("old.xls", "locked.xlsx"):
        ole = tmp_path / name
        ole.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 60)
        with pytest.raises(QuestionnaireError) as err:
            load_questionnaire(ole)
        assert str(err.value) == (
            f"{ole}: a legacy .xls or password-protected workbook; save an unencrypted "
            ".xlsx copy and answer that"
        )
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(tmp_path / "nope.xlsx")
    assert str(err.value) == f"{tmp_path / 'nope.xlsx'}: no such file"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("=SUM(A1)", "'=SUM(A1)"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@cmd", "'@cmd"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Yes", "Yes"),
        ("a=b", "a=b"),
        ("'=already", "'=already"),
    ],
)
def test_neutralise(text: str, expected: str) -> None:
    assert neutralise(text) == expected


def test_atomic_output_leaves_nothing_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "out.xlsx"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_output(target) as handle:
        handle.write(b"partial")
        raise RuntimeError("boom")
    assert target.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["out.xlsx"]
    with atomic_output(target) as handle:
        handle.write(b"new")
    assert target.read_bytes() == b"new"
    assert sorted(os.listdir(tmp_path)) == ["out.xlsx"]


def test_atomic_output_needs_an_existing_folder(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "out.csv"
    with pytest.raises(QuestionnaireError) as err, atomic_output(target):
        pass
    assert str(err.value) == f"{target}: output folder {target.parent} does not exist"
