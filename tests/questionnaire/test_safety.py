"""Refusals: zip bombs, DTDs, oversized workbooks; atomic output leaves no debris."""

from __future__ import annotations

import codecs
import os
import tempfile
import zipfile
from pathlib import Path

import pytest

from compliance.atomic import CannotWrite
from compliance.diagnostics import UserError
from compliance.questionnaire import QuestionnaireError, load_questionnaire, safety, write_answers
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


DTD = '<?xml version="1.0" encoding="{enc}"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>'


@pytest.mark.parametrize(
    ("encoding", "prefix", "declared"),
    [
        ("utf-8", codecs.BOM_UTF8, "UTF-8"),
        ("utf-16-le", codecs.BOM_UTF16_LE, "UTF-16"),
        ("utf-16-be", codecs.BOM_UTF16_BE, "UTF-16"),
        ("utf-16-le", b"", "UTF-16"),  # no byte-order mark: "<\0?\0"
        ("utf-16-be", b"", "UTF-16"),
        ("utf-32-le", codecs.BOM_UTF32_LE, "UTF-32"),
        ("utf-32-be", codecs.BOM_UTF32_BE, "UTF-32"),
        ("utf-32-le", b"", "UTF-32"),
        ("utf-32-be", b"", "UTF-32"),
        ("utf-7", b"", "UTF-7"),  # ASCII-looking prolog; '<!' encoded as '+ADwAIQ-'
        ("cp500", b"", "cp500"),  # EBCDIC
    ],
)
def test_dtd_is_refused_in_any_encoding(encoding: str, prefix: bytes, declared: str) -> None:
    text = DTD.format(enc=declared)
    data = prefix + (text.encode(encoding) if encoding != "utf-7" else _utf7_markup(text))
    assert not safety._DTD.search(data) or encoding == "utf-8"  # bytes alone would miss it
    with pytest.raises(QuestionnaireError) as err:
        safety.no_dtd("book.xlsx", "xl/worksheets/sheet1.xml", data)
    assert str(err.value) == (
        "book.xlsx: part xl/worksheets/sheet1.xml declares a DTD or entity; refused"
    )


def _utf7_markup(text: str) -> bytes:
    """UTF-7 with '<' and '!' base64-encoded, as an encoder may choose to."""
    head, rest = text.split("?>", 1)
    return (head + "?>").encode("ascii") + rest.replace("<!", "\x00").encode("utf-7").replace(
        b"+AAA-", b"+ADwAIQ-"
    )


@pytest.mark.parametrize(
    "data",
    [
        b'<?xml version="1.0" encoding="UTF-8"?><worksheet><c>&lt;!DOCTYPE</c></worksheet>',
        '<?xml version="1.0" encoding="UTF-16"?><worksheet/>'.encode("utf-16"),
        b"",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    ],
)
def test_parts_without_a_dtd_pass(data: bytes) -> None:
    safety.no_dtd("book.xlsx", "part.xml", data)


def test_expat_is_asked_too() -> None:
    assert safety._expat_sees_dtd(b'<!DOCTYPE x [<!ENTITY a "b">]><x/>')
    assert not safety._expat_sees_dtd(b"<x><y/></x>")
    assert not safety._expat_sees_dtd(b"<x><!-- <!DOCTYPE --></x>")
    assert not safety._expat_sees_dtd(b"not xml at all")


def _rewrite(src: Path, dst: Path, part: str, data: bytes) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
        for info in zin.infolist():
            out.writestr(info, data if info.filename == part else zin.read(info))
    return dst


def test_utf16_sheet_with_an_entity_bomb_is_refused_before_parsing(tmp_path: Path) -> None:
    book = rich_workbook(tmp_path / "in.xlsx")
    with zipfile.ZipFile(book) as zf:
        sheet = zf.read("xl/worksheets/sheet1.xml").decode("utf-8")
    body = sheet.split("?>", 1)[-1]  # drop any UTF-8 declaration
    laughs = '<!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    utf16 = ('<?xml version="1.0" encoding="UTF-16"?>' + laughs + body).encode("utf-16")
    bomb = _rewrite(book, tmp_path / "bomb.xlsx", "xl/worksheets/sheet1.xml", utf16)
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(bomb)
    assert str(err.value) == (
        f"{bomb}: part xl/worksheets/sheet1.xml declares a DTD or entity; refused"
    )


