"""`lint` on damaged workbooks: the reader `answer` uses, so a clean positioned exit 2.

Issue 11, row 2: copies of the CAIQ workbook with one change each (a sheet part
replaced by garbage bytes; a boolean cell holding ``abc``; an empty
shared-strings table; a cell reference ``r="-1"``) made `lint` print a traceback
and exit 1 in 241 of 500 copies, while `answer` exited 2 cleanly.

The damage is made here, from the real workbook in ../shared/data (skipped
visibly when absent) and from a small workbook this test builds itself.
"""

from __future__ import annotations

import io
import random
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.questionnaire.types import QuestionnaireError
from compliance.questionnaire.xlsx_read import read_workbook

CAIQ = "questionnaires/caiq-v4.0.3/CAIQv4.0.3.xlsx"


NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
RELS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"'
DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def small_workbook() -> bytes:
    """A two-sheet workbook with shared strings, a true/false cell and a number, written
    part by part (as spreadsheet programs write it), so the test needs no ../shared."""
    strings = ["Question", "Response", "Applies", "Is egress denied by default?",
               "Yes, by an allowlist proxy.", "Is the allowlist complete?",
               "It is reviewed monthly."]
    sst = "".join(f"<si><t>{t}</t></si>" for t in strings)

    def row(r: int, *cells: str) -> str:
        return f'<row r="{r}">{"".join(cells)}</row>'

    sheet1 = (f"<worksheet {NS}><sheetData>"
              + row(1, '<c r="A1" t="s"><v>0</v></c>', '<c r="B1" t="s"><v>1</v></c>',
                    '<c r="C1" t="s"><v>2</v></c>')
              + row(2, '<c r="A2" t="s"><v>3</v></c>', '<c r="B2" t="s"><v>4</v></c>',
                    '<c r="C2" t="b"><v>1</v></c>')
              + row(3, '<c r="A3" t="s"><v>5</v></c>', '<c r="B3" t="s"><v>6</v></c>',
                    '<c r="C3"><v>3</v></c>')
              + "</sheetData></worksheet>")
    sheet2 = (f"<worksheet {NS}><sheetData>" + row(1, '<c r="A1" t="s"><v>0</v></c>')
              + "</sheetData></worksheet>")
    files = {
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            "</Types>"),
        "_rels/.rels": (f'<Relationships {RELS}><Relationship Id="rId1" '
                        f'Type="{DOC}/officeDocument" Target="xl/workbook.xml"/>'
                        "</Relationships>"),
        "xl/workbook.xml": (f'<workbook {NS} xmlns:r="{DOC}"><sheets>'
                            '<sheet name="Vendor" sheetId="1" r:id="rId1"/>'
                            '<sheet name="Notes" sheetId="2" r:id="rId2"/></sheets></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships {RELS}>'
            f'<Relationship Id="rId1" Type="{DOC}/worksheet" Target="worksheets/sheet1.xml"/>'
            f'<Relationship Id="rId2" Type="{DOC}/worksheet" Target="worksheets/sheet2.xml"/>'
            f'<Relationship Id="rId3" Type="{DOC}/sharedStrings" Target="sharedStrings.xml"/>'
            "</Relationships>"),
        "xl/sharedStrings.xml": f'<sst {NS} count="{len(strings)}">{sst}</sst>',
        "xl/worksheets/sheet1.xml": sheet1,
        "xl/worksheets/sheet2.xml": sheet2,
    }
    return rezip({name: text.encode() for name, text in files.items()})


