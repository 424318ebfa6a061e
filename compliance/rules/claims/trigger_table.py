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
from functools import cache
from pathlib import Path

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


@cache
def known() -> dict[str, list[Route]]:
    """The committed table ({} when it is missing or unreadable: everything is derived)."""
    try:
        return read_table(json.loads(TABLE.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, AttributeError, KeyError, IndexError):
        return {}


def render(regexes: list[re.Pattern[str]]) -> str:
    """The table's file content for ``regexes`` (stable: same patterns, same bytes)."""
    return json.dumps(derive_table(regexes), indent=0, sort_keys=True, ensure_ascii=False) + "\n"


def precompiled_patterns() -> list[tuple[str, int]]:
    """(source, flags) of every lazily compiled judge pattern a process can use: the
    lexicon's, every family's, and the trigger index's scan (built from :func:`known`)."""
    from compliance.judge.absolutes import vocabulary
    from compliance.judge.lazyre import CREATED
    from compliance.judge.triggers import TriggerIndex

    TriggerIndex(claim_regexes(), known())
    voc = vocabulary()  # every pattern of the vocabulary, as the judge makes them
    TriggerIndex([p.regex for p in voc.predicates], known())
    return [(p.pattern, p._given) for p in CREATED]


def main() -> None:
    from compliance.atomic import write_bytes_atomic, write_text_atomic
    from compliance.judge import precompiled

    write_text_atomic(TABLE, render(table_regexes()))
    print(f"wrote {TABLE}")
    known.cache_clear()  # the scan regex is built from the table just written
    write_bytes_atomic(precompiled.TABLE, precompiled.render(precompiled_patterns()))
    print(f"wrote {precompiled.TABLE}")


if __name__ == "__main__":
    main()
