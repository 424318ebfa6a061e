"""Bounds on the values a reader accepts: one place that says how big a number may be.

Python refuses to convert integers of more than 4,300 digits with a bare
``ValueError`` (no file, no position); smaller huge numbers convert and then
overflow wherever they are used (a date, a size). No configuration value needs
more than a few digits, so every reader of untrusted text (YAML model files,
JSON and TOML evidence, JSON given to ``lint`` or ``answer``) refuses a number of
more than :data:`MAX_NUMBER_DIGITS` digits at its position, with one message.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: The longest number (in digits, sign and ``_`` separators not counted) any reader takes.
MAX_NUMBER_DIGITS = 100


class NumberTooLong(ValueError):
    """A number literal with more than :data:`MAX_NUMBER_DIGITS` digits."""

    def __init__(self, digits: int, offset: int = -1) -> None:
        super().__init__(too_long_message(digits))
        self.digits = digits
        self.offset = offset  # character offset in the text read, -1 when unknown


def too_long_message(digits: int) -> str:
    return (f"a number with {digits} digits; numbers are limited to {MAX_NUMBER_DIGITS} "
            "digits (no setting or configuration value needs more), so this is refused "
            "instead of being converted")


def digit_count(literal: str) -> int:
    """Digits of a number literal, hexadecimal ones included (``0x``, sign, ``_``, ``.``
    and exponent signs not counted)."""
    body = literal.lstrip("+-")
    if body[:2].lower() in ("0x", "0o", "0b"):
        body = body[2:]
    return sum(ch.isalnum() for ch in body)


def check_number(literal: str, offset: int = -1) -> None:
    """Raise :class:`NumberTooLong` when ``literal`` has too many digits."""
    if len(literal) > MAX_NUMBER_DIGITS:
        digits = digit_count(literal)
        if digits > MAX_NUMBER_DIGITS:
            raise NumberTooLong(digits, offset)


def bounded_int(literal: str) -> int:
    """``int(literal)`` for a number of at most :data:`MAX_NUMBER_DIGITS` digits."""
    check_number(literal)
    return int(literal)


def bounded_float(literal: str) -> float:
    check_number(literal)
    return float(literal)


# A JSON string (skipped) or a run of number characters outside strings.
_LONG = "{" + str(MAX_NUMBER_DIGITS + 1) + ",}"
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[-+0-9.eE]' + _LONG)


def long_json_number(text: str) -> NumberTooLong | None:
    """The first number outside strings in JSON ``text`` with too many digits, if any."""
    for m in _JSON_TOKEN.finditer(text):
        token = m.group()
        if token.startswith('"'):
            continue
        digits = digit_count(token)
        if digits > MAX_NUMBER_DIGITS:
            return NumberTooLong(digits, m.start())
    return None


def load_json(text: str) -> Any:
    """``json.loads`` with bounded numbers; :class:`NumberTooLong` carries the offset."""
    try:
        return json.loads(text, parse_int=bounded_int, parse_float=bounded_float)
    except NumberTooLong as exc:
        located = long_json_number(text)
        raise located or exc from None


# TOML: strings and comments (skipped), or a bare number-like word.
_TOML_TOKEN = re.compile(
    r'"""[\s\S]*?(?:"""|\Z)|\'\'\'[\s\S]*?(?:\'\'\'|\Z)|"(?:[^"\\\n]|\\.)*"?|\'[^\'\n]*\'?'
    r"|#[^\n]*|(?<![\w.-])[+-]?[0-9][0-9A-Fa-fxob_.eE+-]{" + str(MAX_NUMBER_DIGITS) + ",}")


def long_toml_number(text: str) -> NumberTooLong | None:
    """The first number outside strings and comments in TOML ``text`` with too many digits."""
    for m in _TOML_TOKEN.finditer(text):
        token = m.group()
        if token[0] in "\"'#":
            continue
        digits = digit_count(token)
        if digits > MAX_NUMBER_DIGITS:
            return NumberTooLong(digits, m.start())
    return None


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
