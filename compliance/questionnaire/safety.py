"""Guards around the customer's file: zip bombs, XML entities, formula injection, atomic output.

Choices, documented in docs/questionnaires.md:

- A workbook is refused before anything parses it when it has more than
  :data:`MAX_MEMBERS` parts, more than :data:`MAX_TOTAL_BYTES` uncompressed,
  or a part larger than 1 MiB compressing better than :data:`MAX_RATIO` to 1.
- XML is parsed with the standard library only after checking that the part
  has no ``<!DOCTYPE`` or ``<!ENTITY`` (OOXML never needs one), so entity
  expansion and external entities cannot happen. No extra dependency needed.
  The check reads the part in its own encoding (a byte-order mark, the
  UTF-16/UTF-32 patterns of XML 1.0 Appendix F, or the encoding declaration)
  and then asks expat itself whether the prolog declares a document type, so
  a UTF-16 or UTF-32 DTD is refused like a UTF-8 one.
- :func:`check_workbook` runs every workbook check (size, legacy/encrypted
  container, zip bomb, DTD) in one call, for any reader about to open a
  workbook (``compliance answer`` here; ``compliance lint`` before openpyxl).
- Answer text starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return
  gets a leading apostrophe in every format. XLSX cells are written as inline
  strings, which spreadsheet programs never evaluate; the apostrophe also
  protects a later edit or CSV export. (A quotePrefix style would need a new
  entry in styles.xml, and we change nothing but the answered cells.)
"""

from __future__ import annotations

import codecs
import contextlib
import os
import re
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO
from xml.etree import ElementTree as ET
from xml.parsers import expat

from compliance.atomic import clean_leftovers, file_mode, owned_temp_file, writing_to
from compliance.questionnaire.types import QuestionnaireError

