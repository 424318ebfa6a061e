"""Texts to judge from files, each with a way back to its position in the file.

``compliance lint`` reads prose files (Markdown, plain text, anything that is
UTF-8 text), the text of HTML files' elements, the string values of YAML and
JSON files, and the answer columns of CSV and XLSX questionnaires (header
cells such as Answer, Response, Comments, Notes, Additional Information; or
columns named with ``--column``). A
questionnaire answer is judged together with its question, so "Yes" to "Is
the allowlist complete?" is the overclaim it would be.

A folder stands for the files under it with a known suffix (:data:`FOLDER_SUFFIXES`),
in sorted order, skipping hidden names and dependency folders; a link to a folder
inside it is followed, and each real folder is walked once. Nothing outside the
folder is read: a link (to a file or a folder) that resolves outside it is refused,
naming the link and where it leads, and every file found is read through
:func:`compliance.paths.read_inside`, which resolves its links again as it opens it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compliance.diagnostics import Position, UserError
from compliance.judge.csvpos import csv_cells
from compliance.judge.segment import line_col, line_starts

ANSWER_HEADER = re.compile(
    r"\b(?:answers?|responses?|comments?|notes?|additional info(?:rmation)?|explanations?|"
    r"justifications?|remarks?|implementation description|description of implementation|"
    r"vendor response|supplier response|details)\b", re.IGNORECASE)
QUESTION_HEADER = re.compile(r"\b(?:questions?|requirements?|items?|queries|query)\b",
                             re.IGNORECASE)
HEADER_SCAN_ROWS = 10


@dataclass(frozen=True)
class Text:
    """One text to judge, how to locate offsets in it, and optional context."""

    text: str
    locate: Callable[[int], Position]
    question: str | None = None
    label: str = ""


def _prose_locator(display: str, text: str, base: int = 0,
                   offsets: list[int] | None = None) -> Callable[[int], Position]:
    starts = line_starts(text)

    def locate(offset: int) -> Position:
        raw = offsets[min(offset, len(offsets) - 1)] if offsets else base + offset
        line, col = line_col(starts, raw)
        return Position(display, line, col)
    return locate


#: Files up to this size that are plain UTF-8 are read here; anything else goes to the
#: loader's strict reader, which words every refusal (and holds the real size limit).
#: Importing that reader imports the whole loader (pydantic models, 0.13 s): a third
#: of `compliance lint` start-up for a file that needs none of it.
FAST_READ_BYTES = 8 * 1024 * 1024


def refused(display: str, path: Path, exc: Exception) -> UserError:
    """``DISPLAY: refusing to read it: it resolves outside docs/ (...); it is a link to
    /etc/passwd``: a path found in a folder that leads out of it."""
    import os

    link = f"; it is a link to {os.path.realpath(path)}" if path.is_symlink() else ""
    return UserError(f"{display}: refusing to read it: it {exc}{link}")


def _reader(path: Path, display: str, root: Path | None) -> Callable[[int], bytes]:
    """``read(max_bytes)`` for ``path``: found under the folder ``root`` (None: named on
    the command line), it is read only while it resolves inside ``root``."""
    from compliance.paths import OutsideFolder, read_file, read_inside

    def read(limit: int) -> bytes:
        if root is None:
            return read_file(path, max_bytes=limit)
        try:
            return read_inside(root, path.relative_to(root).as_posix(), max_bytes=limit)
        except OutsideFolder as exc:
            raise refused(display, path, exc) from None
    return read


def read_text(path: Path, display: str, root: Path | None = None) -> str:
    """Strict UTF-8 text, or :class:`UserError` naming the file (binary, encoding, I/O,
    outside ``root``)."""
    read = _reader(path, display, root)
    try:  # bounded: a larger file goes to the strict reader, which refuses it by name
        raw = read(FAST_READ_BYTES)
        if b"\x00" not in raw:
            return raw.decode("utf-8").removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError):
        pass
    from compliance.load.yamlpos import YamlLoadError
    from compliance.load.yamlpos import read_text as strict_read

    try:
        return strict_read(path, display, what="text file", read=read)
    except YamlLoadError as exc:
        d = exc.diagnostics[0] if exc.diagnostics else None
        where = f"{display}:{d.line}:{d.column}" if d else display
        raise UserError(f"{where}: {d.message if d else exc}") from None


def _header(rows: list[list[Any]], wanted: tuple[str, ...]
            ) -> tuple[int, list[int], int | None] | None:
    """The header row among the first rows: (index, answer columns, question column)."""
    for h, header in enumerate(rows[:HEADER_SCAN_ROWS]):
        answers, qcol = _columns(header, wanted)
        if answers:
            return h, answers, qcol
    return None


def _columns(header: list[Any], wanted: tuple[str, ...]) -> tuple[list[int], int | None]:
    names = [str(h).strip() if h is not None else "" for h in header]
    if wanted:
        low = {w.strip().lower() for w in wanted}
        answers = [i for i, n in enumerate(names) if n.lower() in low]
    else:
        answers = [i for i, n in enumerate(names) if ANSWER_HEADER.search(n)]
    questions = [i for i, n in enumerate(names)
                 if QUESTION_HEADER.search(n) and i not in answers]
    return answers, (questions[0] if questions else None)


def _csv_texts(path: Path, display: str, wanted: tuple[str, ...],
                root: Path | None) -> Iterator[Text]:
    text = read_text(path, display, root)
    rows = csv_cells(text)
    found = _header([[c.value for c in r] for r in rows], wanted)
    if found is None:
        raise NoAnswerColumns(_no_columns(display, wanted))
    h, answers, qcol = found
    for row in rows[h + 1:]:
        question = row[qcol].value if qcol is not None and qcol < len(row) else None
        for col in answers:
            if col < len(row) and row[col].value.strip():
                cell = row[col]
                yield Text(cell.value, _prose_locator(display, text, offsets=cell.offsets),
                           question or None)


def _xlsx_texts(path: Path, display: str, wanted: tuple[str, ...],
                root: Path | None) -> Iterator[Text]:
    """The answer cells of every sheet, read by ``compliance answer``'s own workbook reader
    (:func:`compliance.questionnaire.xlsx_read.read_workbook`): the same size, zip-bomb,
    DTD and damaged-cell refusals, each a positioned exit-2 error, never a traceback.
    Found under ``root``, the workbook is opened only while it resolves inside it."""
    from compliance.paths import OutsideFolder, open_inside
    from compliance.questionnaire.types import column_letter
    from compliance.questionnaire.xlsx_read import read_workbook

    if root is None:
        grids = read_workbook(path, display)
    else:
        try:
            with open_inside(root, path.relative_to(root).as_posix()) as handle:
                grids = read_workbook(path, display, handle)
        except OutsideFolder as exc:
            raise refused(display, path, exc) from None
        except OSError as exc:
            raise UserError(f"{display}: cannot read ({exc.strerror or exc})") from None
    found = False
    for grid in grids:
        header_rows = [[grid.get(r, c) for c in range(1, max(grid.cells.get(r, {0: ""})) + 1)]
                       for r in range(1, HEADER_SCAN_ROWS + 1)]
        header = _header(header_rows, wanted)
        if header is None:
            continue
        h, answers, qcol = header
        found = True
        for r in grid.rows():
            if r <= h + 1:
                continue
            q = grid.get(r, qcol + 1) if qcol is not None else ""
            for col in answers:
                value = grid.get(r, col + 1)
                if value.strip():
                    yield Text(value, _fixed(Position(display, r, col + 1)), q or None,
                               f"{grid.name}!{column_letter(col + 1)}{r}: ")
    if not found:
        raise NoAnswerColumns(_no_columns(display, wanted))


def _fixed(pos: Position) -> Callable[[int], Position]:
    """A locator for a cell: every offset maps to the cell itself."""
    def locate(_offset: int) -> Position:
        return pos
    return locate


def _no_columns(display: str, wanted: tuple[str, ...]) -> str:
    if wanted:
        return f"{display}: no column named {', '.join(wanted)} in the first rows"
    return (f"{display}: no answer column found (looked for headers like Answer, Response, "
            "Comments, Notes, Additional Information); name one with --column")


def _yaml_texts(path: Path, display: str, root: Path | None) -> Iterator[Text]:
    """The string values of every document in a YAML file (``---`` separated)."""
    from compliance.load.yamlpos import YamlLoadError, parse_yaml_stream

    text = read_text(path, display, root)
    try:
        docs = parse_yaml_stream(text, display)
    except YamlLoadError as exc:
        raise UserError(f"{display}: {exc}", exc.diagnostics) from None

    for doc in docs:
        # Iterative, and each aliased collection once (at its first path): alias chains
        # can nest deeper than Python's recursion limit while staying inside the budget.
        seen: set[int] = set()
        stack: list[tuple[Any, tuple[Any, ...]]] = [(doc.data, ())]
        while stack:
            node, at = stack.pop()
            if isinstance(node, dict | list):
                if id(node) in seen:
                    continue
                seen.add(id(node))
                items = node.items() if isinstance(node, dict) else enumerate(node)
                stack.extend(reversed([(v, (*at, k)) for k, v in items]))
            elif isinstance(node, str) and node.strip():
                yield Text(node, functools.partial(doc.locate_in_scalar, at))


def _html_texts(path: Path, display: str, root: Path | None) -> Iterator[Text]:
    """The text of an HTML file's elements (no tags, scripts or styles), located in it."""
    from compliance.judge.htmltext import html_text

    source = read_text(path, display, root)
    text, offsets = html_text(source)
    if text.strip():
        yield Text(text, _prose_locator(display, source, offsets=offsets))


