"""Sentence segmentation with character offsets into the original text.

Works on the masked copy from :mod:`compliance.judge.markdown`, so code is
never prose and Markdown structure ends sentences. A full stop ends a
sentence unless it belongs to an abbreviation (e.g., i.e., U.S., etc. before
a lower-case word), an initial, or a number such as v1.2.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from compliance.judge.markdown import mask

TERMINATOR = re.compile(r"[.!?\u2026]+[\"')\]\u2019\u201d]*(?=\s|$)")
INITIALISM = re.compile(r"(?:[a-z]\.)+[a-z]?")  # u.s, e.g, i.e
ALNUM = re.compile(r"[^\W_]")  # str.isalnum(), as a search
_ABBREVIATIONS = (
    "e.g i.e etc vs cf approx incl fig mr mrs ms dr st inc ltd co corp jr sr u.s u.k e.u "
    "a.m p.m al resp esp dept est viz a.k.a no nos vol pp sec ch art para ref refs"
)
ABBREVIATIONS = frozenset(_ABBREVIATIONS.split())
#: Abbreviations that may also end a sentence when a capital letter follows.
MAY_END = frozenset({"etc", "inc", "ltd", "co", "corp", "al"})


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence: ``start``/``end`` offsets into the original text, and its masked prose."""

    start: int
    end: int
    prose: str


def _is_abbreviation(word: str, following: str) -> bool:
    bare = word.rstrip(".").lstrip("(\"'").lower()
    nxt = following.lstrip()[:1]
    if bare == "no" or bare == "nos":
        return nxt.isdigit()
    if bare in ABBREVIATIONS:
        return not (bare in MAY_END and nxt.isupper())
    if "." in bare and INITIALISM.fullmatch(bare):
        return True
    return len(bare) == 1 and bare.isalpha() and word[:1].isupper() and nxt.isupper()


def _inside_quotation(prose: str, cut: int, pos: int) -> bool:
    """Is ``pos`` inside a double quotation opened since ``cut``?

    'The phrase "No data leaves. Ever." is banned.' is one sentence.
    """
    if prose.count('"', cut, pos) % 2 == 1:
        return True
    return prose.count("\u201c", cut, pos) > prose.count("\u201d", cut, pos)


def _split_block(prose: str, start: int, end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    cut = start
    block = prose[start:end]
    quoted = '"' in block or "\u201c" in block
    for m in TERMINATOR.finditer(prose, start, end):
        mark, at, after = m.group(0), m.start(), m.end()
        if quoted and _inside_quotation(prose, cut, at) and not mark.endswith(('"', "\u201d")):
            continue
        if prose[after:after + 2].lstrip()[:1].islower():
            continue  # a sentence does not start in lower case ("... access." is the claim)
        if mark[0] == "." and _is_abbreviation(
                prose[cut:at + 1].rsplit(None, 1)[-1], prose[after:after + 3]):
            continue  # the last word before the full stop (it ends with it: never empty)
        spans.append((cut, after))
        cut = after
    spans.append((cut, end))
    return spans


def sentences(text: str) -> list[Sentence]:
    """Split ``text`` into prose sentences, skipping code and markup."""
    prose, breaks = mask(text)
    cuts = sorted({0, len(prose), *breaks})
    out: list[Sentence] = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        if prose[a:b].isspace() or a == b:
            continue
        for s, e in _split_block(prose, a, b):
            chunk = prose[s:e]
            stripped = chunk.strip()
            if not ALNUM.search(stripped):
                continue
            s2 = s + len(chunk) - len(chunk.lstrip())
            out.append(Sentence(s2, s2 + len(stripped), stripped))
    return out


def line_starts(text: str) -> list[int]:
    """Offsets where each line begins, for offset -> (line, column) lookups."""
    starts = [0]
    starts.extend(m.end() for m in re.finditer(r"\r\n|\n|\r", text))
    return starts


def line_col(starts: list[int], offset: int) -> tuple[int, int]:
    """1-based (line, column) of a 0-based ``offset``."""
    i = bisect.bisect_right(starts, offset) - 1
    return i + 1, offset - starts[i] + 1
