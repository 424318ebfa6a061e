"""The claim patterns' trigger routes (sets of trigger words), derived once and shipped as data.

Deriving them (:func:`compliance.judge.triggers.trigger_sets`) parses every claim
regex in Python and takes about 0.1 s, once per process that judges more than a
few hundred sentences. The result depends only on each regex's source, so it is
committed next to this module; a pattern missing from the table is derived at
run time (correct, only slower), and a test fails until the table is rewritten:

    python -m compliance.rules.claims.trigger_table

The same command rewrites the judge's precompiled regexes
(:mod:`compliance.judge.precompiled`), which go stale the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from compliance.judge.triggers import Route, derive_table, read_table

TABLE = Path(__file__).with_name("trigger_table.json")


def claim_regexes() -> list[re.Pattern[str]]:
    """Every claim rule's pattern regexes, in rule order."""
    from compliance.rules.claims import CLAIM_RULES

    return [p.regex for rule in CLAIM_RULES.values() for p in rule.patterns]


def table_regexes() -> list[re.Pattern[str]]:
    """What the table covers: the claim patterns and the shared absolute predicates
    (:mod:`compliance.judge.absolutes`)."""
    from compliance.judge.absolutes import vocabulary

    return claim_regexes() + [p.regex for p in vocabulary().predicates]


def _read() -> dict[str, list[Route]]:
    try:
        return read_table(json.loads(TABLE.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, AttributeError, KeyError, IndexError):
        return {}


class _Table(Mapping[str, list[Route]]):
    """The committed table, read when first looked into: an index shipped ready-made
    (:mod:`compliance.judge.precompiled`) never reads it."""

    @cached_property
    def _routes(self) -> dict[str, list[Route]]:
        return _read()

    def __getitem__(self, key: str) -> list[Route]:
        return self._routes[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._routes)

    def __len__(self) -> int:
        return len(self._routes)


@cache
def known() -> Mapping[str, list[Route]]:
    """The committed table ({} when it is missing or unreadable: everything is derived)."""
    return _Table()


def render(regexes: list[re.Pattern[str]]) -> str:
    """The table's file content for ``regexes`` (stable: same patterns, same bytes)."""
    return json.dumps(derive_table(regexes), indent=0, sort_keys=True, ensure_ascii=False) + "\n"


def precompiled_indexes() -> list[tuple[str, Any]]:
    """(key, state) of the two trigger indexes the judge builds (the claim patterns', the
    shared predicates'), built here from :func:`known`, never from a shipped state."""
    from compliance.judge.absolutes import vocabulary
    from compliance.judge.triggers import TriggerIndex, index_key

    regex_lists = [claim_regexes(), [p.regex for p in vocabulary().predicates]]
    return [(index_key(rs), TriggerIndex(rs, known(), shipped=False).state())
            for rs in regex_lists]


def precompiled_data() -> list[tuple[str, Any]]:
    """(key, parsed content) of the data files the judge reads at start: the vocabulary."""
    from compliance.judge.absolutes import VOCABULARY, parse_vocabulary
    from compliance.judge.precompiled import text_key

    text = VOCABULARY.read_text("utf-8")
    return [(text_key(text), parse_vocabulary(text))]


def precompiled_patterns() -> list[tuple[str, int]]:
    """(source, flags) of every lazily compiled judge pattern a process can use: the
    lexicon's, every family's, and the trigger indexes' scans (built from :func:`known`)."""
    from compliance.judge.absolutes import vocabulary
    from compliance.judge.lazyre import CREATED

    vocabulary()  # every pattern of the vocabulary, as the judge makes them
    precompiled_indexes()
    return [(p.pattern, p._given) for p in CREATED]


def precompiled_table() -> bytes:
    """The content of :data:`compliance.judge.precompiled.TABLE` for today's sources."""
    from compliance.judge import precompiled

    return precompiled.render(precompiled_patterns(), precompiled_indexes(), precompiled_data())


def main() -> None:
    from compliance.atomic import write_bytes_atomic, write_text_atomic
    from compliance.judge import precompiled

    write_text_atomic(TABLE, render(table_regexes()))
    print(f"wrote {TABLE}")
    known.cache_clear()  # the indexes are built from the table just written
    write_bytes_atomic(precompiled.TABLE, precompiled_table())
    print(f"wrote {precompiled.TABLE}")


if __name__ == "__main__":
    main()
