"""Turn pydantic validation errors into positioned, plainly worded diagnostics.

pydantic's ``loc`` is walked through the positions kept at load time, so each
error lands on the YAML key or value it is about. Unknown keys get a
did-you-mean from the fields the model allows at that place.
"""

from __future__ import annotations

import difflib
import enum
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from compliance.diagnostics import Diagnostic, Level
from compliance.load.yamlpos import YamlDocument

SCHEMA_CODE, SCHEMA_NAME = "SCH001", "schema-violation"
UNKNOWN_CODE, UNKNOWN_NAME = "SCH002", "unknown-key"
MISSING_CODE, MISSING_NAME = "SCH003", "missing-field"

#: pydantic error type -> our wording (``{input}``/``{expected}`` filled in).
WORDING = {
    "string_type": "expected text, got {got}",
    "int_type": "expected a whole number, got {got}",
    "int_parsing": "expected a whole number, got {got}",
    "bool_type": "expected true or false, got {got}",
    "list_type": "expected a list, got {got}",
    "dict_type": "expected a mapping, got {got}",
    "model_type": "expected a mapping of fields, got {got}",
    "model_attributes_type": "expected a mapping of fields, got {got}",
    "date_type": "expected a date (YYYY-MM-DD), got {got}",
    "date_from_datetime_parsing": "expected a date (YYYY-MM-DD), got {got}",
    "date_parsing": "expected a date (YYYY-MM-DD), got {got}",
    "string_too_short": "must not be empty",
    "string_too_long": "is {size} characters long; at most {max_length} are allowed here",
    "too_long": "has {size} entries; at most {max_length} are allowed here",
    "too_short": "must have at least {min_length} entries",
    "string_pattern_mismatch": "{got} is not a valid value here ({hint})",
    "greater_than_equal": "must be at least {ge}, got {got}",
    "less_than_equal": "must be at most {le}, got {got}",
}

PATTERN_HINTS = {
    "^[0-9a-f]{64}$": "expected 64 lowercase hex digits of a sha256",
}


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int | float):
        return f"{value!r} (a number)"
    text = str(value)
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _count(n: Any) -> str:
    return f"{n:,}" if isinstance(n, int) else "?"


def _unwrap(annotation: Any) -> list[Any]:
    """The concrete types inside Optional/list/dict/Annotated."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType, list, dict, tuple):
        out: list[Any] = []
        for arg in typing.get_args(annotation):
            out.extend(_unwrap(arg))
        return out
    return [annotation]


def model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The pydantic model class that describes the mapping at ``loc``."""
    current: type[BaseModel] | None = model
    for part in loc:
        if current is None:
            return None
        if isinstance(part, int):
            continue
        field = current.model_fields.get(str(part))
        if field is None:
            return None
        nested = [t for t in _unwrap(field.annotation)
                  if isinstance(t, type) and issubclass(t, BaseModel)]
        current = nested[0] if nested else None
    return current


def _allowed_values(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    while loc and isinstance(loc[-1], int):  # an item of a list of enum values
        loc = loc[:-1]
    if not loc:
        return []
    parent = model_at(model, loc[:-1])
    if parent is None:
        return []
    field = parent.model_fields.get(str(loc[-1]))
    if field is None:
        return []
    for t in _unwrap(field.annotation):
        if isinstance(t, type) and issubclass(t, enum.Enum):
            return [str(m.value) for m in t]
    return []


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in loc).replace(".[", "[")


def data_loc(loc: tuple[Any, ...], data: Any) -> tuple[Any, ...]:
    """Pydantic's ``loc`` as a path into ``data``: without the union tags it inserts
    (``list[str]``, ``function-after[...]``), but keeping a key of the file that has a
    ``[`` in it (a YAML key ``'['`` is a key, not a tag)."""
    out: list[Any] = []
    node = data
    for p in loc:
        if (isinstance(node, dict) and p in node) or (
                isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node)):
            node = node[p]
        elif isinstance(p, str) and "[" in p:
            continue  # a union tag: not a step into the data
        else:
            node = None  # a missing field, or a step below a value of the wrong type
        out.append(p)
    return tuple(out)


def diagnostics_from(exc: ValidationError, doc: YamlDocument,
                     model: type[BaseModel]) -> list[Diagnostic]:
    """Positioned, reworded diagnostics for every error pydantic found (all of them)."""
    out: list[Diagnostic] = []
    for err in exc.errors(include_url=False):
        loc = data_loc(tuple(err["loc"]), doc.data)
        kind = err["type"]
        value = err.get("input")
        if kind == "extra_forbidden":
            key = str(loc[-1])
            parent = model_at(model, loc[:-1])
            allowed = sorted(parent.model_fields) if parent else []
            msg = (f"unknown key {key!r} in {_where(loc[:-1]) or 'the file'}"
                   f"{_suggest(key, allowed)}")
            if not _suggest(key, allowed) and allowed:
                msg += f" (allowed: {', '.join(allowed)})"
            out.append(Diagnostic.at(doc.pos(loc, key=True), UNKNOWN_CODE, UNKNOWN_NAME,
                                     Level.ERROR, msg))
            continue
        if kind == "missing":
            owner = _where(loc[:-1]) or "the file"
            msg = f"missing required field {str(loc[-1])!r} in {owner}"
            out.append(Diagnostic.at(doc.pos(loc[:-1], key=True), MISSING_CODE, MISSING_NAME,
                                     Level.ERROR, msg))
            continue
        if kind == "enum":
            allowed = _allowed_values(model, loc)
            msg = (f"{_where(loc)}: {_describe(value)} is not one of "
                   f"{', '.join(allowed)}{_suggest(str(value), allowed)}")
        elif kind in WORDING:
            ctx = err.get("ctx") or {}
            pattern = str(ctx.get("pattern", ""))
            hint = PATTERN_HINTS.get(pattern, "letters, digits, '.', '-' and '_' only"
                                     if "A-Za-z0-9" in pattern else f"pattern {pattern}")
            msg = f"{_where(loc)}: " + WORDING[kind].format(
                got=_describe(value), hint=hint, ge=ctx.get("ge"), le=ctx.get("le"),
                size=_count(len(value) if isinstance(value, str | list | dict) else None),
                max_length=_count(ctx.get("max_length")),
                min_length=_count(ctx.get("min_length")))
            msg = msg.replace("at least 1 entries", "at least one entry")
        elif kind == "value_error":  # a model's own rule: its message, without pydantic's prefix
            msg = f"{_where(loc)}: {(err.get('ctx') or {}).get('error', err['msg'])}"
        else:
            msg = f"{_where(loc)}: {err['msg']}"
        out.append(Diagnostic.at(doc.pos(loc), SCHEMA_CODE, SCHEMA_NAME, Level.ERROR, msg))
    return out