MAX_MEMBERS = 10_000
MAX_TOTAL_BYTES = 512 * 1024 * 1024
MAX_RATIO = 200
RATIO_FLOOR_BYTES = 1024 * 1024
MAX_INPUT_BYTES = 200 * 1024 * 1024
MAX_CELL_CHARS = 32_767

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .xls, or a password-protected .xlsx
_DTD = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_DTD_TEXT = re.compile(r"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
# XML 1.0 Appendix F: byte-order marks (longest first), then the first four bytes of "<?xm".
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_NO_BOM = {
    b"<\0\0\0": "utf-32-le",
    b"\0\0\0<": "utf-32-be",
    b"<\0?\0": "utf-16-le",
    b"\0<\0?": "utf-16-be",
    b"\x4c\x6f\xa7\x94": "cp500",  # EBCDIC
}
_DECLARED = re.compile(r"""^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# XML 1.0 forbids most C0 controls even when escaped.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def check_workbook(path: Path, display: str | None = None) -> None:
    """Every safety check on a workbook, before anything parses it; call it before opening one.

    Refuses (raising :class:`QuestionnaireError`, a :class:`~compliance.diagnostics.UserError`
    whose message starts with ``display``, default ``str(path)``) a file over
    :data:`MAX_INPUT_BYTES`, a legacy or encrypted OLE container, a file that is not a zip,
    a zip bomb (:func:`check_zip`), and any XML part declaring a DTD or entity, in whatever
    encoding (:func:`no_dtd`). Returns None when the workbook is safe to open."""
    with open_zip(path, display):
        pass


def check_input_size(path: Path, display: str | None = None) -> None:
    where = display or str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise QuestionnaireError(f"{where}: cannot read ({exc.strerror or exc})") from exc
    _refuse_size(size, where)


def _refuse_size(size: int, where: str) -> None:
    if size > MAX_INPUT_BYTES:
        raise QuestionnaireError(
            f"{where}: file is {size} bytes, more than the {MAX_INPUT_BYTES} byte limit"
        )


def read_input(path: Path, display: str | None = None) -> bytes:
    """The bytes of a questionnaire, read at most :data:`MAX_INPUT_BYTES` (one byte more
    to tell), whatever its size; a FIFO or device is refused instead of blocking."""
    from compliance.paths import TooLarge, read_file

    where = display or str(path)
    try:
        return read_file(path, max_bytes=MAX_INPUT_BYTES)
    except TooLarge:
        raise QuestionnaireError(
            f"{where}: file is larger than {MAX_INPUT_BYTES} bytes; refused") from None
    except OSError as exc:
        raise QuestionnaireError(f"{where}: cannot read ({exc.strerror or exc})") from exc


def refuse_ole(path: Path, display: str | None = None) -> None:
    """Refuse a legacy .xls or a password-protected workbook (both OLE containers)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(len(OLE_MAGIC))
    except OSError as exc:
        raise QuestionnaireError(f"{display or path}: cannot read ({exc.strerror or exc})") from exc
    _refuse_ole_head(head, display or str(path))


def _refuse_ole_head(head: bytes, where: str) -> None:
    if head == OLE_MAGIC:
        raise QuestionnaireError(
            f"{where}: a legacy .xls or password-protected workbook; save an "
            "unencrypted .xlsx copy and answer that"
        )


def check_zip(path: Path | str, zf: zipfile.ZipFile) -> None:
    """Refuse zip bombs: too many members, too large uncompressed, implausible ratios.

    ``path`` is only used in messages (pass the display name)."""
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


#: Bytes read from a zip member at a time: what decompression may produce in one step.
READ_CHUNK = 64 * 1024
#: The most one part may really expand to, whatever its headers declare.
MAX_PART_BYTES = 128 * 1024 * 1024


class WorkbookZip:
    """A workbook package whose parts are read with a cap on the bytes they REALLY expand to.

    ``zipfile.ZipFile.read`` trusts the sizes in the headers and inflates a part in one
    call of up to 2 GiB: a part declaring 900 KB that inflates to 1.2 GB takes that much
    memory before anything can refuse it. :meth:`read` streams the part in
    :data:`READ_CHUNK` steps, counting the bytes actually produced against
    :data:`MAX_PART_BYTES` per part, :data:`MAX_TOTAL_BYTES` for the whole package and
    :data:`MAX_RATIO` to 1 over the compressed size; only stored and deflated parts
    (all OOXML uses) are read. Any damage (bad CRC, a truncated stream) is a
    :class:`QuestionnaireError` naming the part.
    """

    def __init__(self, zf: zipfile.ZipFile, where: str) -> None:
        self.zf = zf
        self.where = where
        self.total = 0  # bytes produced so far, all parts together
        self.comment = zf.comment

    def __enter__(self) -> WorkbookZip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.zf.close()

    def infolist(self) -> list[zipfile.ZipInfo]:
        return self.zf.infolist()

    def namelist(self) -> list[str]:
        return self.zf.namelist()

    def read(self, member: str | zipfile.ZipInfo) -> bytes:
        """The part's bytes; a part the package does not hold is a QuestionnaireError."""
        try:
            info = member if isinstance(member, zipfile.ZipInfo) else self.zf.getinfo(member)
        except KeyError:
            raise QuestionnaireError(
                f"{self.where}: part {member} is missing (the workbook refers to it but does "
                "not hold it); the workbook is damaged") from None
        name = info.filename
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise QuestionnaireError(
                f"{self.where}: part {name} uses compression method {info.compress_type}; "
                "workbooks use deflate, so it is refused")
        chunks: list[bytes] = []
        size = 0
        try:
            with self.zf.open(info) as handle:
                while chunk := handle.read(READ_CHUNK):
                    size += len(chunk)
                    self.total += len(chunk)
                    self._bound(name, size, info.compress_size)
                    chunks.append(chunk)
        except (zipfile.BadZipFile, zlib.error, OSError, RuntimeError, NotImplementedError,
                EOFError, ValueError) as exc:
            raise QuestionnaireError(
                f"{self.where}: not a readable XLSX/XLSM workbook (part {name}: {exc})") from exc
        return b"".join(chunks)

    def _bound(self, name: str, size: int, compressed: int) -> None:
        if size > MAX_PART_BYTES:
            raise QuestionnaireError(
                f"{self.where}: part {name} expands to more than {MAX_PART_BYTES} bytes; "
                "refused")
        if self.total > MAX_TOTAL_BYTES:
            raise QuestionnaireError(
                f"{self.where}: workbook expands to more than {MAX_TOTAL_BYTES} bytes; refused")
        if size > RATIO_FLOOR_BYTES and size / max(compressed, 1) > MAX_RATIO:
            raise QuestionnaireError(
                f"{self.where}: part {name} expands more than {MAX_RATIO}:1 "
                f"(already {size} bytes from {compressed}); refused as a possible zip bomb")


def open_zip(path: Path, display: str | None = None,
             handle: IO[bytes] | None = None) -> WorkbookZip:
    """Open a workbook package after the size, OLE, bomb and DTD checks; messages name
    ``display`` (default: the path). Its parts are read with caps on their real size.

    ``handle``: the workbook already opened by the caller (a
    :func:`compliance.paths.open_inside`, checked to be inside its folder when it was
    opened), read instead of ``path``; the caller closes it after the package."""
    where = display or str(path)
    source: Path | IO[bytes] = path
    if handle is None:
        check_input_size(path, where)
        refuse_ole(path, where)
    else:
        _refuse_size(os.fstat(handle.fileno()).st_size, where)
        _refuse_ole_head(handle.read(len(OLE_MAGIC)), where)
        handle.seek(0)
        source = handle
    try:
        zf = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise QuestionnaireError(f"{where}: not a readable XLSX/XLSM workbook ({exc})") from exc
    package = WorkbookZip(zf, where)
    try:
        check_zip(where, zf)
        for info in zf.infolist():
            if info.filename.endswith((".xml", ".rels", ".vml")):
                no_dtd(where, info.filename, package.read(info))
        package.total = 0  # the readers count again
    except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as exc:
        zf.close()  # a corrupt, encrypted or unsupported member
        raise QuestionnaireError(f"{where}: not a readable XLSX/XLSM workbook ({exc})") from exc
    except BaseException:
        zf.close()
        raise
    return package


def xml_encoding(data: bytes) -> str | None:
    """The encoding an XML parser would read ``data`` in (BOM, Appendix F, declaration);
    None for plain UTF-8/ASCII-compatible data with no other declared encoding."""
    for bom, by_bom in _BOMS:
        if data.startswith(bom):
            return None if by_bom == "utf-8" else by_bom
    codec = _NO_BOM.get(data[:4])
    if codec is not None and codec != "cp500":
        return codec
    m = _DECLARED.match(data[:256].decode(codec or "latin-1"))
    if m is None:
        return codec
    try:
        name = codecs.lookup(m.group(1)).name
    except LookupError:
        return codec
    return None if name in ("utf-8", "ascii") else name


class _Declared(Exception):
    """Raised from an expat handler: the prolog declares a document type or an entity."""


class _Started(Exception):
    """Raised from an expat handler: the root element began, so no DTD can follow."""


def _expat_sees_dtd(data: bytes) -> bool:
    """Whether expat, reading ``data`` exactly as ElementTree would, meets a DOCTYPE or
    entity declaration before the root element (parsing stops at the first element)."""

    def declared(*_args: object) -> None:
        raise _Declared

    def started(*_args: object) -> None:
        raise _Started

    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = declared
    parser.EntityDeclHandler = declared
    parser.StartElementHandler = started
    try:
        parser.Parse(data, True)
    except _Declared:
        return True
    except (_Started, expat.ExpatError, ValueError, LookupError):
        return False  # not well-formed or an unknown encoding: the real parse reports it
    return False


def no_dtd(path: Path | str, part: str, data: bytes) -> None:
    """Refuse a part that declares a DTD or an entity, whatever its encoding."""
    found = bool(_DTD.search(data[:4096]) or (b"<!" in data and _DTD.search(data)))
    if not found:
        codec = xml_encoding(data)
        if codec is not None:
            text = data.decode(codec, errors="replace")
            found = bool(_DTD_TEXT.search(text))
    if not found:
        found = _expat_sees_dtd(data)
    if found:
        raise QuestionnaireError(f"{path}: part {part} declares a DTD or entity; refused")


def parse_xml(path: Path | str, part: str, data: bytes) -> ET.Element:
    """Parse one package part with the standard library after refusing DTDs."""
    no_dtd(path, part, data)
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise QuestionnaireError(f"{path}: part {part} is not well-formed XML ({exc})") from exc


def not_utf8(data: bytes, index: int) -> str:
    """``line:col: not valid UTF-8 (byte 0xe9)`` for the bad byte at ``index``, as
    ``compliance check`` words it (the column counts bytes)."""
    line = data.count(b"\n", 0, index) + 1
    col = index - (data.rfind(b"\n", 0, index) + 1) + 1
    return f"{line}:{col}: not valid UTF-8 (byte 0x{data[index]:02x})"


def neutralise(text: str) -> str:
    """Make text inert in spreadsheets: a leading apostrophe before formula-like starts."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def xml_clean(text: str) -> str:
    return _XML_ILLEGAL.sub("", text)


def same_file(a: Path, b: Path) -> bool:
    if a.resolve() == b.resolve():
        return True
    with contextlib.suppress(OSError):
        return os.path.samefile(a, b)
    return False


def refuse_overwrite(
    input_path: Path, out_path: Path, what: str = "questionnaire", role: str = ""
) -> None:
    """Refuse an output that is an input file (symlinks and hard links resolved).

    ``what`` names the input (questionnaire, mapping); ``role`` says which output this is
    when it is not --out itself (e.g. "it would be the review file of --out caiq.xlsx")."""
    if same_file(Path(input_path), Path(out_path)):
        named = "" if Path(input_path) == Path(out_path) else f" {input_path}"
        raise QuestionnaireError(
            f"{out_path}: refusing to overwrite the input {what}{named}"
            f"{f' ({role})' if role else ''}; choose another --out"
        )


@contextlib.contextmanager
def atomic_output(out_path: Path, mode: str = "wb", **kwargs: object) -> Iterator[IO]:  # type: ignore[type-arg]
    """Write to a temp file beside ``out_path``, fsync, then ``os.replace`` it into place.

    A folder that cannot be written (permissions, a full disk, a read-only mount) is a
    :class:`~compliance.atomic.CannotWrite` ``cannot write <out_path>: <reason>``, as for
    every writer, not a traceback."""
    out_path = Path(out_path)
    directory = out_path.parent if str(out_path.parent) else Path(".")
    if not directory.is_dir():
        raise QuestionnaireError(f"{out_path}: output folder {directory} does not exist")
    with writing_to(out_path):  # CannotWrite: "cannot write <out_path>: <reason>", exit 2
        clean_leftovers(directory, f".{out_path.name}.", ".tmp")  # left by killed runs
        fd, tmp = owned_temp_file(directory, f".{out_path.name}.")
    try:
        with writing_to(out_path):
            os.chmod(tmp, file_mode())
            with os.fdopen(fd, mode, **kwargs) as handle:  # type: ignore[call-overload]
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, out_path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
