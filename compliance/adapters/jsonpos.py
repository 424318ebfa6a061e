"""A small JSON / JSONC parser that keeps the line and column of every key and item.

The standard library's ``json`` module forgets positions, and devcontainer.json
is JSONC (``//`` and ``/* */`` comments, trailing commas). Errors are raised as
:class:`~compliance.adapters.base.EvidenceError` at the file's own line:col.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from compliance.adapters.base import EvidenceError, KeyPath, evidence_error
from compliance.bounds import MAX_NUMBER_DIGITS, digit_count, too_long_message

MAX_DEPTH = 200
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
#: Inside a string, what is neither its end, an escape nor a line break (taken as is).
_PLAIN = re.compile(r'[^"\\\n]+')
_BLANK = re.compile(r"[ \t\r\n]+")
_LOW_SURROGATE = re.compile(r"\\u(d[c-f][0-9a-f]{2})", re.IGNORECASE)
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class _Parser:
    def __init__(self, text: str, path: str, jsonc: bool) -> None:
        self.text = text
        self.path = path
        self.jsonc = jsonc
        self.i = 0
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
        self.positions: dict[KeyPath, tuple[int, int]] = {}
        self.depth = 0

    def pos(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def fail(self, message: str, offset: int | None = None) -> EvidenceError:
        line, column = self.pos(self.i if offset is None else offset)
        return evidence_error(self.path, line, column, f"invalid JSON: {message}")

    def skip(self) -> None:
        text = self.text
        while self.i < len(text):
            blank = _BLANK.match(text, self.i)
            if blank is not None:
                self.i = blank.end()
            elif self.jsonc and text.startswith("//", self.i):
                end = text.find("\n", self.i)
                self.i = len(text) if end < 0 else end
            elif self.jsonc and text.startswith("/*", self.i):
                end = text.find("*/", self.i + 2)
                if end < 0:
                    raise self.fail("unterminated /* comment")
                self.i = end + 2
            else:
                return

    def parse(self) -> Any:
        self.skip()
        self.positions[()] = self.pos(self.i)
        value = self.value(())
        self.skip()
        if self.i < len(self.text):
            raise self.fail("extra data after the document")
        return value

    def value(self, path: KeyPath) -> Any:
        self.skip()
        if self.i >= len(self.text):
            raise self.fail("unexpected end of file")
        c = self.text[self.i]
        if c in "{[":
            if len(path) >= MAX_DEPTH:
                raise self.fail(f"nested deeper than {MAX_DEPTH} levels")
            return self.obj(path) if c == "{" else self.arr(path)
        if c == '"':
            return self.string()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.i):
                self.i += len(word)
                return val
        m = _NUMBER.match(self.text, self.i)
        if m and m.end() > self.i:
            s = m.group()
            if len(s) > MAX_NUMBER_DIGITS and digit_count(s) > MAX_NUMBER_DIGITS:
                raise self.fail(too_long_message(digit_count(s)))
            self.i = m.end()
            return float(s) if any(ch in s for ch in ".eE") else int(s)
        raise self.fail(f"unexpected character {c!r}")

    def obj(self, path: KeyPath) -> dict[str, Any]:
        self.i += 1
        out: dict[str, Any] = {}
        self.skip()
        if self.text.startswith("}", self.i):
            self.i += 1
            return out
        while True:
            self.skip()
            if self.jsonc and self.text.startswith("}", self.i) and out:
                self.i += 1
                return out
            if not self.text.startswith('"', self.i):
                raise self.fail("expected a double-quoted key")
            key_at = self.i
            key = self.string()
            if key in out:
                raise self.fail(f"duplicate key {key!r}", key_at)
            self.positions[(*path, key)] = self.pos(key_at)
            self.skip()
            if not self.text.startswith(":", self.i):
                raise self.fail("expected ':' after key")
            self.i += 1
            out[key] = self.value((*path, key))
            self.skip()
            if self.text.startswith(",", self.i):
                self.i += 1
                continue
            if self.text.startswith("}", self.i):
                self.i += 1
                return out
            raise self.fail("expected ',' or '}'")

    def arr(self, path: KeyPath) -> list[Any]:
        self.i += 1
        out: list[Any] = []
        self.skip()
        if self.text.startswith("]", self.i):
            self.i += 1
            return out
        while True:
            self.skip()
            if self.jsonc and self.text.startswith("]", self.i) and out:
                self.i += 1
                return out
            self.positions[(*path, len(out))] = self.pos(self.i)
            out.append(self.value((*path, len(out))))
            self.skip()
            if self.text.startswith(",", self.i):
                self.i += 1
                continue
            if self.text.startswith("]", self.i):
                self.i += 1
                return out
            raise self.fail("expected ',' or ']'")

    def string(self) -> str:
        start = self.i
        self.i += 1
        parts: list[str] = []
        text = self.text
        while True:
            plain = _PLAIN.match(text, self.i)  # a run of characters that stand for themselves
            if plain is not None:
                parts.append(plain.group())
                self.i = plain.end()
            if self.i >= len(text):
                raise self.fail("unterminated string", start)
            c = text[self.i]
            if c == '"':
                self.i += 1
                return "".join(parts)
            if c == "\n":
                raise self.fail("unterminated string", start)
            if c == "\\":
                nxt = text[self.i + 1 : self.i + 2]
                if nxt in _ESCAPES:
                    parts.append(_ESCAPES[nxt])
                    self.i += 2
                elif nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[self.i + 2 : self.i + 6]):
                    code = int(text[self.i + 2 : self.i + 6], 16)
                    self.i += 6
                    low = _LOW_SURROGATE.match(text, self.i) if 0xD800 <= code < 0xDC00 else None
                    if low is not None:  # "\ud83d\ude00" is one character, as json reads it
                        code = 0x10000 + ((code - 0xD800) << 10) + int(low.group(1), 16) - 0xDC00
                        self.i = low.end()
                    parts.append(chr(code))
                else:
                    raise self.fail("invalid escape in string")
            else:
                parts.append(c)
                self.i += 1


def parse_json(
    text: str, path: str, jsonc: bool = False
) -> tuple[Any, dict[KeyPath, tuple[int, int]]]:
    """Parse JSON (or JSONC) text; return the data and the position of every key/item."""
    parser = _Parser(text, path, jsonc)
    data = parser.parse()
    return data, parser.positions
