"""TOML via tomllib, with key lines found by a line scan (tomllib keeps no positions).

We track the current ``[table]`` / ``[[array]]`` header and record the line of
each ``key =`` under it, so ``sandbox_workspace_write.network_access`` points at
its own line. Multi-line strings and arrays are skipped over, not scanned.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from compliance.adapters.base import KeyPath, evidence_error
from compliance.bounds import line_column, long_toml_number

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_ATOM = r"""(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)"""
_KEY = re.compile(rf"^\s*({_ATOM}(?:\s*\.\s*{_ATOM})*)\s*=")
_PART = re.compile(r"""\s*("([^"]*)"|'([^']*)'|[A-Za-z0-9_-]+)\s*(?:\.|$)""")
_ITEM = re.compile(r"""\"(?:[^\"\\]|\\.)*\"|'[^']*'|[-+\w.:]+""")
_ERR_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def _split_key(raw: str) -> tuple[str, ...]:
    parts = []
    for m in _PART.finditer(raw):
        parts.append(m.group(2) if m.group(2) is not None else
                     m.group(3) if m.group(3) is not None else m.group(1))
    return tuple(parts)


def _scan(text: str) -> dict[KeyPath, tuple[int, int]]:
    positions: dict[KeyPath, tuple[int, int]] = {(): (1, 1)}
    table: tuple[str | int, ...] = ()
    array_counts: dict[tuple[str | int, ...], int] = {}
    in_multiline: str | None = None
    depth = 0
    array: tuple[str | int, ...] = ()
    items = 0
    for lineno, line in enumerate(text.splitlines(), start=1):
        if in_multiline:
            if line.count(in_multiline) % 2 == 1:
                in_multiline = None
            continue
        if depth > 0:
            if depth == 1:
                items = _items(line, 0, array, items, lineno, positions)
            depth += _brackets(line)
            continue
        header = _HEADER.match(line)
        if header and not _KEY.match(line):
            keys = _split_key(header.group(2))
            if header.group(1) == "[[":
                index = array_counts.get(keys, 0)
                array_counts[keys] = index + 1
                table = (*keys, index)
                positions.setdefault(keys, (lineno, line.index("[") + 1))
            else:
                table = keys
            positions.setdefault(table, (lineno, line.index("[") + 1))
            continue
        key = _KEY.match(line)
        if not key:
            continue
        full = (*table, *_split_key(key.group(1)))
        positions.setdefault(full, (lineno, len(line) - len(line.lstrip()) + 1))
        rest = line[key.end():]
        for quote in ('"""', "'''"):
            if rest.count(quote) % 2 == 1:
                in_multiline = quote
        if in_multiline is None:
            depth = _brackets(rest)
            if rest.strip().startswith("["):
                array = full
                start = key.end() + rest.index("[") + 1
                items = _items(line, start, array, 0, lineno, positions)
    return positions


def _brackets(text: str) -> int:
    stripped = re.sub(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'", "", text).split("#")[0]
    return stripped.count("[") - stripped.count("]")


def _items(line: str, start: int, array: tuple[str | int, ...], count: int, lineno: int,
           positions: dict[KeyPath, tuple[int, int]]) -> int:
    """Record the position of each scalar item of a one-level array on this line."""
    body = line[start:].split("#")[0] if "#" not in line[start:].split('"')[0] else ""
    for m in _ITEM.finditer(body):
        if m.group().strip() in ("", "]", "[", ","):
            continue
        positions.setdefault((*array, count), (lineno, start + m.start() + 1))
        count += 1
    return count


def parse_toml(text: str, path: str) -> tuple[dict[str, Any], dict[KeyPath, tuple[int, int]]]:
    """Parse TOML; errors become EvidenceError at tomllib's reported line and column."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _ERR_AT.search(str(exc))
        line, column = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        message = _ERR_AT.sub("", str(exc)).strip()
        raise evidence_error(path, line, column, f"invalid TOML: {message}") from None
    except RecursionError:
        raise evidence_error(path, 1, 1, "invalid TOML: nested too deeply") from None
    except ValueError:  # tomllib converts integers itself: Python's 4,300-digit limit
        data = None
    long = long_toml_number(text)
    if long is not None:
        line, column = line_column(text, long.offset)
        raise evidence_error(path, line, column, f"invalid TOML: {long}")
    if data is None:
        raise evidence_error(path, 1, 1, "invalid TOML: a value cannot be converted")
    return data, _scan(text)