def test_check_workbook_is_one_public_call_raising_user_error(tmp_path: Path) -> None:
    book = rich_workbook(tmp_path / "in.xlsx")
    safety.check_workbook(book)  # a clean workbook passes
    safety.check_workbook(book, "shown.xlsx")
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("xl/worksheets/sheet1.xml", b"\0" * (4 * 1024 * 1024))
    laughs = _rewrite(
        book, tmp_path / "laughs.xlsx", "xl/workbook.xml",
        DTD.format(enc="UTF-16").encode("utf-16"),
    )
    ole = tmp_path / "old.xlsx"
    ole.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 60)
    not_zip = tmp_path / "text.xlsx"
    not_zip.write_text("hello", encoding="utf-8")
    expected = {
        bomb: "shown.xlsx: part xl/worksheets/sheet1.xml compresses",
        laughs: "shown.xlsx: part xl/workbook.xml declares a DTD or entity; refused",
        ole: "shown.xlsx: a legacy .xls or password-protected workbook",
        not_zip: "shown.xlsx: not a readable XLSX/XLSM workbook",
        tmp_path / "missing.xlsx": "shown.xlsx: cannot read (No such file or directory)",
    }
    for path, message in expected.items():
        with pytest.raises(UserError) as err:
            safety.check_workbook(path, "shown.xlsx")
        assert err.value.message.startswith(message), err.value.message
        assert isinstance(err.value, QuestionnaireError)


def test_unwritable_output_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    target = tmp_path / "out.csv"
    with pytest.raises(CannotWrite) as err, atomic_output(target):
        pass
    assert str(err.value) == f"cannot write {target}: Permission denied"
    monkeypatch.undo()
    monkeypatch.setattr(safety.os, "replace", refuse)
    with pytest.raises(CannotWrite) as err, atomic_output(target) as handle:
        handle.write(b"x")
    assert str(err.value) == f"cannot write {target}: Permission denied"
    monkeypatch.undo()
    assert os.listdir(tmp_path) == []


