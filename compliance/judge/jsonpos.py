"""The string values of a JSON file, each with a map back to its characters in the file.

``compliance lint`` judges what a JSON file says in its string values (not its
keys). A value such as ``"x\\n The sandbox is 100% secure."`` is judged decoded,
and every character of the decoded text keeps the offset of the character (or
escape sequence) it came from, so a finding points at the right line and column
of the file even after ``\\n``, ``\\"`` or ``\\u00e9`` escapes.
"""

from __future__ import annotations

import json
import re

from compliance.bounds import NumberTooLong, line_column, load_json
from compliance.diagnostics import UserError

#: A JSON string literal. In a document that parses as JSON, scanning from the start
#: with this finds exactly its strings, in order: a quote outside a string is invalid.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_KEY_AFTER = re.compile(r"\s*:")
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", "\\": "\\",
           '"': '"'}


def json_strings(text: str, display: str) -> list[tuple[str, list[int]]]:
    """Each string value of ``text`` (a JSON document) decoded, with its offsets.

    ``offsets[i]`` is the file offset of decoded character ``i``; one more entry
    (the closing quote) ends the list. :class:`UserError` at line:column when
    ``text`` is not JSON.
    """
    try:
        load_json(text)
    except NumberTooLong as exc:
        line, column = line_column(text, exc.offset)
        raise UserError(f"{display}:{line}:{column}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"{display}:{exc.lineno}:{exc.colno}: JSON syntax error: {exc.msg}") \
            from None
    except RecursionError:
        raise UserError(f"{display}: JSON nested too deeply to read") from None
    out: list[tuple[str, list[int]]] = []
    for m in _STRING.finditer(text):
        if _KEY_AFTER.match(text, m.end()):
            continue  # an object key, not a value
        value, offsets = _decode(m.group(0), m.start())
        if value.strip():
            out.append((value, offsets))
    return out


def _decode(raw: str, base: int) -> tuple[str, list[int]]:
    """Decode the literal ``raw`` (quotes included) found at file offset ``base``."""
    chars: list[str] = []
    offsets: list[int] = []
    i, end = 1, len(raw) - 1
    while i < end:
        c = raw[i]
        if c != "\\":
            chars.append(c)
            offsets.append(base + i)
            i += 1
            continue
        kind = raw[i + 1]
        if kind != "u":
            chars.append(_SIMPLE[kind])
            offsets.append(base + i)
            i += 2
            continue
        code, j = int(raw[i + 2:i + 6], 16), i + 6
        if 0xD800 <= code < 0xDC00 and raw[j:j + 2] == "\\u":
            low = int(raw[j + 2:j + 6], 16)
            if 0xDC00 <= low < 0xE000:  # a surrogate pair is one character
                code, j = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00), j + 6
        chars.append("\ufffd" if 0xD800 <= code < 0xE000 else chr(code))  # lone surrogate
        offsets.append(base + i)
        i = j
    offsets.append(base + end)
    return "".join(chars), offsets
