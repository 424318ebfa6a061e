"""The shipped engine code of the judge's regexes is what re.compile makes of their sources."""

from __future__ import annotations

import marshal
import re
import subprocess
import sys
from pathlib import Path

import pytest

from compliance.judge import precompiled

_CURRENT = """
import sys
from compliance.judge import precompiled
from compliance.rules.claims.trigger_table import precompiled_table
sys.exit(0 if precompiled_table() == precompiled.TABLE.read_bytes() else 1)
"""


def _table_engine() -> object:
    return marshal.loads(precompiled.TABLE.read_bytes()).get("engine")


def test_committed_table_is_current() -> None:
    """Rewrite it with ``python -m compliance.rules.claims.trigger_table`` (a stale table is
    only slower: a changed pattern is compiled as usual)."""
    if _table_engine() != precompiled.engine():
        pytest.skip(f"the table was written for {_table_engine()}, this is {precompiled.engine()}")
    # a fresh process: the patterns the judge makes, not those other tests made
    proc = subprocess.run([sys.executable, "-c", _CURRENT], capture_output=True, text=True)
    assert proc.returncode == 0, (
        f"stale: python -m compliance.rules.claims.trigger_table\n{proc.stderr}")


def test_a_pattern_from_the_table_is_the_compiled_pattern() -> None:
    if _table_engine() != precompiled.engine():
        pytest.skip("the table was written for another regex engine")
    sources = list(precompiled._entries())
    assert len(sources) > 300
    text = "the sandbox is 100% safe, so nothing can leak; is it? no, never. \"quoted\""
    for source, flags in sources:
        loaded, fresh = precompiled.compile_known(source, flags), re.compile(source, flags)
        assert loaded is not None
        assert (loaded.pattern, loaded.flags, loaded.groups, loaded.groupindex) == (
            fresh.pattern, fresh.flags, fresh.groups, fresh.groupindex)
        assert [m.span() for m in loaded.finditer(text)] == [
            m.span() for m in fresh.finditer(text)]


def test_a_pattern_the_table_lacks_is_compiled_as_usual() -> None:
    assert precompiled.compile_known(r"\bnot in the table (?P<x>ever)\b", 0) is None


def test_a_table_for_another_engine_is_ignored(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "precompiled.bin"
    other.write_bytes(marshal.dumps({"engine": [[2, 7], 0, 4, "little"],
                                     "patterns": {("x", 0): (32, b"\0", 0, {})}}))
    monkeypatch.setattr(precompiled, "TABLE", other)
    precompiled._table.cache_clear()
    try:
        assert precompiled.compile_known("x", 0) is None
    finally:
        precompiled._table.cache_clear()


def test_an_unreadable_table_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "precompiled.bin"
    broken.write_bytes(b"\x00not marshal")
    monkeypatch.setattr(precompiled, "TABLE", broken)
    precompiled._table.cache_clear()
    try:
        assert precompiled.compile_known(r"\bsafe\b", 0) is None
    finally:
        precompiled._table.cache_clear()


def test_the_shipped_vocabulary_is_what_parsing_it_gives() -> None:
    from compliance.judge.absolutes import VOCABULARY, parse_vocabulary

    if _table_engine() != precompiled.engine():
        pytest.skip("the table was written for another Python")
    text = VOCABULARY.read_text("utf-8")
    calls: list[str] = []

    def parse(t: str) -> object:
        calls.append(t)
        return parse_vocabulary(t)

    assert precompiled.parsed(text, parse) == parse_vocabulary(text)
    assert calls == [], "stale: python -m compliance.rules.claims.trigger_table"
    assert precompiled.parsed(text + "\n# edited\n", parse) == parse_vocabulary(text)
    assert len(calls) == 1  # another text is parsed, not taken from the table
