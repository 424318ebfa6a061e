"""Regexes that compile when first used.

The judge holds about 900 regexes (the lexicon, every family's predicates,
topics and conditions). Compiling them all costs about 0.2 s, which every
process that imports the rules used to pay: `compliance rules`, `--help`
through the registry, and a `check` whose prose touches a few dozen of them.
A :class:`LazyPattern` keeps its source and flags and compiles on the first
call of a matching method; after that the compiled pattern's own bound
methods sit in the instance, so a call costs what it costs on a
:class:`re.Pattern`. Sources and flags are readable without compiling: the
trigger index (:mod:`compliance.judge.triggers`) and the rules that build
one regex from others' sources need only those.

Where the shipped table of :mod:`compliance.judge.precompiled` has the
pattern's engine code, the first use loads it instead of compiling.

Nothing is decided here: a lazy pattern matches exactly what ``re.compile``
of the same source does (``tests/judge/test_lazyre.py``).
"""

from __future__ import annotations

import re
from typing import Any, cast

#: An inline flag group in a source: compiled flags would differ from the given ones.
_INLINE_FLAGS = re.compile(r"\(\?[aiLmsux]+[-:)]|\(\?-")
#: The matching methods, taken over from the compiled pattern at the first compile.
_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split",
            "scanner")


#: Every lazy pattern made in this process, in order (for tests and the benchmarks).
CREATED: list[LazyPattern] = []


class LazyPattern:
    """A regex source that compiles on first use; reads like a :class:`re.Pattern`."""

    __slots__ = ("__dict__", "pattern", "flags", "_given")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.pattern = source
        self._given = flags
        CREATED.append(self)
        if _INLINE_FLAGS.search(source):  # rare: let the compiler say what they add
            self.flags = self.compiled().flags
        else:  # what re.compile adds to a str pattern's flags: UNICODE, unless ASCII/LOCALE
            ascii_or_locale = flags & (re.ASCII | re.LOCALE)
            self.flags = flags if ascii_or_locale else flags | re.UNICODE

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if it was not yet); its methods move in."""
        c = self.__dict__.get("_compiled")
        if c is None:
            from compliance.judge.precompiled import compile_known

            c = compile_known(self.pattern, self._given) or re.compile(self.pattern, self._given)
            self.__dict__["_compiled"] = c
            for name in _METHODS:
                self.__dict__[name] = getattr(c, name)
        return cast(re.Pattern[str], c)

    def __getattr__(self, name: str) -> Any:
        # only reached for what is not yet in the instance: the methods before the first
        # compile, and what only a compiled pattern knows (groups, groupindex)
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    @property
    def is_compiled(self) -> bool:
        return "_compiled" in self.__dict__

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyPattern | re.Pattern):
            return (self.pattern, self.flags) == (other.pattern, other.flags)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.pattern, self.flags))


def lazy(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, deferred until the pattern is first used.

    Typed as a :class:`re.Pattern` because it behaves as one for every use the judge
    makes (matching methods, ``pattern``, ``flags``, ``groupindex``, ``groups``).
    """
    return cast(re.Pattern[str], LazyPattern(source, flags))
