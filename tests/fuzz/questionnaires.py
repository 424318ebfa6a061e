"""Questionnaire inputs for the `lint` and `answer` fuzz targets: seeds and workbook edits.

Seeds built here (always available): small CSV and JSON questionnaires and two
workbooks made with openpyxl. Seeds from ../shared/data/questionnaires (the CSA
CAIQ workbook and dataset, a VSAQ file, the AICM CSV): :func:`shared_questionnaires`,
which skips visibly when that data is absent.

A workbook is edited at the level a damaged file is damaged: one package part's
XML edited as text, replaced by garbage, dropped or duplicated, and the zip bytes
themselves flipped or cut.
"""

from __future__ import annotations

import functools
import io
import json
import tempfile
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import strategies as st

from tests.conftest import SHARED_DATA
from tests.fuzz.strategies import mutated
from tests.questionnaire.workbooks import rich_workbook

CSV_SEEDS = [
    "ID,Question,Answer,Comments\r\nQ1,Is outbound network traffic filtered?,,\r\n"
    "Q2,Are agent credentials short-lived?,Yes,Tokens expire after one hour.\r\n",
    "\ufeffID;Question;Answer;Comments\r\n"
    'Q1;"Is outbound network access restricted;\r\nand logged?";;\r\n'
    "Network;;;\r\n"
    'Q2;Are agent credentials short-lived?;"";"prefilled"\r\n'
    "Q3;Do you review every agent change?\r\n",
    "Question\tResponse\nIs the sandbox safe?\tThe sandbox is 100% secure.\n",
]

JSON_SEEDS = [
    json.dumps({"questions": [{"id": "Q1", "question": "Is egress filtered?"},
                              {"id": "Q2", "text": "Are agent changes reviewed?"}]}),
    json.dumps([{"id": "A&A-01.1", "question": "Are audit policies established?"}]),
    '// VSAQ\n{"questionnaire": [{"type": "block", "text": "Network", "items": [\n'
    '  {"type": "radiogroup", "id": "net_egress", "text": "Is egress " + "restricted?",\n'
    '   "choices": [{"net_egress_yes": "Yes"}, {"net_egress_no": "No"}]},\n'
    '  {"type": "line", "id": "net_notes", "text": "Describe the allowlist."}]}]}\n',
]


@functools.cache
def built_workbooks() -> tuple[bytes, ...]:
    """The rich test workbook (x14 validations, hidden sheet, merged cells, formulas)
    and a plain ID/Question/Answer/Comments sheet."""
    with tempfile.TemporaryDirectory() as folder:
        rich = rich_workbook(Path(folder) / "rich.xlsx").read_bytes()
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.append(["ID", "Question", "Answer", "Comments"])
        ws.append(["Q1", "Is outbound network traffic filtered?", None, None])
        ws.append(["Q2", "Is the allowlist complete?", "Yes", "The allowlist is complete."])
        ws.append(["Q3", "Describe session logging.", 12, True])
        plain = io.BytesIO()
        wb.save(plain)
    return rich, plain.getvalue()


def shared_questionnaires() -> dict[str, bytes]:
    """Suffix -> bytes of one real questionnaire each (XLSX, CSV head, JSON), or a
    visible skip when ../shared/data/questionnaires is absent."""
    where = SHARED_DATA / "questionnaires"
    if not where.is_dir():
        pytest.skip(f"third-party data not present at {where} (needs ../shared/data)")
    return _shared(where)


@functools.cache
def _shared(where: Path) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for suffix, rel in ((".xlsx", "caiq-v4.0.3/CAIQv4.0.3.xlsx"),
                        (".json", "vsaq/physical_and_datacenter.json"),
                        (".csv", "aicm-caiq-1.1.0/aicm-caiq-1.1.0-questions.csv")):
        path = where / rel
        if path.is_file():
            data = path.read_bytes()
            if suffix == ".csv":  # the header and the first questions are enough
                data = b"".join(data.splitlines(keepends=True)[:40])
            found[suffix] = data
    if not found:
        pytest.skip(f"none of the expected questionnaires under {where}")
    return found


def _parts(book: bytes) -> list[tuple[zipfile.ZipInfo, bytes]]:
    with zipfile.ZipFile(io.BytesIO(book)) as zf:
        return [(info, zf.read(info)) for info in zf.infolist()]


def _zip(parts: list[tuple[str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts:
            zf.writestr(name, data)
    return out.getvalue()


@st.composite
def edited_workbook(draw: st.DrawFn, book: bytes) -> bytes:
    """``book`` with one part edited, replaced, dropped or duplicated, or its zip bytes
    flipped or truncated."""
    op = draw(st.sampled_from(["xml", "xml", "xml", "garbage", "drop", "dup", "flip",
                               "truncate"]))
    if op == "flip":
        raw = bytearray(book)
        for _ in range(draw(st.integers(1, 8))):
            raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
        return bytes(raw)
    if op == "truncate":
        return book[:draw(st.integers(0, len(book) - 1))]
    parts = [(info.filename, data) for info, data in _parts(book)]
    i = draw(st.integers(0, len(parts) - 1))
    name, data = parts[i]
    if op == "xml":
        text = data.decode("utf-8", "surrogateescape")
        parts[i] = (name, draw(mutated(text)).encode("utf-8", "surrogateescape"))
    elif op == "garbage":
        parts[i] = (name, draw(st.binary(max_size=64)))
    elif op == "drop":
        del parts[i]
    else:
        parts.append((name, data))
    return _zip(parts)


def questionnaire_inputs(suffix: str, shared: dict[str, bytes] | None) -> st.SearchStrategy[bytes]:
    """Edited questionnaires of one format (``.csv``, ``.json`` or ``.xlsx``): the built
    seeds, plus the shared one of that format when ``shared`` is given."""
    if suffix == ".xlsx":
        books = list(built_workbooks()) if shared is None else [shared[".xlsx"]]
        return st.sampled_from(books).flatmap(edited_workbook)
    seeds = (CSV_SEEDS if suffix == ".csv" else JSON_SEEDS) if shared is None \
        else [shared[suffix].decode("utf-8")]
    return st.sampled_from(seeds).flatmap(mutated).map(
        lambda t: t.encode("utf-8", "surrogatepass"))
