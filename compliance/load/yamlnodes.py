"""The event builder's records: kept nodes, frames, document logs, and what it refuses.

Split from :mod:`compliance.load.yamlbuild` (the pass itself). A document is
built into two append-only logs (positions and problems); nodes that are not
part of the data (keys, duplicate values, merge sources) are dropped as ranges,
and a node used again (an alias, a merged value) is logged as a :class:`_Ref` to
its :class:`_Sum`, whose descendants are a range of the same logs. The logs are
expanded into the document's positions and problems only when it is complete,
so an alias bomb costs nothing before it is refused.
"""

from __future__ import annotations

from typing import Any

from compliance.diagnostics import Diagnostic
from compliance.load.yamlpos import NodePos, Path_, YamlDocument

_STD = "tag:yaml.org,2002:"
_STR, _SEQ, _MAP, _MERGE = (f"{_STD}{t}" for t in ("str", "seq", "map", "merge"))
_SCALAR_TAGS = {f"{_STD}{t}" for t in ("str", "int", "float", "bool", "null", "timestamp")}
_SCALAR, _LIST, _DICT = 0, 1, 2  # node kinds
_NORMAL, _DUP, _MERGING, _BAD = 0, 1, 2, 3  # what a mapping does with its current value
_DUP_ANCHOR = "second occurrence found duplicate anchor; first occurrence"
_KEYSLOT = "\x00key"  # path part of a node in key position (never kept)


class Bomb(Exception):
    """Aliases expand past the budget; carries the document root's (line, column)."""