def parts(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def rezip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def first_sheet(files: dict[str, bytes]) -> str:
    return sorted(n for n in files if re.fullmatch(r"xl/worksheets/sheet\d+\.xml", n))[0]


def named_damages(data: bytes) -> dict[str, bytes]:
    """The four damages of the report, each alone in its own copy."""
    files = parts(data)
    sheet = first_sheet(files)
    xml = files[sheet]
    out = {}
    out["garbage sheet"] = rezip({**files, sheet: bytes(range(256)) * 8})
    out["boolean abc"] = rezip({**files, sheet: re.sub(
        rb'(<c [^>]*r="[A-Z]+\d+")[^>]*>(?:<f>[^<]*</f>)?<v>[^<]*</v>',
        rb'\1 t="b"><v>abc</v>', xml, count=1)})
    strings = next(n for n in files if n.endswith("sharedStrings.xml"))
    out["empty shared strings"] = rezip({**files, strings: (
        b'<?xml version="1.0" encoding="UTF-8"?>'
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>')})
    out["cell r=-1"] = rezip({**files, sheet: re.sub(rb'<c r="[A-Z]+\d+"', b'<c r="-1"', xml,
                                                     count=1)})
    return out


def random_damages(data: bytes, count: int, seed: int) -> Iterator[tuple[str, bytes]]:
    """Seeded one-change copies: bytes flipped, a part cut short, an attribute or a value
    replaced, in a random XML part."""
    rng = random.Random(seed)
    files = parts(data)
    xml_parts = sorted(n for n in files if n.endswith((".xml", ".rels")))
    junk = ["-1", "0", "abc", "A0", "ZZZZ1", "1" * 300, "", "&#0;", "XFD1048577", "3.5"]
    for i in range(count):
        name = rng.choice(xml_parts)
        body = bytearray(files[name])
        how = rng.randrange(4)
        if how == 0 and body:
            for _ in range(rng.randint(1, 8)):
                body[rng.randrange(len(body))] = rng.randrange(256)
        elif how == 1:
            del body[rng.randrange(len(body) + 1):]
        elif how == 2:
            attrs = list(re.finditer(rb'\s(r|t|s|Id|Target)="[^"]*"', body))
            if attrs:
                m = rng.choice(attrs)
                value = rng.choice(junk).encode()
                body[m.start():m.end()] = b" " + m.group(1) + b'="' + value + b'"'
        else:
            values = list(re.finditer(rb"<v>[^<]*</v>", body))
            if values:
                m = rng.choice(values)
                body[m.start():m.end()] = b"<v>" + rng.choice(junk).encode() + b"</v>"
        yield f"{i} {name} #{how}", rezip({**files, name: bytes(body)})


def lint(path: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["lint", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"traceback on {path.name}: {result.exception!r}")
    return result.exit_code, result.stdout, result.stderr


def answer_refuses(path: Path) -> bool:
    try:
        read_workbook(path)
    except QuestionnaireError:
        return True
    return False


EXPECTED = {
    "garbage sheet": r"sheet '[^']+' \(xl/worksheets/sheet\d+\.xml\) is not well-formed XML",
    "boolean abc": r"cell [A-Z]+\d+: a true/false cell holding 'abc' \(it must be 0 or 1\)",
    "empty shared strings": r"cell [A-Z]+\d+: refers to shared string '\d+', but the "
                            r"workbook's shared-strings table has 0 entries",
    "cell r=-1": r"cell reference '-1' is not a cell like B7",
}


def check_named(data: bytes, tmp_path: Path) -> None:
    for what, damaged in named_damages(data).items():
        path = tmp_path / f"{what.replace(' ', '-')}.xlsx"
        path.write_bytes(damaged)
        code, out, err = lint(path)
        assert (code, out) == (2, ""), (what, err)
        assert re.match(rf"error: {re.escape(str(path))}: .*{EXPECTED[what]}", err), (what, err)
        assert answer_refuses(path), what  # answer refuses the same copy


def check_random(data: bytes, tmp_path: Path, count: int) -> None:
    for what, damaged in random_damages(data, count, seed=11):
        path = tmp_path / "copy.xlsx"
        path.write_bytes(damaged)
        code, _, err = lint(path)
        assert code in (0, 1, 2), what
        # lint reads workbooks exactly as answer does: it refuses what answer refuses,
        # and otherwise exits 2 only when the (readable) copy has no answer column left
        refused = answer_refuses(path)
        assert code == 2 if refused else code in (0, 1) or "no answer column" in err, \
            (what, err)
        if code == 2:
            assert err.startswith(f"error: {path}: "), (what, err)


def test_damaged_copies_of_a_small_workbook(tmp_path: Path) -> None:
    data = small_workbook()
    check_named(data, tmp_path)
    check_random(data, tmp_path, 120)


def test_damaged_copies_of_the_caiq_workbook(shared_data: Path, tmp_path: Path) -> None:
    source = shared_data / CAIQ
    if not source.is_file():
        pytest.skip(f"the CAIQ workbook is not at {source}")
    data = source.read_bytes()
    check_named(data, tmp_path)
    check_random(data, tmp_path, 60)
