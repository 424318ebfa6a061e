"""Trigger words: a cheap condition a sentence must meet before a claim regex can match it.

Running every family's regexes over every sentence costs about 100 ns per
character per family in Python's regex engine, most of it spent trying long
alternations at every word boundary. Most sentences contain none of the words
those alternations start from, so each pattern gets, derived from its own
regex (nothing declared by hand, so nothing to keep in step):

- a few *trigger sets*, each a necessary condition: every match of the regex
  contains a word token that equals (or, for a word the regex may extend,
  starts with) one of the set's words. ``\\b(?:zero|no)[- ]risks?\\b`` yields
  ``{zero, no}`` and ``{risk, risks}``; a sentence must meet all of a pattern's
  sets before the pattern itself is tried.

A pattern whose first required alternation has alternatives with words of
their own (``\\b(?:prompt injection|agent hijack\\w*|...)``) gets one *route* per
alternative instead: the sets of that alternative expanded in place, and the
pattern is a candidate when every set of some route is met. One set that is
the union of all the alternatives' words (``agent`` among them) would let
nearly every sentence through.

One ``findall`` per sentence with a single prefix-tree regex of all trigger
words finds its trigger tokens; the regexes then run only on the sentences
whose tokens meet their sets, so the verdict is exactly what running every
regex on every sentence gives. Derivation is conservative:
a construct it does not understand ends the trigger there (a prefix) or
leaves the pattern without a condition (always tried), never the reverse.

Tokens are maximal runs of ``\\w`` characters, the same definition ``\\b`` uses.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from compliance.judge import precompiled
from compliance.judge.lazyre import lazy

try:  # the parser behind re.compile; private, so any surprise disables triggers
    _p: Any = importlib.import_module("re._parser")
    _c: Any = importlib.import_module("re._constants")
except ImportError:  # pragma: no cover - other Pythons: every pattern is always tried
    _p = _c = None

#: (word, exact): a token equal to ``word`` (exact) or starting with it (not exact).
Trigger = tuple[str, bool]
Item = tuple[Any, Any]

#: Words so common that a condition made of them filters almost nothing.
_COMMON = (
    "a an the is are be been being was were it its this that these those of to in on at by for "
    "with from as and or not no nor can cannot will would could should may might must all any "
    "each every some we our us they their them you your has have had do does did so if than "
    "then there here when where which who what how one also only just even out use"
)
COMMON = frozenset(_COMMON.split())
#: At most this many trigger sets per pattern (or route), and open prefixes while deriving
#: one; at most this many routes per pattern (more: one route for the whole pattern).
MAX_SETS = 4
MAX_OPEN = 400
MAX_ROUTES = 64
_FLAGS_THAT_CHANGE_WORDS = re.IGNORECASE | re.ASCII | re.LOCALE


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _nonword_member(member: Item) -> bool:
    op, av = member
    if op is _c.LITERAL:
        return not _is_word(chr(av))
    return op is _c.CATEGORY and av in (_c.CATEGORY_SPACE, _c.CATEGORY_NOT_WORD)


def _nonword_item(op: Any, av: Any) -> bool:
    """Does this item always consume at least one character, all of them non-word?"""
    if op is _c.LITERAL:
        return not _is_word(chr(av))
    if op is _c.IN:
        return all(_nonword_member(m) for m in av)
    if op in _REPEATS:
        lo, _hi, sub = av
        return lo >= 1 and len(sub.data) == 1 and _nonword_item(*sub.data[0])
    return False


def _ends_nonword(items: Sequence[Item]) -> bool:
    """Is the last character consumed by ``items`` always a non-word character?"""
    items = [it for it in items if it[0] not in (_c.ASSERT, _c.ASSERT_NOT)]
    if not items:
        return False
    op, av = items[-1]
    if _nonword_item(op, av):
        return True
    if op is _c.SUBPATTERN:
        return _ends_nonword(av[3].data)
    if op is _c.BRANCH:
        return all(_ends_nonword(alt.data) for alt in av[1])
    return False


def _flatten(items: Iterable[Item]) -> list[Item]:
    out: list[Item] = []
    for op, av in items:
        if op is _c.SUBPATTERN and not av[1] and not av[2]:  # plain group: its items in line
            out.extend(_flatten(av[3].data))
        else:
            out.append((op, av))
    return out


def _walk(items: Sequence[Item], opens: list[str], done: set[Trigger]) -> list[str]:
    """Extend the open token prefixes through ``items``.

    ``""`` in ``opens`` means no token has started yet and the previous character
    is not a word character, so the next word character starts a token. Tokens
    that end go to ``done``; returns the prefixes still open after ``items``.
    """
    for op, av in items:
        if not opens:
            break
        if op is _c.LITERAL and _is_word(chr(av)):
            opens = [o + chr(av) for o in opens]
        elif (op is _c.AT and av is _c.AT_BOUNDARY) or _nonword_item(op, av):
            done.update((o, True) for o in opens if o)  # the token ends exactly here
            opens = [o for o in opens if not o]
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            continue  # zero-width: consumes nothing
        elif op is _c.SUBPATTERN and not av[1] and not av[2] or op is _c.BRANCH:
            alts = [av[3]] if op is _c.SUBPATTERN else av[1]
            merged: dict[str, None] = {}
            for alt in alts:
                merged.update(dict.fromkeys(_walk(alt.data, list(opens), done)))
            opens = list(merged)
        elif op in _REPEATS and av[1] == 1 and av[0] == 0:  # optional: with and without
            opens = list(dict.fromkeys(opens + _walk(av[2].data, list(opens), done)))
        elif op in _REPEATS and av[0] == 0 and _nonword_item(op, (1, av[1], av[2])):
            done.update((o, True) for o in opens if o)  # taken: the token ended
        else:  # anything else: what is open may go on with unknown word characters
            done.update((o, False) for o in opens)
            return []
        if len(opens) > MAX_OPEN:
            done.update((o, False) for o in opens)
            return []
    return opens


def _step(at_start: bool, op: Any, av: Any) -> bool:
    """Is the next character, if a word character, the start of a token?"""
    if op is _c.AT:
        return av is _c.AT_BOUNDARY
    if op in (_c.ASSERT, _c.ASSERT_NOT):
        return at_start
    if _nonword_item(op, av):
        return True
    if op in _REPEATS and av[0] == 0:
        return at_start and _ends_nonword(av[2].data)
    if op is _c.BRANCH:
        return all(_ends_nonword(alt.data) for alt in av[1])
    if op is _c.SUBPATTERN:
        return _ends_nonword(av[3].data)
    return False


def _score(triggers: frozenset[Trigger]) -> float:
    """Lower is more selective: few, long, exact words, none of them common."""
    s = 0.0
    for word, exact in triggers:
        if word in COMMON or len(word) < 3 or (not exact and len(word) < 4):
            s += 100
        s += 1 if exact else 3
    return s


def _sets(items: list[Item], at_start: bool, limit: int | None = None,
          top: bool = False) -> list[frozenset[Trigger]]:
    """Necessary trigger sets for a sequence, best first (only the best one unless ``top``).

    Each position where a token must start gives one set (the tokens that start
    there, on every path); a required alternation gives the union of each
    alternative's best set. Only positions before ``limit`` are considered.
    """
    options: list[frozenset[Trigger]] = []
    state = at_start
    for i, (op, av) in enumerate(items[:limit]):
        if state:
            done: set[Trigger] = set()
            done.update((o, False) for o in _walk(items[i:], [""], done))
            if done and all(word for word, _ in done):
                options.append(frozenset(done))
        if op is _c.BRANCH:
            union: set[Trigger] = set()
            for alt in av[1]:
                flat = _flatten(alt.data)
                best = _sets(flat + items[i + 1:], state, len(flat))
                if not best:
                    break
                union |= best[0]
            else:
                options.append(frozenset(union))
        state = _step(state, op, av)
    if not top:
        return [min(options, key=_score)] if options else []
    return sorted(dict.fromkeys(options), key=_score)  # stable: ties keep pattern order


def _best(options: list[frozenset[Trigger]]) -> list[frozenset[Trigger]]:
    good = [o for o in options if _score(o) < 100]
    return (good or options)[:MAX_SETS]


def _items(regex: re.Pattern[str]) -> list[Item] | None:
    if _p is None or regex.flags & _FLAGS_THAT_CHANGE_WORDS:
        return None
    try:
        return _flatten(_p.parse(regex.pattern, regex.flags).data)
    except Exception:  # noqa: BLE001 - an unexpected parse tree: no condition, always tried
        return None


def trigger_sets(regex: re.Pattern[str]) -> list[frozenset[Trigger]]:
    """Necessary trigger sets of ``regex`` (all must be met); [] when none can be derived."""
    items = _items(regex)
    if items is None:
        return []
    try:
        return _best(_sets(items, False, top=True))
    except Exception:  # noqa: BLE001 - an unexpected parse tree: no condition, always tried
        return []


Route = list[frozenset[Trigger]]
#: A :class:`TriggerIndex` as plain data: always-tried keys; per first set, (key, other
#: sets) pairs; per exact word and per prefix, set ids; the scan regex's source.
IndexState = tuple[list[int], dict[int, list[tuple[int, tuple[int, ...]]]],
                   dict[str, list[int]], dict[str, list[int]], str | None]


def trigger_routes(regex: re.Pattern[str]) -> list[Route]:
    """Routes of ``regex``: it can match a text only if the text meets every set of one
    route. One route of :func:`trigger_sets` unless the first alternation the pattern
    must pass through splits it into better ones; [] when no condition can be derived.

    A match passes through one alternative of that alternation, so it is a match of
    the pattern with the alternation replaced by that alternative; each such
    expansion's necessary sets, met together, are a route. The pattern's own sets hold
    for every expansion and are kept in each route.
    """
    whole = trigger_sets(regex)
    items = _items(regex)
    if not whole or items is None:
        return [whole] if whole else []
    at = next((i for i, (op, _av) in enumerate(items) if op is _c.BRANCH), None)
    if at is None or len(items[at][1][1]) > MAX_ROUTES:
        return [whole]
    routes: list[Route] = []
    try:
        for alt in items[at][1][1]:
            own = _sets(items[:at] + _flatten(alt.data) + items[at + 1:], False, top=True)
            if not own:
                return [whole]
            routes.append(sorted(dict.fromkeys(_best(own) + whole), key=_score)[:MAX_SETS])
    except Exception:  # noqa: BLE001 - as in trigger_sets: the pattern's own sets
        return [whole]
    return [list(r) for r in dict.fromkeys(map(tuple, routes))]


def table_key(regex: re.Pattern[str]) -> str:
    """The key of ``regex`` in a table of derived trigger sets: its flags and source."""
    return f"{int(regex.flags)}:{regex.pattern}"


def index_key(regexes: Sequence[re.Pattern[str]]) -> str:
    """The key of an index of ``regexes`` built ahead of time: a digest of their keys, in
    order (an index maps each regex to its position)."""
    digest = hashlib.sha256()
    for regex in regexes:
        digest.update(table_key(regex).encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def derive_table(regexes: Iterable[re.Pattern[str]]) -> dict[str, Any]:
    """:func:`trigger_routes` of each regex, as JSON data: every distinct set once, as a
    sorted list of ``[word, exact]`` under ``"sets"``; per regex key under ``"routes"``,
    its routes as lists of indices into ``"sets"``."""
    ids: dict[frozenset[Trigger], int] = {}
    routes = {table_key(r): [[ids.setdefault(tset, len(ids)) for tset in route]
                             for route in trigger_routes(r)]
              for r in regexes}
    return {"sets": [sorted([w, e] for w, e in tset) for tset in ids], "routes": routes}


def read_table(data: Mapping[str, Any]) -> dict[str, list[Route]]:
    """The inverse of :func:`derive_table`."""
    sets = [frozenset((str(w), bool(e)) for w, e in tset) for tset in data["sets"]]
    return {key: [[sets[i] for i in route] for route in routes]
            for key, routes in data["routes"].items()}


def _prefix_tree(exact: Iterable[str], prefixes: Iterable[str]) -> str:
    """One regex alternation of the trigger words, factored by common prefixes (fast to
    scan); an exact word must end there (``(?!\\w)``), a prefix may go on."""
    root: dict[str, Any] = {}
    for word, kind in [(w, "exact") for w in exact] + [(w, "prefix") for w in prefixes]:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node.setdefault("", set()).add(kind)

    def emit(node: dict[str, Any]) -> str:
        alts = [re.escape(ch) + emit(node[ch]) for ch in sorted(k for k in node if k)]
        ends = node.get("", set())
        if "prefix" in ends:
            alts.append("")
        elif "exact" in ends:
            alts.append(r"(?!\w)")
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    return emit(root)


class TriggerIndex:
    """For keyed regexes, which ones may match which of a list of texts.

    ``candidates(texts)`` returns, per text, the keys one of whose routes that
    text meets (every set of it), in key order; keys with no derivable
    condition are candidates for every text. Running each candidate regex on
    its text then gives exactly the texts each regex matches.
    """

    def __init__(self, regexes: Sequence[re.Pattern[str]],
                 known: Mapping[str, list[Route]] | None = None, shipped: bool = True) -> None:
        """``known``: routes already derived, by :func:`table_key` (a regex missing from
        it is derived here). ``shipped``: take the index built ahead of time for exactly
        these regexes (:func:`index_key`) from :mod:`compliance.judge.precompiled` when it
        has one; ``known`` is then not read at all."""
        state = precompiled.index_state(index_key(regexes)) if shipped else None
        if state is not None:
            self._restore(state)
            return
        self.always: list[int] = []
        #: Per trigger set: the (key, route) pairs for which it is the route's first (most
        #: selective) set, each with the route's other sets.
        self._first: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        self._exact: dict[str, list[int]] = {}
        self._prefix: dict[str, list[int]] = {}
        set_ids: dict[frozenset[Trigger], int] = {}
        for key, regex in enumerate(regexes):
            derived = known.get(table_key(regex)) if known is not None else None
            routes = [r for r in (trigger_routes(regex) if derived is None else derived) if r]
            for route in routes:
                ids = []
                for tset in route:
                    if tset not in set_ids:
                        set_ids[tset] = len(set_ids)
                        for word, exact in tset:
                            (self._exact if exact else self._prefix).setdefault(
                                word, []).append(set_ids[tset])
                    ids.append(set_ids[tset])
                self._first.setdefault(ids[0], []).append((key, tuple(ids[1:])))
            if not routes:
                self.always.append(key)
        self._prefix_lengths = sorted({len(w) for w in self._prefix})
        self._scan = (lazy(r"\b" + _prefix_tree(self._exact, self._prefix) + r"\w*")
                      if self._exact or self._prefix else None)
        self._token_sets: dict[str, tuple[int, ...]] = {}

    def state(self) -> IndexState:
        """What the index is made of, as plain data (``marshal`` writes it; the inverse is
        :meth:`_restore`). Keys sorted: the same index gives the same bytes whatever order
        the (hash-ordered) trigger sets gave its words."""
        scan = self._scan.pattern if self._scan is not None else None
        return (list(self.always), {k: list(self._first[k]) for k in sorted(self._first)},
                {w: list(self._exact[w]) for w in sorted(self._exact)},
                {w: list(self._prefix[w]) for w in sorted(self._prefix)}, scan)

    def _restore(self, state: IndexState) -> None:
        always, first, exact, prefix, scan = state
        self.always = list(always)
        self._first = {k: [(key, tuple(rest)) for key, rest in v] for k, v in first.items()}
        self._exact, self._prefix = dict(exact), dict(prefix)
        self._prefix_lengths = sorted({len(w) for w in self._prefix})
        self._scan = lazy(scan) if scan is not None else None
        self._token_sets = {}

    def _sets_of(self, token: str) -> tuple[int, ...]:
        ids = list(self._exact.get(token, ()))
        for n in self._prefix_lengths:
            ids.extend(self._prefix.get(token[:n], ()) if len(token) >= n else ())
        found = self._token_sets[token] = tuple(sorted(set(ids)))
        return found

    def candidates(self, texts: Iterable[str]) -> list[list[int]]:
        """Per text, the keys whose regex may match it (a superset of those that do)."""
        out: list[list[int]] = []
        if self._scan is None:
            return [self.always for _ in texts]
        findall, known, first, always = (self._scan.findall, self._token_sets, self._first,
                                         self.always)
        for text in texts:
            tokens = findall(text)  # every token that meets a trigger, whole
            if not tokens:
                out.append(always)
                continue
            have: set[int] = set()
            for token in tokens:
                ids = known.get(token)
                have.update(ids if ids is not None else self._sets_of(token))
            met = {k for s in have for k, rest in first.get(s, ())
                   if not rest or have.issuperset(rest)}
            met.update(always)
            out.append(sorted(met))
        return out


_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) if _c is not None else ()