class ComposerProblem(Exception):
    """What the composer refused (undefined alias, duplicate anchor), with its mark."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line, self.column = line, column


class TooDeep(Exception):
    """A collection nested deeper than MAX_DEPTH, at its (line, column)."""

    def __init__(self, line: int, column: int) -> None:
        super().__init__(line, column)
        self.line, self.column = line, column


class _Sum:
    """A complete node that may be used again: its value, marks, positions, problems."""

    __slots__ = ("value", "kind", "tag", "raw", "sm", "marks", "start", "end", "style",
                 "own", "size", "span", "entries", "items", "text", "merged")

    def __init__(self, value: Any, kind: int, tag: str, raw: str | None, sm: tuple[int, int],
                 marks: tuple[int, int, int, int], start: int, end: int, style: str | None,
                 own: list[Diagnostic], size: int) -> None:
        self.value, self.kind, self.tag, self.raw, self.sm = value, kind, tag, raw, sm
        self.marks, self.start, self.end, self.style = marks, start, end, style
        self.own, self.size = own, size  # own: a scalar's problem
        #: a collection's descendants, as ranges of the document's logs (not copies):
        #: (path length, positions from, to, problems from, to, dropped from, to)
        self.span: tuple[int, int, int, int, int, int, int] | None = None
        #: raw (key text or None for a non-scalar key, key mark, value) of a mapping
        self.entries: list[tuple[str | None, tuple[int, int], _Sum]] | None = None
        self.items: list[_Sum] | None = None  # children of a list
        #: a mapping's own merge sources (``<<``), in order: merged after its entries
        self.merged: list[_Sum] = []
        #: a collection's ``str(node.value)`` (what a merge makes of a non-scalar key),
        #: known for collections met in key position, else None
        self.text: str | None = None

    def node_repr(self) -> str | None:
        """``repr()`` of the ruamel node this stands for (key text of a merged complex key)."""
        if self.kind == _SCALAR:
            return f"ScalarNode(tag={self.tag!r}, value={self.raw!r})"
        if self.text is None:
            return None
        kind = "SequenceNode" if self.kind == _LIST else "MappingNode"
        return f"{kind}(tag={self.tag!r}, value={self.text})"


_IN_PROGRESS = _Sum(None, _DICT, _MAP, None, (0, 0), (0, 0, 0, 0), 0, 0, None, [], 0)


#: Alias expansions re-rooted into positions: nesting and total count (see
#: :meth:`DocumentLogs._expand_positions`).
MAX_ALIAS_NESTING = 8
MAX_ALIAS_POSITIONS = 200_000


class _Ref:
    """In the logs: a collection kept elsewhere, used at ``path`` (alias or merged value)."""

    __slots__ = ("path", "key", "s")

    def __init__(self, path: Path_, key: tuple[int, int] | None, s: _Sum) -> None:
        self.path, self.key, self.s = path, key, s


class _Frame:
    __slots__ = ("kind", "value", "path", "key", "detached", "droot", "need", "want",
                 "anchor", "sm", "tag", "pbase", "qbase", "cbase", "dbase", "items", "entries",
                 "first", "merged", "expect_key", "kstr", "kmark", "kmode", "reprs")
    kind: int
    value: Any  # the dict or list being built
    path: Path_
    key: tuple[int, int] | None  # mark of this node's key, for its NodePos
    detached: bool  # not part of the document's data (a key, a duplicate's value, ...)
    droot: bool  # a detached node in a kept parent: its records are dropped when it closes
    need: bool  # keeps its children as _Sum (anchored, a merge source, in one)
    want: bool  # makes a _Sum of itself when it closes
    anchor: str | None
    sm: Any
    tag: str
    pbase: int  # len(positions), len(problems), node count, len(dropped) when it opened
    qbase: int
    cbase: int
    dbase: int

    def __init__(self) -> None:
        self.items: list[_Sum] | None = None
        self.entries: list[tuple[str | None, tuple[int, int], _Sum]] | None = None
        self.first: dict[str, tuple[int, int]] = {}
        self.merged: list[_Sum] = []
        self.expect_key = True
        self.kstr: str | None = None
        self.kmark: tuple[int, int] | None = None
        self.kmode = _NORMAL
        self.reprs: list[str | None] | None = None  # node reprs of the children of a key


class DocumentLogs:
    """The logs of the document being built, and how they become a YamlDocument."""

    display: str
    text: str
    plist: list[tuple[Path_, NodePos]]
    probs: list[Diagnostic]
    dropped: list[tuple[int, int, int, int]]
    refs: bool
    root: list[Any]
    failed: list[Diagnostic]

    def _document(self) -> YamlDocument:
        """The document from its logs, without what was dropped, with aliases expanded.

        Only now, once the document is known to be within the expansion budget, are
        the nodes under aliases and merged values given their own positions.
        """
        plist: list[Any] = self.plist
        probs: list[Any] = self.probs
        end = len(self.dropped)
        if not self.refs:
            if end:
                plist = self._entries(plist, 0, end, 0, 0, len(plist))
                probs = self._entries(probs, 0, end, 2, 0, len(probs))
            positions = dict(plist)
        else:
            positions = self._expand_positions()
            probs = self._expand_problems()
        if self.failed:
            probs = self._once(probs)
        return YamlDocument(self.display, self.root[0], positions, self.text, probs)

    def _entries(self, log: list[Any], da: int, db: int, which: int, lo: int,
                 hi: int) -> list[Any]:
        if db == da:
            return log[lo:hi]
        return [e for a, b in self._kept(da, db, which, lo, hi) for e in log[a:b]]

    def _expand_positions(self) -> dict[Path_, NodePos]:
        """Every position, an alias's subtree re-rooted under its path (explicit stack)."""
        log, display = self.plist, self.display
        out: dict[Path_, NodePos] = {}
        top = self._entries(log, 0, len(self.dropped), 0, 0, len(log))
        stack: list[tuple[Any, Path_, int]] = [(iter(top), (), 0)]
        while stack:
            it, prefix, n = stack[-1]
            for e in it:
                if type(e) is _Ref:
                    s = e.s
                    path = (*prefix, *e.path[n:])
                    out[path] = NodePos(display, e.key, s.marks, s.start, s.end, s.style)
                    # Positions under an alias only sharpen messages; past a few nested
                    # aliases, or a budget, descendants fall back to the alias's position
                    # (an alias chain would otherwise make one path tuple per expanded node,
                    # each as long as the chain: gigabytes from a few kilobytes).
                    if (s.span is not None and len(stack) <= MAX_ALIAS_NESTING
                            and len(out) < MAX_ALIAS_POSITIONS):
                        sn, pa, pb, _, _, da, db = s.span
                        stack.append((iter(self._entries(log, da, db, 0, pa, pb)), path, sn))
                        break
                elif n or prefix:
                    out[(*prefix, *e[0][n:])] = e[1]
                else:
                    out[e[0]] = e[1]
            else:
                stack.pop()
        return out

    def _expand_problems(self) -> list[Diagnostic]:
        """Every problem in walk order, an alias's problems again where it is used."""
        log = self.probs
        out: list[Diagnostic] = []
        top = self._entries(log, 0, len(self.dropped), 2, 0, len(log))
        stack = [iter(top)]
        while stack:
            for e in stack[-1]:
                if type(e) is _Ref:
                    s = e.s
                    if s.span is None:
                        out.extend(s.own)
                    else:
                        _, _, _, qa, qb, da, db = s.span
                        stack.append(iter(self._entries(log, da, db, 2, qa, qb)))
                        break
                else:
                    out.append(e)
            else:
                stack.pop()
        return out

    def _kept(self, da: int, db: int, which: int, lo: int, hi: int) -> list[tuple[int, int]]:
        """Ranges of ``[lo, hi)`` of one log outside the holes ``dropped[da:db]``."""
        holes = sorted((h[which], -h[which + 1]) for h in self.dropped[da:db])
        out = []
        pos = lo
        for a, neg_b in holes:
            b = -neg_b
            if b <= pos:
                continue  # inside a hole already skipped
            if a > pos:
                out.append((pos, a))
            pos = b
        if pos < hi:
            out.append((pos, hi))
        return out

    def _once(self, probs: list[Diagnostic]) -> list[Diagnostic]:
        """Each "invalid value" problem only where its node was first built."""
        failed = {id(d) for d in self.failed}
        seen: set[int] = set()
        out = []
        for diag in probs:
            if id(diag) in failed:
                if id(diag) in seen:
                    continue
                seen.add(id(diag))
            out.append(diag)
        return out
