"""Run every claim rule over a text: segment once, analyse once, pair questions with answers.

:func:`judge_text` returns offsets (for the questionnaire drafter and tests);
:func:`check_prose` turns them into positioned diagnostics through a
``locate(offset) -> Position`` the caller provides (the model check maps
offsets inside YAML scalars; ``compliance lint`` maps offsets in a file).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from copy import copy
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, cast

from compliance.diagnostics import Diagnostic, Position
from compliance.judge import absolutes
from compliance.judge import lexicon as lx
from compliance.judge.analysis import Analysis, Span, analyse, normalise
from compliance.judge.engine import Pattern
from compliance.judge.overclaim import Overclaim
from compliance.judge.segment import Sentence, sentences
from compliance.judge.tables import cell_readings, framed_cells
from compliance.judge.triggers import TriggerIndex
from compliance.rules.claims.base import ClaimRule

if TYPE_CHECKING:  # pragma: no cover
    from compliance.judge.learned import Reading

EXCERPT_LIMIT = 160
#: Entries kept per memo before it is emptied. Judging a sentence depends only on its
#: normalised text (and, for a verdict, its neighbours'), so repeated sentences (a
#: questionnaire's boilerplate, a policy quoted in every section) are judged once.
MEMO_LIMIT = 50_000
#: Between two cells of a Markdown table row, and before a row's first cell.
_CELL_GAP = re.compile(r"[ \t]*\|[ \t]*")
_ROW_LEAD = re.compile(r"[ \t]*(?:[-*+>][ \t]+)?\|?[ \t]*")


def _pair_cells(text: str, spans: list[Sentence]) -> list[Sentence]:
    """Read a table row's label cell and the value cell after it as one label line:
    "| Sandbox escape | Impossible |" is judged as "Sandbox escape: Impossible"
    (same offsets; the pipe becomes the colon). A label that asks a question keeps
    the question-and-answer reading."""
    out: list[Sentence] = []
    i = 0
    while i < len(spans):
        s = spans[i]
        t = spans[i + 1] if i + 1 < len(spans) else None
        if (t is not None and not s.prose.rstrip().endswith("?")
                and _CELL_GAP.fullmatch(text, s.end, t.start)
                and _ROW_LEAD.fullmatch(text, text.rfind("\n", 0, s.start) + 1, s.start)):
            gap = t.start - s.end
            out.append(Sentence(s.start, t.end, s.prose + ":" + " " * (gap - 1) + t.prose))
            i += 2
            continue
        out.append(s)
        i += 1
    return out


def _excerpt(text: str, start: int, end: int) -> str:
    words = " ".join(re.sub(r"\*{1,3}|`+", "", text[start:end]).split())
    return words if len(words) <= EXCERPT_LIMIT else words[: EXCERPT_LIMIT - 1] + "\u2026"


def _answer_flip(question: Analysis, answer: Analysis | None,
                 after: Analysis | None) -> bool | None:
    """For a question followed by a bare yes/no answer: True if "No", False if "Yes".

    None when there is no bare answer, or when the answer concedes ("No, but ...").
    """
    if answer is None or answer.answer is None or answer.start < question.end:
        return None
    assert answer.answer_span is not None
    rest = answer.text[answer.answer_span[1]:]
    if lx.CONCESSION.search(rest):
        return None
    if after is not None and re.match(r"\s*(?:but|however|that said|note|caveat)\b", after.text):
        return None
    return answer.answer == "no"


class _Gates:
    """Which claim patterns match which sentences (exactly what running them all gives).

    A rule's gate is the alternation of its patterns, so it matches where one of
    them does. From :data:`TRIGGER_AFTER` sentences in a process on (0: from the
    first; building the index from the committed trigger table takes a few ms,
    less than compiling every pattern, which patterns do only when first tried) a
    :class:`~compliance.judge.triggers.TriggerIndex`
    says which patterns can match a sentence at all, so a sentence without any
    trigger word costs no regex search, and a pattern none of whose trigger words
    occurs is never compiled.
    """

    TRIGGER_AFTER = 0

    def __init__(self) -> None:
        self.seen = 0
        self.index: TriggerIndex | None = None
        self.codes: list[str] = []
        self.patterns: list[Pattern] = []
        #: normalised sentence -> the patterns matching it (see :data:`MEMO_LIMIT`)
        self.memo: dict[str, list[int]] = {}

    def __call__(self, lows: list[str]) -> list[list[int]]:
        """Per normalised sentence, the indices (in rule order) of the patterns matching it."""
        if not self.patterns:
            from compliance.rules.claims import CLAIM_RULES

            for code, rule in CLAIM_RULES.items():
                self.codes.extend(code for _ in rule.patterns)
                self.patterns.extend(rule.patterns)
        self.seen += len(lows)
        if self.index is None and self.seen >= self.TRIGGER_AFTER:
            from compliance.rules.claims.trigger_table import known

            self.index = TriggerIndex([p.regex for p in self.patterns], known())
        memo = self.memo
        if len(memo) + len(lows) > MEMO_LIMIT:
            memo.clear()
        new = [low for low in dict.fromkeys(lows) if low not in memo]
        if new:
            patterns = self.patterns
            keys = (self.index.candidates(new) if self.index is not None
                    else [range(len(patterns))] * len(new))
            for low, ks in zip(new, keys, strict=True):
                memo[low] = [k for k in ks if patterns[k].regex.search(low)]
        return [memo[low] for low in lows]


_gates = _Gates()
#: normalised sentence -> its analysis at offset 0 (an analysis is sentence-relative).
_ANALYSES: dict[str, Analysis] = {}
#: (rule code, flip, sentence, previous sentence or :data:`_ANY_PREV` when the verdict did
#: not read it) -> verdict; sentences are normalised texts.
_VERDICTS: dict[tuple[str, bool, str, str | None], Span | None] = {}
_ANY_PREV = "\x00any"


def _analysis(low: str, sentence: Sentence) -> Analysis:
    """``analyse(sentence)``, computed once per normalised text (``low``)."""
    template = _ANALYSES.get(low)
    if template is None:
        if len(_ANALYSES) >= MEMO_LIMIT:
            _ANALYSES.clear()
        template = _ANALYSES[low] = analyse(Sentence(0, 0, sentence.prose), low)
    an = copy(template)  # shallow: the driver only ever sets start, end and rules
    an.start, an.end = sentence.start, sentence.end
    return an


class _Judged:
    """The sentences of a text: analysed where a rule may fire or an answer starts,
    otherwise just their normalised text, made into a skipped Analysis when a
    neighbour needs it (as the sentence before, or a question's answer).

    ``patterns[i]``: per rule code, the patterns of that rule that match analysed
    sentence ``i`` (a pattern that does not match cannot be asserted); None where
    the analysis changed the text (a leading yes/no blanked), so all are tried.
    """

    def __init__(self, text: str, offset: int) -> None:
        spans = _pair_cells(text, sentences(text)) if "|" in text else sentences(text)
        self.lows = [normalise(s.prose) for s in spans]
        self.spans = [(s.start - offset, s.end - offset) for s in spans]
        self.analyses: list[Analysis | None] = [None] * len(spans)
        self.analysed: list[int] = []
        self.patterns: dict[int, dict[str, list[Pattern]] | None] = {}
        matched = _gates(self.lows)
        answer, codes, patterns = lx.ANSWER.match, _gates.codes, _gates.patterns
        for i, (s, low, keys) in enumerate(zip(spans, self.lows, matched, strict=True)):
            if not keys and not answer(low) and not absolutes.may_apply(low) and not (
                    low.rstrip().endswith("?") and (
                    _INVERTED.match(low) or _BARE_PREDICATE.match(low)
                    or _EXISTENCE.match(low))):
                continue
            by_rule: dict[str, list[Pattern]] = {}
            for k in keys:
                by_rule.setdefault(codes[k], []).append(patterns[k])
            an = _analysis(low, Sentence(s.start - offset, s.end - offset, s.prose))
            an.rules = tuple(by_rule)
            self.analyses[i] = an
            self.analysed.append(i)
            self.patterns[i] = by_rule if an.text == low else None

    def __len__(self) -> int:
        return len(self.lows)

    def __getitem__(self, i: int) -> Analysis:
        an = self.analyses[i]
        if an is None:  # nothing any rule looks for: keep the text for pronouns, no analysis
            low = self.lows[i]
            asks = low.rstrip(" \"')]*_").endswith("?")
            an = self.analyses[i] = Analysis(*self.spans[i], low, asks,
                                             None, None, [], [], [], [], skip=True)
        return an

    def judge(self, i: int, code: str, flip: bool, prev: Analysis | None) -> Span | None:
        """Rule ``code``'s verdict on analysed sentence ``i`` (``prev`` is sentence i-1).

        A verdict is a function of the sentence's normalised text and, only when the
        rule looked at it, the previous sentence's: each is computed once per process.
        """
        from compliance.rules.claims import CLAIM_RULES

        low = self.lows[i]
        alone = (code, flip, low, None if prev is None else _ANY_PREV)
        if alone in _VERDICTS:
            return _VERDICTS[alone]
        paired = (code, flip, low, self.lows[i - 1]) if prev is not None else alone
        if paired in _VERDICTS:
            return _VERDICTS[paired]
        by_rule = self.patterns[i]
        only = by_rule[code] if by_rule is not None else None
        watched = _Watched(prev) if prev is not None else None
        verdict = CLAIM_RULES[code].judge(self[i], flip, cast(Analysis | None, watched), only)
        if len(_VERDICTS) >= MEMO_LIMIT:
            _VERDICTS.clear()
        _VERDICTS[paired if watched is not None and watched.read else alone] = verdict
        return verdict


class _Watched:
    """An analysis that records whether anything read it (so a verdict that never
    looked at the previous sentence is memoised for any previous sentence)."""

    __slots__ = ("_an", "read")

    def __init__(self, an: Analysis) -> None:
        self._an = an
        self.read = False

    def __getattr__(self, name: str) -> object:
        self.read = True
        return getattr(self._an, name)


def _analyses(text: str, question: str | None) -> tuple[_Judged, int]:
    """Analyses for the sentences of ``text`` (and of a preceding ``question``, offset < 0)."""
    offset = 0
    if question:
        joined = question.rstrip() + "\n\n"
        offset = len(joined)
        text = joined + text
    return _Judged(text, offset), offset


#: (text, question) -> its findings, for texts up to :data:`TEXT_MEMO_CHARS` long: a text
#: met again (a limit every control cites, a questionnaire's boilerplate answer, the same
#: residual risk in many controls) is judged once per process.
_TEXTS: dict[tuple[str, str | None], tuple[tuple[Overclaim, ...], int]] = {}
TEXT_MEMO_CHARS = 4000


def judge_text(text: str, question: str | None = None) -> list[Overclaim]:
    """Every overclaim in ``text``, with 0-based offsets into ``text``.

    ``question`` (optional) is the question ``text`` answers, e.g. a
    questionnaire row: "Can data leave?" answered "No." is then judged as the
    claim "data cannot leave". Offsets always refer to ``text``.
    """
    return judge_text_read(text, question)[0]


def judge_text_read(text: str, question: str | None = None) -> tuple[list[Overclaim], int]:
    """:func:`judge_text`, and how many sentences of ``text`` it read (so ``lint`` can say
    what a clean run covered)."""
    if len(text) + len(question or "") > TEXT_MEMO_CHARS:
        found, read = _judge_text(text, question)
        return found, read
    key = (text, question)
    memo = _TEXTS.get(key)
    if memo is None:
        if len(_TEXTS) >= MEMO_LIMIT:
            _TEXTS.clear()
        found, read = _judge_text(text, question)
        memo = _TEXTS[key] = (tuple(found), read)
    return list(memo[0]), memo[1]


def _judge_text(text: str, question: str | None) -> tuple[list[Overclaim], int]:
    from compliance.rules.claims import CLAIM_RULES

    found: list[Overclaim] = []
    analyses, _ = _analyses(text, question)
    read = sum(start >= 0 for start, _end in analyses.spans)  # not the question's
    n = len(analyses)
    answered: dict[int, bool] = {}
    for i in analyses.analysed:
        an = analyses[i]
        if an.start < 0 and not an.question and not lx.PROMPT_ANY.match(an.text):
            # a statement in the question cell ("Agents shall not have access to production
            # secrets.") is the asker's; only a prompt can be accepted by the answer
            continue
        prev = analyses[i - 1] if i > 0 else None
        hits: list[tuple[int, int, type[ClaimRule], bool]] = []
        shared = False  # found by the shared absolute predicates (see absolutes.py)
        if an.question:
            nxt = analyses[i + 1] if i + 1 < n else None
            if nxt is not None and an.start < 0 and nxt.start < 0:
                # the question cell goes on after its question ("Do agents have access to
                # secrets? Agents shall not have access to them."): what follows is more of
                # the question, not the vendor's answer to it
                nxt = None
            after = analyses[i + 2] if i + 2 < n else None
            flip = _answer_flip(an, nxt, after)
            if flip is not None and nxt is not None:
                for code in an.rules:
                    span = analyses.judge(i, code, flip, prev)
                    if span is not None:
                        hits.append((an.start + span[0], an.start + span[1], CLAIM_RULES[code],
                                     True))
                if any(not h[2].generic for h in hits):
                    hits = [h for h in hits if not h[2].generic]
                # the question's clause decides the family, as in a statement ("Can
                # allowlisted hosts be used to exfiltrate data? No." is the allowlist's)
                hits = [(nxt.start, nxt.end, rule, True) for *_, rule, _ in _routed(an, hits)]
                if hits:
                    answered[i + 1] = True
                if not hits:
                    hits = [(nxt.start, nxt.end, rule, True)
                            for rule in _declared(an.text, flip, prev,
                                                      _intensified(nxt, analyses.lows[i + 1]))]
        else:
            for code in an.rules:
                span = analyses.judge(i, code, False, prev)
                if span is not None:
                    hits.append((an.start + span[0], an.start + span[1], CLAIM_RULES[code], False))
            if not hits:
                hits.extend(_absolute(an))
                shared = bool(hits)
        if any(not h[2].generic for h in hits) or answered.get(i):
            # (an answer whose question was already judged a family's claim: "None; the
            # filter makes it harmless" restates that claim, not a generic one)
            hits = [h for h in hits if not h[2].generic]
        if hits:
            hits = [h for h in hits if not absolutes.honest_design(an.text, h[2].code)]
        if hits and not an.question:
            hits = _routed(an, hits)
        if len(hits) > 1 and not an.question:
            hits = [h for h in hits if not _restated(an, h, hits)]
        if an.start < 0 and not an.question:
            # a presupposing prompt ("Describe how your sandbox guarantees isolation."): the
            # answer accepts it, so the finding points at the answer's first sentence
            head = next(((s, e) for s, e in analyses.spans if s >= 0), (0, len(text)))
            hits = [(*head, rule, True) for *_, rule, _ in hits]
        for start, end, rule, via_answer in hits:
            start, end = max(start, 0), max(end, 0)
            if via_answer:
                excerpt_src = " ".join(
                    x for x in (_excerpt_of(text, question, an), _excerpt(text, start, end)) if x)
            else:
                excerpt_src = _excerpt(text, an.start, an.end)
            words = "" if via_answer else _excerpt(text, start, end)
            absolute = _ABSOLUTES.get(an.text) if shared else None
            reads = absolute.reads if absolute is not None else ""
            found.append(Overclaim(start, end, rule.code, rule.name,
                                   rule.message(excerpt_src, via_answer, words, reads),
                                   excerpt_src))
    found.extend(_table_claims(text, found))
    found = _dedupe(_unframed(text, found))
    found.extend(_second_opinion(text, analyses, found, answered))
    return sorted(found, key=lambda o: (o.start, o.code)), read


#: A quotation: what it holds is mentioned, not claimed (as the rules read it).
_QUOTED = re.compile(r'"[^"]{0,300}"')
_WORDS = re.compile(r"[a-z]{2,}")
#: Fewer words than this give the model too little to weigh (a heading, a label).
SECOND_OPINION_MIN_WORDS = 6


def second_opinion_input(low: str) -> str | None:
    """What the learned second opinion reads of a normalised sentence, or None when it is
    not asked: a question, an answer, a table row (the rules read those as
    question-and-answer or label-and-value pairs), a sentence of fewer than
    :data:`SECOND_OPINION_MIN_WORDS` words once its quotations are blanked (or with a
    quotation open at its edge), or one that names neither the agent nor a topic of any
    claim family (vocabulary.yaml)."""
    if "|" in low or low.rstrip(" \"')]*_").endswith("?") or lx.ANSWER.match(low):
        return None
    if '"' in low:
        if low.count('"') % 2:  # a quotation running across the sentence's edge
            return None
        low = _QUOTED.sub(lambda m: " " * len(m.group(0)), low)
    if len(_WORDS.findall(low)) < SECOND_OPINION_MIN_WORDS or not _family_topic().search(low):
        return None
    return low


@cache
def _family_topic() -> re.Pattern[str]:
    """Any claim family's topic word (vocabulary.yaml) or the agent itself."""
    voc = absolutes.vocabulary()
    topics = [f.topic.pattern for f in voc.families if f.topic is not None]
    return re.compile("|".join(f"(?:{t})" for t in [*topics, r"\b(?:agents?|ai|llms?)\b"]))


#: normalised sentence -> the learned second opinion's reading of it (None: not asked, or
#: at or below the threshold)
_READINGS: dict[str, Reading | None] = {}


def _second_opinion(text: str, analyses: _Judged, found: list[Overclaim],
                    answered: dict[int, bool]) -> list[Overclaim]:
    """CLM010 on the statements no rule flagged that the learned model reads as overclaims
    (see :mod:`compliance.judge.learned`): not on a sentence a finding already covers,
    the answer to a judged question, or what :func:`second_opinion_input` passes over."""
    from compliance.judge import learned
    from compliance.rules.claims.second_opinion import ReadsLikeAnOverclaim

    out: list[Overclaim] = []
    # found is sorted by start: a sweep finds the findings overlapping each sentence
    spans = sorted((o.start, o.end) for o in found)
    k, reach = 0, -1  # spans[:k] have started before this sentence; reach: their last end
    for i, (start, end) in enumerate(analyses.spans):
        while k < len(spans) and spans[k][0] < end:
            reach = max(reach, spans[k][1])
            k += 1
        if start < 0 or answered.get(i) or end - start < 12:
            continue
        if reach > start:  # a finding that started before the sentence's end reaches into it
            continue
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        if "|" in text[line_start:line_end if line_end >= 0 else len(text)]:
            continue  # a table's cells: read by the rules as label and value
        low = analyses.lows[i]
        if low in _READINGS:
            reading = _READINGS[low]
        else:
            if len(_READINGS) >= MEMO_LIMIT:
                _READINGS.clear()
            asked = second_opinion_input(low)
            reading = _READINGS[low] = learned.read(asked) if asked is not None else None
        if reading is None:
            continue
        excerpt = _excerpt(text, start, end)
        threshold = learned.model().threshold  # type: ignore[union-attr]
        out.append(Overclaim(start, end, ReadsLikeAnOverclaim.code, ReadsLikeAnOverclaim.name,
                             ReadsLikeAnOverclaim.second_opinion(excerpt, reading, threshold),
                             excerpt, reading.family))
    return out


#: normalised sentence -> the absolute predicate asserted in it (see :mod:`absolutes`)
_ABSOLUTES: dict[str, absolutes.Absolute | None] = {}


def _absolute(an: Analysis) -> list[Hit]:
    """The shared absolute predicate asserted in a sentence no family rule flagged."""
    from compliance.rules.claims import CLAIM_RULES

    if an.text not in _ABSOLUTES:
        if len(_ABSOLUTES) >= MEMO_LIMIT:
            _ABSOLUTES.clear()
        _ABSOLUTES[an.text] = absolutes.find(an)
    found = _ABSOLUTES[an.text]
    if found is None:
        return []
    return [(an.start + found.start, an.start + found.end, CLAIM_RULES[found.code], False)]


#: A yes/no question led by its copula ("Are the agent logs complete?"): the subject
#: is the words after the copula, up to a point the question does not mark.
_INVERTED = re.compile(
    r"^(\s*(?:q\s*\d*\s*[:.)]\s*)?)(is|are|was|were)\s+((?:the|our|your|its|their|this|that|"
    r"these|those|all|each|every|any|a|an)\s+)?([^?]*?)\s*\?")
#: Words that do not end a subject ("protected against", "readable by", "fully").
_NOT_SUBJECT_END = re.compile(
    r"(?:against|from|to|by|of|in|on|with|for|at|into|than|and|or|\w+ly|\w+ed|\w+able|\w+ible)")


#: An answer that makes the question's predicate absolute ("Absolutely.", "Yes, fully.").
_INTENSIFIED = re.compile(r"\s*,?\s*(?:fully|completely|entirely|totally|100\s?%|absolutely|"
                          r"without (?:any )?exception)\b")
_INTENSE_ANSWERS = frozenset({"absolutely", "definitely", "completely", "fully", "entirely",
                              "totally"})
#: A bare adjective asked as the question ("Safe?", "Fully isolated?").
_BARE_PREDICATE = re.compile(
    r"^\s*(?:q\s*\d*\s*[:.)]\s*)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*\?\s*$")


#: A question after the existence of something ("Are there any bypasses of the filter?",
#: "What residual risk remains?"): answered "No"/"None", it says there is none.
_EXISTENCE = re.compile(
    r"^\s*(?:q\s*\d*\s*[:.)]\s*)?(?:(?P<cop>is|are) there (?:any |still )?(?P<thing>[^?]+?)|"
    r"(?:what|which|how much) (?P<what>[^?]+?) (?P<verb>remains?|is left|are left|exists?|"
    r"persists?)(?P<rest>[^?]*?))\s*\?")


def _denied_existence(question: str) -> str | None:
    """The statement a denied existence question makes ("there are no bypasses of the
    filter.", "no residual risk remains after the controls."), or None."""
    m = _EXISTENCE.match(question)
    if m is None:
        return None
    if m.group("cop"):
        return f"there {m.group('cop')} no {m.group('thing')}."
    return f"no {m.group('what')} {m.group('verb')}{m.group('rest')}."


def _intensified(answer: Analysis, low: str) -> bool:
    """Is ``answer`` (normalised text ``low``, before its answer token was blanked) an
    intensified yes ("Absolutely, ...", "Yes, fully.")?"""
    if answer.answer != "yes" or answer.answer_span is None:
        return False
    a, b = answer.answer_span
    return low[a:b] in _INTENSE_ANSWERS or _INTENSIFIED.match(low, b) is not None


def _declared(question: str, flip: bool, prev: Analysis | None,
              intensified: bool = False) -> list[type[ClaimRule]]:
    """The families a copula-led question claims once answered, read as statements.

    "Are the agent logs complete? Yes, fully." asserts "the agent logs are complete":
    the copula is put back after a subject of two to four words (a one-word subject is
    read in the question's own order), and each reading is judged like a sentence. An
    intensified yes ("Absolutely", "Yes, fully") makes the predicate absolute: "Is each
    agent isolated from the machine? Yes, fully." reads "each agent is fully isolated ...",
    and a bare adjective asked ("Safe? Absolutely.") reads "fully safe".
    """
    from compliance.rules.claims import CLAIM_RULES

    if flip:
        said = _denied_existence(question)
        if said is not None:
            an = analyse(Sentence(0, len(said), said))
            return [rule for rule in CLAIM_RULES.values()
                    if rule.judge(an, False, prev) is not None]
    m = _INVERTED.match(question)
    if m is None:
        bare = _BARE_PREDICATE.match(question) if intensified and not flip else None
        if bare is None:
            return []
        text = f"fully {bare.group(1)}."
        an = analyse(Sentence(0, len(text), text))
        return [rule for rule in CLAIM_RULES.values() if rule.judge(an, False, prev) is not None]
    words = m.group(4).split()
    found: list[type[ClaimRule]] = []
    adverb = "fully " if intensified and not flip else ""
    for cut in range(1 if adverb else 2, min(len(words), 5)):
        if any(_NOT_SUBJECT_END.fullmatch(w) for w in words[:cut]) or (
                cut > 1 and _NOT_SUBJECT_END.fullmatch(words[cut])):
            break  # the predicate has started: a later cut would split it
        text = (f"{m.group(1)}{m.group(3) or ''}{' '.join(words[:cut])} {m.group(2)} "
                f"{adverb}{' '.join(words[cut:])}?")
        an = analyse(Sentence(0, len(text), text))
        an.question = False
        for rule in CLAIM_RULES.values():
            if rule not in found and rule.judge(an, flip, prev) is not None:
                found.append(rule)
        if found:
            break
    return found


#: A commitment verb at the start of a generic finding ("guarantees", "is guaranteed to").
_COMMITMENT = re.compile(r"guarantee")
#: After a family's thing: it is kept from the agent ("host fully protected from agent",
#: "secret exposure to agent").
_KEPT_FROM_AGENT = re.compile(
    r"\s+(?:(?:is|are|stays?|remains?|kept|fully|completely|totally|entirely|always)\s+){0,2}"
    r"(?:(?:protected|shielded|safe|secured?|isolated|sealed|walled off)\s+from|exposure\s+to)"
    r"\s+(?:(?:the|an?|any|our|every)\s+)?(?:[\w-]+\s+)?agents?\b")
#: Before a family's thing: the agent harms it ("agent can't hurt CI").
_AGENT_HARMS = re.compile(
    r"\bagents?(?:'s)?\b[^,;.]{0,30}?\b(?:hurt|harm|damag|break|affect|compromis|endanger|"
    r"tamper with|mess with)\w*\s+(?:(?:the|our|your|its|any|their)\s+)?(?:[\w-]+\s+)?$")

Hit = tuple[int, int, type[ClaimRule], bool]


def _routed(an: Analysis, hits: list[Hit]) -> list[Hit]:
    """Report each finding under the family its sentence is about.

    A generic commitment ("the log is guaranteed to be unforgeable", "guarantees the
    host is never exposed to agent code") is the claim of the family whose things the
    sentence names, the nearest to the commitment verb; a finding whose clause has
    another family's instrument as its subject ("the allowlist fully prevents data from
    leaving") is that family's (see :attr:`ClaimRule.yields_to`).
    """
    from compliance.rules.claims import CLAIM_RULES

    codes = {h[2].code for h in hits}
    out: list[Hit] = []
    for start, end, rule, via in hits:
        at = start - an.start
        target: type[ClaimRule] | None = None
        if rule.generic:
            # a commitment verb looks across the sentence; any other generic verdict only
            # at a thing of its own clause that the agent harms or is kept from ("host fully
            # protected from agent", "agent can't hurt CI", "secret exposure to agent: none")
            commitment = _COMMITMENT.match(an.text, at) is not None
            lo, hi = (0, len(an.text)) if commitment else an.clause_of(at)
            near: tuple[int, type[ClaimRule]] | None = None
            for other in CLAIM_RULES.values():
                if other.committed is None:
                    continue
                for m in other.committed.finditer(an.text, lo, hi):
                    if an.mentioned(*m.span()) or not (
                            commitment or _KEPT_FROM_AGENT.match(an.text, m.end(), hi)
                            or _AGENT_HARMS.search(an.text, lo, m.start())):
                        continue
                    gap = abs(m.start() - at)
                    if near is None or gap < near[0]:
                        near = (gap, other)
            target = near[1] if near is not None else None
        else:
            cs = an.clause_of(at)[0]
            for code, subject in rule.yields_to.items():
                if subject.search(an.text, cs, at):
                    target = CLAIM_RULES[code]
                    break
            if target is None and rule.yields_for_reason and cs > 0 and (
                    lx.CONSEQUENCE.match(an.text, cs) or lx.FRONT_SUBORDINATE.match(an.text)):
                for code, reason in rule.yields_for_reason.items():
                    if reason.search(an.text, 0, cs):
                        target = CLAIM_RULES[code]
                        break
        if target is not None:
            if target.code in codes:
                continue  # that family already reports the sentence
            codes.add(target.code)
            rule = target
        out.append((start, end, rule, via))
    return out


#: A consequence clause about the things just named ("..., so it cannot leak them").
_CONSEQUENCE_OF_IT = re.compile(r"[\s,;]*(?:so|and so|therefore|thus|hence|which means|meaning)\b"
                                r"[^.;]*\b(?:them|it|those|these)\b")


def _restated(an: Analysis, hit: tuple[int, int, type[ClaimRule], bool],
              hits: list[tuple[int, int, type[ClaimRule], bool]]) -> bool:
    """Is ``hit`` a consequence drawn from another family's claim earlier in the sentence?"""
    rule = hit[2]
    if not rule.consequence_of:
        return False
    cs, ce = an.clause_of(hit[0] - an.start)
    return _CONSEQUENCE_OF_IT.match(an.text, cs, ce) is not None and any(
        h[2].code in rule.consequence_of and h[0] < an.start + cs for h in hits)


def _unframed(text: str, found: list[Overclaim]) -> list[Overclaim]:
    """Drop findings inside cells under a framing header ("the claim is REFUTED when",
    "Banned wording", "Example"): such a cell is a condition or a quoted example."""
    framed = framed_cells(text) if found else []
    return [o for o in found
            if not any(c.start <= o.start and o.end <= c.end for c, _ in framed)]


def _table_claims(text: str, found: list[Overclaim]) -> list[Overclaim]:
    """What the cells of pipe tables in ``text`` claim when read under their column
    headers (see :mod:`compliance.judge.tables`), at the cell, unless the same rule
    already fired on that row."""
    out: list[Overclaim] = []
    for r in cell_readings(text):
        row_start, row_end = r.row
        if r.question is not None:
            sub = judge_text(r.text, question=r.question)
        else:  # a claim the label and header make without the cell is not the cell's
            own = {o.code for o in judge_text(r.text[:r.value_at].rstrip(" :"))}
            sub = [o for o in judge_text(r.text) if o.code not in own]
        for o in sub:
            if any(f.code == o.code and f.start < row_end and row_start < f.end
                   for f in found + out):
                continue
            out.append(replace(o, start=r.cell.start, end=r.cell.end))
    return out


def _excerpt_of(text: str, question: str | None, an: Analysis) -> str:
    if an.start >= 0:
        return _excerpt(text, an.start, an.end)
    q = (question or "").rstrip() + "\n\n"
    return _excerpt(q, an.start + len(q), an.end + len(q))


def _dedupe(found: list[Overclaim]) -> list[Overclaim]:
    seen: set[tuple[int, int, str]] = set()
    out = []
    for o in sorted(found, key=lambda o: (o.start, o.code)):
        if (o.start, o.end, o.code) not in seen:
            seen.add((o.start, o.end, o.code))
            out.append(o)
    return out


def forget() -> None:
    """Empty the per-process memos (benchmarks measure a cold judge with this)."""
    _ANALYSES.clear()
    _VERDICTS.clear()
    _ABSOLUTES.clear()
    _TEXTS.clear()
    _READINGS.clear()
    _gates.memo.clear()


def has_claim_predicate(text: str) -> bool:
    """Does any claim pattern's predicate occur in ``text`` (asserted or not)?

    A cheap, memoised pre-test for callers that must decide whether judging a text
    in some context (a questionnaire question before an answer) can matter.
    """
    return bool(_gates([normalise(text)])[0])


@cache
def _topic_union() -> re.Pattern[str]:
    from compliance.rules.claims import CLAIM_RULES

    topics = dict.fromkeys(p.topic.pattern for rule in CLAIM_RULES.values()
                           for p in rule.patterns if p.topic is not None)
    return re.compile("|".join(f"(?:{t})" for t in topics) or "(?!)")


def has_claim_topic(text: str) -> bool:
    """Does a word some claim pattern needs as its topic occur in ``text``?"""
    return _topic_union().search(normalise(text)) is not None


def check_prose(text: str, locate: Callable[[int], Position]) -> list[Diagnostic]:
    """Run all claim rules over ``text``; ``locate(offset)`` maps offsets to file positions."""
    from compliance.rules.claims import CLAIM_RULES

    out: list[Diagnostic] = []
    for o in judge_text(text):
        start = locate(o.start)
        end = locate(max(o.end - 1, o.start))
        pos = replace(start, end_line=end.line, end_column=end.column + 1)
        out.append(CLAIM_RULES[o.code].diagnostic(pos, o.message))
    return out
