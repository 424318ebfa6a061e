"""CSV questionnaires: read with the file's own dialect, write back changing only answer fields.

The file is tokenised once with the span of every field kept, so the writer
replaces exactly the answered fields and leaves every other byte (quoting,
delimiter, line endings, BOM) as it was. UTF-8 only (with or without BOM);
anything else is refused with a message that says how to save it.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from compliance.questionnaire.grid import Grid
from compliance.questionnaire.safety import atomic_output, neutralise, not_utf8, read_input
from compliance.questionnaire.types import QuestionnaireError

BOM = "\ufeff"


@dataclass(slots=True)
class CsvSource:
    """The decoded text and where each field sits: spans[row-1][col-1] = (start, end)."""

    text: str
    bom: bool
    delimiter: str
    quotechar: str
    newline: str
    quote_all: bool
    spans: list[list[tuple[int, int]]] = field(default_factory=list)
    row_ends: list[int] = field(default_factory=list)


def decode(path: Path) -> tuple[str, bool]:
    data = read_input(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise QuestionnaireError(
            f"{path}:{not_utf8(data, exc.start)}; save it as 'CSV UTF-8' and retry"
        ) from exc
    if text.startswith(BOM):
        return text[1:], True
    return text, False


def sniff(text: str) -> tuple[str, str]:
    sample = text[:65536]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
        return dialect.delimiter, dialect.quotechar or '"'
    except csv.Error:
        return ",", '"'


def tokenise(text: str, delimiter: str, quotechar: str) -> CsvSource:
    """Split into fields keeping (start, end) spans; quoted fields may hold newlines."""
    newline = "\r\n" if "\r\n" in text else ("\r" if "\r" in text and "\n" not in text else "\n")
    src = CsvSource(text, False, delimiter, quotechar, newline, False)
    i, n = 0, len(text)
    row: list[tuple[int, int]] = []
    quoted = total = 0
    while i < n:
        start = i
        if text[i] == quotechar:
            quoted += 1
            i += 1
            while i < n:
                if text[i] == quotechar:
                    if i + 1 < n and text[i + 1] == quotechar:
                        i += 2
                        continue
                    i += 1
                    break
                i += 1
        while i < n and text[i] not in (delimiter, "\n", "\r"):
            i += 1
        row.append((start, i))
        total += 1
        if i < n and text[i] == delimiter:
            i += 1
            if i == n:
                row.append((i, i))
            continue
        src.spans.append(row)
        src.row_ends.append(i)
        row = []
        if i < n and text[i] == "\r":
            i += 1
        if i < n and text[i] == "\n":
            i += 1
    if row:
        src.spans.append(row)
        src.row_ends.append(n)
    src.quote_all = total > 0 and quoted / total > 0.9
    return src


def field_text(src: CsvSource, start: int, end: int) -> str:
    raw = src.text[start:end]
    q = src.quotechar
    if len(raw) >= 2 and raw[0] == q and raw.endswith(q):
        return raw[1:-1].replace(q + q, q)
    return raw


def read_csv(path: Path) -> tuple[Grid, CsvSource]:
    text, bom = decode(path)
    delimiter, quotechar = sniff(text)
    src = tokenise(text, delimiter, quotechar)
    src.bom = bom
    grid = Grid("")
    for r, spans in enumerate(src.spans, start=1):
        for c, (start, end) in enumerate(spans, start=1):
            grid.set(r, c, field_text(src, start, end))
    return grid, src


def encode_field(src: CsvSource, value: str) -> str:
    value = neutralise(value)
    q = src.quotechar
    needs = (
        src.quote_all
        or any(ch in value for ch in (src.delimiter, q, "\n", "\r"))
        or (value != value.strip())
    )
    return q + value.replace(q, q + q) + q if needs else value


def write_csv(src: CsvSource, cells: dict[tuple[int, int], str], out_path: Path) -> None:
    """Write ``src`` with ``cells[(row, col)]`` replaced; short rows get padded."""
    edits: list[tuple[int, int, str]] = []
    by_row: dict[int, dict[int, str]] = {}
    for (r, c), value in cells.items():
        if r > len(src.spans):
            raise QuestionnaireError(f"row {r} is beyond the end of the CSV")
        by_row.setdefault(r, {})[c] = encode_field(src, value)
    for r, values in by_row.items():
        spans = src.spans[r - 1]
        tail: list[str] = []
        for c in sorted(values):
            if c <= len(spans):
                start, end = spans[c - 1]
                edits.append((start, end, values[c]))
            else:
                tail.extend([""] * (c - len(spans) - len(tail) - 1) + [values[c]])
        if tail:
            end = src.row_ends[r - 1]
            edits.append((end, end, src.delimiter + src.delimiter.join(tail)))
    parts: list[str] = []
    pos = 0
    for start, end, value in sorted(edits):
        parts.append(src.text[pos:start])
        parts.append(value)
        pos = end
    parts.append(src.text[pos:])
    with atomic_output(out_path, "w", encoding="utf-8", newline="") as handle:
        handle.write((BOM if src.bom else "") + "".join(parts))