def _json_texts(path: Path, display: str, root: Path | None) -> Iterator[Text]:
    """The string values of a JSON file, located through their escapes."""
    from compliance.judge.jsonpos import json_strings

    text = read_text(path, display, root)
    for value, offsets in json_strings(text, display):
        yield Text(value, _prose_locator(display, text, offsets=offsets))


#: What a folder given to ``compliance lint`` contributes: prose, YAML and questionnaires.
FOLDER_SUFFIXES = (".md", ".markdown", ".txt", ".rst", ".yaml", ".yml", ".json", ".csv",
                   ".tsv", ".xlsx", ".xlsm")
#: Read as HTML (the text of its elements) when named on the command line.
HTML_SUFFIXES = (".html", ".htm", ".xhtml")
#: Files read for their values or cells, not as prose of their own.
STRUCTURED_SUFFIXES = (".xlsx", ".xlsm", ".csv", ".tsv", ".yaml", ".yml", ".json",
                       *HTML_SUFFIXES)


def is_prose(path: Path) -> bool:
    """Is ``path`` judged as the prose it holds (Markdown, text, reStructuredText), where
    an inline suppression comment stands in the text itself?"""
    return path.suffix.lower() not in STRUCTURED_SUFFIXES
#: Folders a walk never enters (besides hidden ones): installed dependencies and caches.
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages", "venv"})