def forged_workbook(path: Path, real_bytes: int, declared: int, filler: bytes = b" ") -> None:
    """A workbook whose sheet part declares ``declared`` bytes in both zip headers but
    inflates to ``real_bytes`` (issue 11, row 4: 900 KB declared, 1.17 GB real)."""
    import io
    import struct

    from tests.judge.test_lint_workbooks import parts, small_workbook

    files = parts(small_workbook())
    sheet = "xl/worksheets/sheet1.xml"
    body = (filler * (real_bytes // len(filler) + 1))[:real_bytes]
    files[sheet] = files[sheet].replace(b"</worksheet>", b"<!--" + body + b"--></worksheet>")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    raw = bytearray(buffer.getvalue())
    name = sheet.encode()
    local = 0  # the part's local header, then its central directory entry
    while True:
        local = raw.find(b"PK\x03\x04", local)
        size = struct.unpack_from("<H", raw, local + 26)[0]
        if raw[local + 30:local + 30 + size] == name:
            break
        local += 4
    struct.pack_into("<I", raw, local + 22, declared)
    central = 0
    while True:
        central = raw.find(b"PK\x01\x02", central)
        size = struct.unpack_from("<H", raw, central + 28)[0]
        if raw[central + 46:central + 46 + size] == name:
            break
        central += 4
    struct.pack_into("<I", raw, central + 24, declared)
    path.write_bytes(bytes(raw))


def test_forged_part_sizes_are_read_with_a_cap_on_the_real_bytes(tmp_path: Path) -> None:
    import tracemalloc

    from compliance.questionnaire.xlsx_read import read_workbook

    book = tmp_path / "forged.xlsx"
    forged_workbook(book, real_bytes=64 * 1024 * 1024, declared=900_000)
    with zipfile.ZipFile(book) as zf:
        info = zf.getinfo("xl/worksheets/sheet1.xml")
        assert (info.file_size, info.compress_size < 200_000) == (900_000, True)
    tracemalloc.start()
    try:
        with pytest.raises(QuestionnaireError) as caught:
            read_workbook(book)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(caught.value).startswith(
        f"{book}: not a readable XLSX/XLSM workbook (part xl/worksheets/sheet1.xml: ")
    # zipfile.read() would have inflated all 64 MiB in one call; streamed, the read
    # stops at the declared size and the memory stays a small multiple of it
    assert peak < 16 * 1024 * 1024, peak


def test_a_part_that_really_expands_past_the_caps_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from compliance.questionnaire import safety as safety_module

    monkeypatch.setattr(safety_module, "MAX_PART_BYTES", 2 * 1024 * 1024)
    import base64
    import random

    noise = base64.b64encode(random.Random(4).randbytes(3 * 1024 * 1024))  # incompressible
    book = tmp_path / "big.xlsx"
    forged_workbook(book, real_bytes=len(noise), declared=len(noise) + 900, filler=noise)
    with pytest.raises(QuestionnaireError,
                       match="part xl/worksheets/sheet1.xml expands to more than 2097152 bytes"):
        safety_module.check_workbook(book)


def test_a_corrupt_deflate_stream_is_a_clean_exit_2_for_answer_and_lint(tmp_path: Path) -> None:
    """fuzz-findings F2: zlib.error escaped the part reader as a traceback."""
    import io

    from click.testing import CliRunner

    from compliance.cli import cli
    from tests.judge.test_lint_workbooks import small_workbook

    raw = bytearray(small_workbook())
    info = zipfile.ZipFile(io.BytesIO(bytes(raw))).getinfo("xl/worksheets/sheet1.xml")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for k in range(3):
        raw[start + 2 + k] ^= 0xFF
    book = tmp_path / "bad-deflate.xlsx"
    book.write_bytes(bytes(raw))
    result = CliRunner().invoke(cli, ["lint", str(book)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {book}: not a readable XLSX/XLSM workbook (part "
                                    "xl/worksheets/sheet1.xml: ")
    with pytest.raises(QuestionnaireError, match="not a readable XLSX/XLSM workbook"):
        safety.check_workbook(book)


def test_a_part_the_workbook_names_but_does_not_hold_is_a_clean_exit_2(tmp_path: Path) -> None:
    """fuzz-findings F3: a missing sheet part was a KeyError traceback in answer."""
    from compliance.questionnaire.xlsx_read import read_workbook
    from tests.judge.test_lint_workbooks import parts, rezip, small_workbook

    files = parts(small_workbook())
    del files["xl/worksheets/sheet1.xml"]
    book = tmp_path / "dropped-sheet.xlsx"
    book.write_bytes(rezip(files))
    with pytest.raises(QuestionnaireError) as caught:
        read_workbook(book)
    assert str(caught.value) == (
        f"{book}: part xl/worksheets/sheet1.xml is missing (the workbook refers to it but "
        "does not hold it); the workbook is damaged")


def _corrupt_deflate(path: Path, part: str) -> Path:
    """Overwrite three bytes inside ``part``'s compressed data (headers left intact)."""
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(part)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for k in range(3):
        raw[start + 2 + k] ^= 0xFF
    path.write_bytes(bytes(raw))
    return path


def test_a_part_the_workbook_names_but_lacks_is_a_clear_error(tmp_path: Path) -> None:
    """Found by tests/fuzz: a KeyError traceback from zipfile (exit 1)."""
    book = rich_workbook(tmp_path / "in.xlsx")
    dropped = tmp_path / "dropped.xlsx"
    with zipfile.ZipFile(book) as zin, zipfile.ZipFile(dropped, "w", zipfile.ZIP_DEFLATED) as out:
        for info in zin.infolist():
            if info.filename != "xl/worksheets/sheet2.xml":
                out.writestr(info, zin.read(info))
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(dropped)
    assert str(err.value) == (
        f"{dropped}: part xl/worksheets/sheet2.xml is missing (the workbook refers to it but "
        "does not hold it); the workbook is damaged")


@pytest.mark.parametrize("part", ["xl/worksheets/sheet2.xml", "docProps/app.xml"])
def test_a_damaged_part_is_a_clear_error(tmp_path: Path, part: str) -> None:
    """Found by tests/fuzz: a corrupt deflate stream was a zlib.error traceback (exit 1)."""
    book = _corrupt_deflate(rich_workbook(tmp_path / "in.xlsx"), part)
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(book)
    assert str(err.value).startswith(
        f"{book}: not a readable XLSX/XLSM workbook (part {part}: Error -3 while decompressing")


def test_a_damaged_part_only_the_writer_reads_writes_nothing(tmp_path: Path) -> None:
    """A part that is not XML (an image, macros) is first read when the answered copy is
    written: a damaged one is the same clear error, and no output appears."""
    book = rich_workbook(tmp_path / "in.xlsx")
    with_image = tmp_path / "image.xlsx"
    with zipfile.ZipFile(book) as zin, zipfile.ZipFile(with_image, "w",
                                                       zipfile.ZIP_DEFLATED) as out:
        for info in zin.infolist():
            out.writestr(info, zin.read(info))
        out.writestr("xl/media/image1.png", bytes(range(256)) * 64)
    q = load_questionnaire(with_image)
    _corrupt_deflate(with_image, "xl/media/image1.png")
    out_path = tmp_path / "out.xlsx"
    with pytest.raises(QuestionnaireError, match=r"\(part xl/media/image1.png: Error -3"):
        write_answers(q, {}, out_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["image.xlsx", "in.xlsx"]
