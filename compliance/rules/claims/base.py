"""What every claim rule is: a family's patterns plus the words of its message."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from compliance.judge.analysis import Analysis, Span
from compliance.judge.engine import Pattern, find
from compliance.rules.base import Rule


class ClaimRule(Rule):
    """Base class for prose rules; subclasses set patterns and the message parts."""

    family: ClassVar[str] = "claims"
    patterns: ClassVar[tuple[Pattern, ...]] = ()
    #: Completes "The text claims ...": what the sentence asserts.
    claimed: ClassVar[str] = ""
    #: Why that overreaches, for a security engineer who has never seen the tool.
    why: ClassVar[str] = ""
    #: What honest wording looks like.
    instead: ClassVar[str] = ""
    #: A generic rule is dropped on a sentence where a specific family already fired.
    generic: ClassVar[bool] = False
    #: Codes of families whose claim this one restates as a consequence about the same
    #: things ("secrets are invisible to the agent, so it cannot leak them"): such a
    #: consequence is reported as that family's claim only.
    consequence_of: ClassVar[frozenset[str]] = frozenset()
    #: The things this family's claims are about ("the host", "the logs"): a generic
    #: commitment ("X is guaranteed to be unforgeable", "guarantees the host is never
    #: exposed") whose sentence names them is reported as this family's claim.
    committed: ClassVar[re.Pattern[str] | None] = None
    #: Code -> subject words: a claim of this family whose clause has one of them as its
    #: subject is that family's claim ("the allowlist fully prevents data from leaving"
    #: is the allowlist's, not a second, no-internet finding).
    yields_to: ClassVar[dict[str, re.Pattern[str]]] = {}
    #: Code -> words: a claim of this family in a consequence clause ("..., so data has
    #: nowhere to go") or after a fronted reason ("Since only PyPI is allowlisted, ...")
    #: whose reason names them is that family's claim.
    yields_for_reason: ClassVar[dict[str, re.Pattern[str]]] = {}

    @classmethod
    def judge(cls, an: Analysis, flip: bool = False, prev: Analysis | None = None,
              only: Sequence[Pattern] | None = None) -> Span | None:
        """The span of the first pattern of this family asserted in ``an``, or None.

        ``only``: the family's patterns (in order) whose regex matches ``an.text``,
        when the caller knows them; the others cannot be asserted there.
        """
        for pat in cls.patterns if only is None else only:
            span = find(an, pat, flip, prev)
            if span is not None:
                return span
        return None

    @classmethod
    def message(cls, excerpt: str, via_answer: bool = False, words: str = "",
                reads: str = "") -> str:
        """The finding: the text, the family's claim, the words that carry it (and what
        they do, when the shared absolute predicates found them), why it overreaches and
        what honest wording looks like."""
        how = "answers the question so that it claims" if via_answer else "claims"
        carried = ""
        if words and words != excerpt:
            carried = f' (the words "{words}"{" " + reads if reads else ""})'
        elif words and reads:
            carried = f" (its words {reads})"
        return (f'"{excerpt}" {how} {cls.claimed}{carried}. {cls.why} '
                f"Honest wording: {cls.instead}")
