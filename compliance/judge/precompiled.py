"""The judge's regexes compiled ahead of time, for the Python that wrote the table.

``re.compile`` parses a source and generates the regex engine's code in
Python; for the judge's patterns that takes about 0.2 s, which a short
`compliance check` would otherwise pay at every start. The generated code
depends only on the source, the flags and the engine, so it is shipped as
data next to this module, keyed by (source, flags): a pattern whose source
changed is simply not found and is compiled as usual (correct, only slower),
and a Python whose regex engine differs (another minor version, another
``_sre.MAGIC`` or code size) ignores the whole table. The engine checks the
code it is given (``_sre`` validates it), and a test fails until the table is
rewritten, with the trigger table, by

    python -m compliance.rules.claims.trigger_table
"""

from __future__ import annotations

import _sre
import hashlib
import marshal
import re
import sys
from array import array
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from re import _compiler, _parser  # type: ignore[attr-defined]
from typing import Any

TABLE = Path(__file__).with_name("precompiled.bin")
#: Array type code of one engine code word.
_WORD = next((t for t in "IL" if array(t).itemsize == _sre.CODESIZE), "")


def engine() -> list[Any]:
    """What generated code depends on besides the source: the regex engine's version."""
    return [list(sys.version_info[:2]), _sre.MAGIC, _sre.CODESIZE, sys.byteorder]


def entry(source: str, flags: int) -> tuple[int, bytes, int, dict[str, int]]:
    """What ``_sre.compile`` needs for ``source``: flags, code words, groups, group names
    (what ``re._compiler.compile`` computes before it calls the engine)."""
    parsed = _parser.parse(source, flags)
    code = array(_WORD, [int(w) for w in _compiler._code(parsed, flags)])
    state = parsed.state
    return flags | state.flags, code.tobytes(), state.groups - 1, dict(state.groupdict)


def render(patterns: Iterable[tuple[str, int]],
           indexes: Iterable[tuple[str, Any]] = (),
           data: Iterable[tuple[str, Any]] = ()) -> bytes:
    """The table's content for ``patterns`` (same patterns, same bytes), with the
    trigger indexes built ahead of time (:func:`index_state`) and parsed data files
    (:func:`parsed`), each under its key."""
    table = {key: entry(*key) for key in sorted(set(patterns))}
    # not compressed: loading is then one read, and git and wheels compress anyway
    return marshal.dumps({"engine": engine(), "patterns": table,
                          "indexes": dict(sorted(indexes)), "data": dict(sorted(data))})


def text_key(text: str) -> str:
    """The key of a data file's parsed content: a digest of its text."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@cache
def _table() -> dict[str, Any]:
    """The table's sections, or {} when it is missing, unreadable or for another engine."""
    if not _WORD:
        return {}
    try:
        data = marshal.loads(TABLE.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or data.get("engine") != engine():
        return {}
    return data


def _section(name: str) -> dict[Any, Any]:
    found = _table().get(name)
    return found if isinstance(found, dict) else {}


def _entries() -> dict[tuple[str, int], tuple[int, bytes, int, dict[str, int]]]:
    return _section("patterns")


def index_state(key: str) -> Any | None:
    """The state of a :class:`~compliance.judge.triggers.TriggerIndex` built ahead of time
    for the regexes whose :func:`~compliance.judge.triggers.index_key` is ``key``, or None."""
    return _section("indexes").get(key)


def parsed(text: str, parse: Callable[[str], Any]) -> Any:
    """``parse(text)``, taken from the table when it holds the parsed content of exactly
    this text (plain data: dicts, lists, strings, numbers), else computed."""
    found = _section("data").get(text_key(text))
    return parse(text) if found is None else found


def compile_known(source: str, flags: int) -> re.Pattern[str] | None:
    """``re.compile(source, flags)`` from the table, or None when the table lacks it."""
    found = _entries().get((source, flags))
    if found is None:
        return None
    all_flags, code, groups, groupindex = found
    indexgroup: list[str | None] = [None] * (groups + 1)
    for name, i in groupindex.items():
        indexgroup[i] = name
    try:
        compiled = _sre.compile(source, all_flags, array(_WORD, code).tolist(), groups,
                                groupindex, tuple(indexgroup))
    except (RuntimeError, TypeError, ValueError):  # code the engine rejects: compile it
        return None
    return compiled if isinstance(compiled, re.Pattern) else None