@dataclass(frozen=True)
class Target:
    """A file to lint and the name it is reported under; ``found``: met in a folder walk
    (where a CSV/XLSX without answer columns is skipped, not an error); ``root``: the
    folder it was found in, which it must resolve inside when it is read; ``refused``:
    why it is not read at all (a link out of that folder)."""

    path: Path
    display: str
    found: bool = False
    root: Path | None = None
    refused: UserError | None = None


def lint_targets(arguments: Iterable[str]) -> list[Target]:
    """Files for the command-line ``arguments``: a file as given, a folder walked.

    :class:`UserError` for a path that does not exist or a folder with nothing to lint.
    """
    import os

    from compliance.paths import OutsideFolder, resolve_inside

    out: list[Target] = []
    for arg in arguments:
        path = Path(arg)
        if not path.is_dir():
            if not path.exists():
                raise UserError(f"{arg}: no such file or folder")
            out.append(Target(path, arg))
            continue
        found: list[Target] = []
        visited = {os.path.realpath(path)}
        for folder, dirs, files in os.walk(path, followlinks=True):
            # links to folders inside it are followed, each real folder walked once (no
            # loops); a link out of it is refused, never listed
            keep = []
            for d in sorted(dirs):
                sub = Path(folder) / d
                if d.startswith(".") or d in SKIPPED_FOLDERS:
                    continue
                try:
                    real = str(resolve_inside(path, sub.relative_to(path).as_posix()))
                except OutsideFolder as exc:
                    found.append(Target(sub, str(sub), True, path, refused(str(sub), sub, exc)))
                    continue
                if real not in visited:
                    visited.add(real)
                    keep.append(d)
            dirs[:] = keep
            for name in sorted(files):
                if not name.startswith(".") and name.lower().endswith(FOLDER_SUFFIXES):
                    file = Path(folder) / name
                    found.append(Target(file, str(file), True, path))
        if not found:
            raise UserError(f"{arg}: no files to lint in this folder (looked for "
                            f"{', '.join(FOLDER_SUFFIXES)})")
        out.extend(found)
    return list({t.display: t for t in out}.values())


class NoAnswerColumns(UserError):
    """A CSV/XLSX file has no column to judge (none detected, or none of ``--column``)."""


def texts_of(path: Path, display: str, columns: tuple[str, ...] = (),
             root: Path | None = None) -> list[Text]:
    """Every text to judge in ``path``; :class:`UserError` when it cannot be read.

    ``root``: the folder ``path`` was found in; it is read only while it resolves
    inside it (see :class:`Target`)."""
    suffix = path.suffix.lower()
    if not path.is_file():
        raise UserError(f"{display}: {'not a regular file' if path.exists() else 'no such file'}")
    if suffix == ".xlsx" or suffix == ".xlsm":
        return list(_xlsx_texts(path, display, columns, root))
    if suffix in (".csv", ".tsv"):
        return list(_csv_texts(path, display, columns, root))
    if suffix in (".yaml", ".yml"):
        return list(_yaml_texts(path, display, root))
    if suffix == ".json":
        return list(_json_texts(path, display, root))
    if suffix in HTML_SUFFIXES:
        return list(_html_texts(path, display, root))
    text = read_text(path, display, root)
    return [Text(text, _prose_locator(display, text))]
