"""Guards around the customer's file: zip bombs, XML entities, formula injection, atomic output.

Choices, documented in docs/questionnaires.md:

- A workbook is refused before anything parses it when it has more than
  :data:`MAX_MEMBERS` parts, more than :data:`MAX_TOTAL_BYTES` uncompressed,
  or a part larger than 1 MiB compressing better than :data:`MAX_RATIO` to 1.
- XML is parsed with the standard library only after checking that the part
  has no ``<!DOCTYPE`` or ``<!ENTITY`` (OOXML never needs one), so entity
  expansion and external entities cannot happen. No extra dependency needed.
- Answer text starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return
  gets a leading apostrophe in every format. XLSX cells are written as inline
  strings, which spreadsheet programs never evaluate; the apostrophe also
  protects a later edit or CSV export. (A quotePrefix style would need a new
  entry in styles.xml, and we change nothing but the answered cells.)
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO
from xml.etree import ElementTree as ET

from compliance.questionnaire.types import QuestionnaireError

MAX_MEMBERS = 10_000
MAX_TOTAL_BYTES = 512 * 1024 * 1024
MAX_RATIO = 200
RATIO_FLOOR_BYTES = 1024 * 1024
MAX_INPUT_BYTES = 200 * 1024 * 1024
MAX_CELL_CHARS = 32_767

_DTD = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# XML 1.0 forbids most C0 controls even when escaped.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def check_input_size(path: Path) -> None:
    size = path.stat().st_size
    if size > MAX_INPUT_BYTES:
        raise QuestionnaireError(
            f"{path}: file is {size} bytes, more than the {MAX_INPUT_BYTES} byte limit"
        )


def check_zip(path: Path, zf: zipfile.ZipFile) -> None:
    """Refuse zip bombs: too many members, too large uncompressed, implausible ratios."""
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise QuestionnaireError(
            f"{path}: workbook has {len(infos)} parts, more than the {MAX_MEMBERS} limit"
        )
    total = 0
    for info in infos:
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise QuestionnaireError(
                f"{path}: workbook expands to more than {MAX_TOTAL_BYTES} bytes; refused"
            )
        if info.file_size > RATIO_FLOOR_BYTES:
            ratio = info.file_size / max(info.compress_size, 1)
            if ratio > MAX_RATIO:
                raise QuestionnaireError(
                    f"{path}: part {info.filename} compresses {ratio:.0f}:1 "
                    f"(limit {MAX_RATIO}:1); refused as a possible zip bomb"
                )


def open_zip(path: Path) -> zipfile.ZipFile:
    """Open a workbook package after the size, bomb and DTD checks; the message names the file."""
    check_input_size(path)
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise QuestionnaireError(f"{path}: not a readable XLSX/XLSM workbook ({exc})") from exc
    try:
        check_zip(path, zf)
        for info in zf.infolist():
            if info.filename.endswith((".xml", ".rels", ".vml")):
                no_dtd(path, info.filename, zf.read(info))
    except Exception:
        zf.close()
        raise
    return zf


def no_dtd(path: Path, part: str, data: bytes) -> None:
    if _DTD.search(data[:4096]) or (b"<!" in data and _DTD.search(data)):
        raise QuestionnaireError(f"{path}: part {part} declares a DTD or entity; refused")


def parse_xml(path: Path, part: str, data: bytes) -> ET.Element:
    """Parse one package part with the standard library after refusing DTDs."""
    no_dtd(path, part, data)
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise QuestionnaireError(f"{path}: part {part} is not well-formed XML ({exc})") from exc


def neutralise(text: str) -> str:
    """Make text inert in spreadsheets: a leading apostrophe before formula-like starts."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def xml_clean(text: str) -> str:
    return _XML_ILLEGAL.sub("", text)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def same_file(a: Path, b: Path) -> bool:
    if a.resolve() == b.resolve():
        return True
    with contextlib.suppress(OSError):
        return os.path.samefile(a, b)
    return False


def refuse_overwrite(input_path: Path, out_path: Path) -> None:
    if same_file(input_path, out_path):
        raise QuestionnaireError(
            f"{out_path}: refusing to overwrite the input questionnaire; choose another --out"
        )


@contextlib.contextmanager
def atomic_output(out_path: Path, mode: str = "wb", **kwargs: object) -> Iterator[IO]:  # type: ignore[type-arg]
    """Write to a temp file beside ``out_path``, fsync, then ``os.replace`` it into place."""
    out_path = Path(out_path)
    directory = out_path.parent if str(out_path.parent) else Path(".")
    if not directory.is_dir():
        raise QuestionnaireError(f"{out_path}: output folder {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{out_path.name}.", suffix=".tmp", dir=directory)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, mode, **kwargs) as handle:  # type: ignore[call-overload]
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, out_path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
