"""Per-sentence analysis, computed once and shared by every claim rule.

For one sentence it records: the normalised lower-case text (same length as
the original, so offsets stay valid), whether it is a question, a leading
yes/no answer, its clauses, the spans of negators and hedges, quoted spans,
and the regions that are mentioned rather than asserted (reported speech,
denials, embedded questions, conditionals, quotations with a cue word).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from compliance.judge import lexicon as lx
from compliance.judge.segment import Sentence

_TRANSLATE = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
                            "\u00a0": " ", "\u2010": "-", "\u2011": "-"})

Span = tuple[int, int]
#: "may"/"might" after a predicate usually sit in a relative clause ("every host an
#: attacker might use"), so they hedge only what follows them.
MODAL_HEDGES = frozenset({"may", "might"})


def normalise(text: str) -> str:
    """Lower-case and straighten quotes without changing the length; an intensifier set off
    by commas (", for all practical purposes,") is blanked; a spelled-out
    hundred per cent ("one hundred per cent", "100 percent") becomes "100%", padded
    with spaces in front, so every pattern's ``100\\s?%`` reads it. One-word intensifiers
    ("effectively untouchable") and a choice list before a colon ("(Y/N):") are blanked, and
    frequent misspellings of the same length are corrected ("recieve", "seperate")."""
    low = text.translate(_TRANSLATE).lower()
    if len(low) != len(text):  # a few characters lower-case to two code points
        low = "".join(c.lower() if len(c.lower()) == 1 else c
                      for c in text.translate(_TRANSLATE))
    if "cent" in low:
        low = lx.PER_CENT.sub(lambda m: " " * (len(m.group(0)) - 4) + "100%", low)
    if "purposes" in low or "in effect" in low or "practical" in low or (
            "ly," in low or "essence," in low):
        low = lx.INTENSIFIER_ASIDE.sub(lambda m: " " * len(m.group(0)), low)
    if "ly " in low:
        low = lx.INTENSIFIER_WORD.sub(lambda m: " " * len(m.group(0)), low)
    if "/" in low and "(" in low:
        low = lx.OPTION_LIST.sub(lambda m: " " * len(m.group(0)), low)
    low = lx.MISSPELLED.sub(lambda m: lx.SPELLING[m.group(0)], low)
    return low


#: A label answered "Yes" before a dash and its verdict ("protection: Yes - fully ...").
_LABEL_YES = re.compile(r":\s*(?:yes|y)\s*$")
_NEVER_PIECE = re.compile(r"[\s,]*never\b")
_COPULA = re.compile(r"\b(?:is|are|was|were)\b")
#: A finite clause before a negative imperative ("edits can't do anything, don't stress").
_FINITE_BEFORE_IMPERATIVE = re.compile(r"\b(?:is|are|was|were|can't|cannot|won't)\b")
_IMPERATIVE = re.compile(r"[\s,]*(?:don't|do not)\s+(?!\w+n't)[a-z]+\b(?<!\bbe)")


#: ", not pull_request_target," -- a contrastive aside: its "not" negates only its noun.
_CONTRASTIVE_ASIDE = re.compile(
    r",\s*not\s+(?!even\b|once\b|ever\b|at all\b)[\w-]+(?:\s+[\w-]+)?\s*,")


def _blank(text: str, a: int, b: int) -> str:
    return text[:a] + " " * (b - a) + text[b:]


def _bare_verb_after_modal(previous: str) -> bool:
    """Does ``previous`` end with a modal and one bare verb ("cannot print")?"""
    m = lx.OPEN_AUX.search(previous)
    return m is not None and re.fullmatch(r"\s*[a-z]+\s*", m.group("rest")) is not None


def _waiting_for_verb(previous: str) -> bool:
    """Does ``previous`` end with a modal whose verb comes after a parenthetical?"""
    m = lx.OPEN_AUX.search(previous)
    if m is None:
        return False
    rest = m.group("rest").strip()
    return (not rest or rest.startswith(",")) and not lx.VERBISH.search(rest)


def _clauses(text: str) -> list[Span]:
    text = lx.PARENTHETICAL.sub(lambda m: " " * len(m.group(0)), text)
    lead = lx.QA_LEAD.match(text) if text[:1] in "qa \t" else None
    front = lead.end() if lead is not None else 0  # a fronted clause may follow "Q:"
    asks = text.rstrip(" \"')]*_").endswith("?")  # an inverted main clause starts with "is"
    cuts = [0]
    cuts.extend(m.start() if m.group(0).strip() else m.end()
                for m in lx.BOUNDARY.finditer(text) if m.end() > 0)
    cuts.append(len(text))
    cuts = sorted(set(cuts))
    out: list[Span] = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        piece_start, first, last = a, True, (a, a)
        commas = []  # the commas of text[a:b], then b (a Python loop over characters is slow)
        at = text.find(",", a, b)
        while at >= 0:
            commas.append(at)
            at = text.find(",", at + 1, b)
        commas.append(b)
        for pos in commas:
            if pos == piece_start:
                continue
            piece = (piece_start, min(pos, b))
            words = text[piece[0]:piece[1]]
            aux = lx.AUX_START.match(text, piece[0]) is not None
            # a negative imperative after a full clause ("..., don't put prod keys there")
            # is a clause of its own, not the end of the verb phrase before it
            if aux and not first and _IMPERATIVE.match(text, piece[0]) and (
                    _FINITE_BEFORE_IMPERATIVE.search(text, last[0], last[1])):
                aux = False
            # a series of negated verb phrases ("never run, never touch secrets"): each
            # "never" scopes over its own verb, so the pieces are separate clauses
            series = aux and not first and _NEVER_PIECE.match(text, piece[0]) is not None and (
                "never" in text[last[0]:last[1]])
            if not first and not series and (
                    (not lx.VERBISH.search(words)
                     or (aux and not lx.AUX_START.match(text, last[0]))
                     # a list of subjects ("No README, web page or comment can ...")
                     or (lx.LIST_TAIL.match(text, piece[0]) is not None
                         and (not lx.VERBISH.search(text, out[-1][0], out[-1][1])
                              # a list of verbs after a modal ("cannot print, read or use")
                              or _bare_verb_after_modal(text[out[-1][0]:out[-1][1]])))
                     or _waiting_for_verb(text[out[-1][0]:out[-1][1]]))
                    # a fronted "since/because/although ..." clause ends at its comma
                    and not (len(out) == (2 if front else 1) and (not aux or asks)
                             and lx.FRONT_SUBORDINATE.match(text, front)
                             and lx.VERBISH.search(text[out[-1][0]:out[-1][1]]))):
                out[-1] = (out[-1][0], piece[1])
            else:
                # (an auxiliary after an auxiliary-led piece starts the next verb phrase of a
                # series: "..., is completely isolated, cannot leak data, and ...")
                out.append(piece)
            piece_start, first, last = pos, False, piece
    # "Escape: not possible." -- a short label before a colon is the subject of what follows,
    # and so is any label before a short verdict ("Human review of agent changes: not required")
    # (a short label has no verb of its own: "Approval is superfluous: the agent has no ..."
    # is two clauses)
    merged: list[Span] = []
    for c in out:
        if merged and _LABEL_YES.search(text, merged[-1][0], merged[-1][1]) and (
                text.startswith((" -", " \u2013", " \u2014"), c[0])):
            # "Prompt injection protection: Yes - fully mitigated": the verdict after the dash
            # is the label's
            merged[-1] = (merged[-1][0], c[1])
        elif merged and text[c[0]:c[1]].lstrip().startswith(":") and (
                (len(text[merged[-1][0]:merged[-1][1]].split()) <= 3
                 and not _COPULA.search(text, merged[-1][0], merged[-1][1]))
                or len(text[c[0]:c[1]].lstrip(" :").split()) <= 3):
            merged[-1] = (merged[-1][0], c[1])
        else:
            merged.append(c)
    return _split_subject_clauses(text, [c for c in merged if c[1] > c[0]])


def _split_subject_clauses(text: str, clauses: list[Span]) -> list[Span]:
    """Cut a sentence-initial subject clause ("the fact that X cannot merge | does not make
    review optional") from the main verb, so its negation does not scope over the main
    predicate."""
    if not clauses:
        return clauses
    out: list[Span] = []
    for a, b in clauses:
        m = lx.SUBJECT_CLAUSE.match(text, a)
        if m is None or not lx.SUBJECT_CLAUSE_LEAD.fullmatch(text, 0, a):
            out.append((a, b))
            continue
        finite = list(lx.FINITE.finditer(text, m.end(), b))
        if len(finite) < 2:
            out.append((a, b))
            continue
        cut = finite[1].start()
        out.extend([(a, cut), (cut, b)])
    return out


@dataclass
class Analysis:
    """What the rules need to know about one sentence; offsets are sentence-relative."""

    start: int
    end: int
    text: str
    question: bool
    answer: str | None
    answer_span: Span | None
    clauses: list[Span]
    negators: list[Span]
    hedges: list[Span]
    quotes: list[Span]
    mentions: list[Span] = field(default_factory=list)
    skip: bool = False
    forward: list[Span] = field(default_factory=list)
    #: Negated reporting frames ("does not mean", "never said"): their negator is theirs.
    frames: list[Span] = field(default_factory=list)
    #: Codes of the rules whose predicates occur in the sentence (set by the driver).
    rules: tuple[str, ...] = ()

    def clause_of(self, pos: int) -> Span:
        starts = [c[0] for c in self.clauses]
        i = max(bisect.bisect_right(starts, pos) - 1, 0)
        return self.clauses[i] if self.clauses else (0, len(self.text))

    def clause_index(self, pos: int) -> int:
        starts = [c[0] for c in self.clauses]
        return max(bisect.bisect_right(starts, pos) - 1, 0)

    def mentioned(self, a: int, b: int) -> bool:
        return any(ms <= a and b <= me for ms, me in self.mentions)

    def negations(self, clause: Span, exclude: Span, before: int | None = None,
                  end: int | None = None) -> int:
        """Negators in ``clause`` (outside ``exclude``, mentions); only those before
        ``before`` when given. Forward-only negators count only before ``exclude``.
        A predicate ending at ``end`` before a negated reporting frame ("blocking egress
        does not mean ...") is not negated by the frame's own negator."""
        cs, ce = clause
        if before is not None:
            ce = min(ce, before)
        at = exclude[0]
        frames = [f for f in self.frames if end is not None and end <= f[0]]
        n = sum(
            1 for a, b in self.negators
            if cs <= a < ce and not (a < exclude[1] and exclude[0] < b)
            and not self.mentioned(a, b) and not self._own_noun_phrase(a, b, at)
            and not any(fs <= a < fe for fs, fe in frames)
        )
        n += sum(1 for a, _ in self.forward if cs <= a < min(ce, exclude[0]))
        return n + int(self._antecedent_denied(clause[0]))

    def _antecedent_denied(self, cs: int) -> bool:
        """Does the relative clause starting at ``cs`` describe a denied noun phrase? A
        negated existential ("there's no keystroke | that escapes our audit") or a denied
        noun ("never as the layer | that guarantees safety"): its "no" or "not" scopes over
        the relative clause (not across a comma: ", which rules out ..." is about the whole
        clause before)."""
        rel = lx.RELATIVE.match(self.text, cs) if cs > 0 else None
        if rel is None:
            return False
        ps, pe = self.clause_of(cs - 1)
        if "," not in rel.group(0) and lx.EXISTENTIAL_NO.search(self.text, ps, pe):
            return True
        m = lx.NEGATED_ANTECEDENT.search(self.text, ps, pe)
        return m is not None and not self.mentioned(m.start(), m.end())

    def _own_noun_phrase(self, a: int, b: int, at: int) -> bool:
        """A determiner "no"/"zero" across a comma from the predicate negates its own
        noun phrase ("no exfiltration, no escapes"), and a verdict "nil"/"none" across a
        comma its own label ("risk level nil, attack surface nil"), not the predicate."""
        word = self.text[a:b]
        if word not in ("no", "zero", "nil", "none") or (
                word in ("nil", "none") and self.text[:a].rstrip().endswith(("not", "n't"))):
            return False
        lo, hi = (b, at) if b <= at else (at, a)
        comma = self.text.find(",", lo, hi)
        if comma < 0:
            return False
        # the comma of a list of subjects ("no README, web page or comment can hijack")
        return not (b <= at and lx.LIST_TAIL.match(self.text, comma) is not None
                    and not lx.VERBISH.search(self.text, b, comma))

    def hedged(self, clause: Span, pos: int) -> bool:
        """Does a hedge weaken a predicate at ``pos``? Modal hedges must come before it."""
        cs, ce = clause
        return any(
            cs <= a < ce and not self.mentioned(a, b)
            and (a < pos or self.text[a:b] not in MODAL_HEDGES)
            for a, b in self.hedges
        )


#: Per frame of :data:`lexicon.NOT_ASSERTED_FRAMES`, substrings one of which every match
#: contains (None: no cheap condition); a frame whose substrings are all absent cannot
#: match, so its search is skipped. Extend these when a frame gains an alternative.
_FRAME_NEEDS: tuple[tuple[str, ...] | None, ...] = (
    ("no", "n't", "never"),
    ("whether", "if"),
    ("claim", "say", "said", "believ", "think", "thought", "assum", "argu", "suggest",
     "expect", "ask", "worr", "fear", "insist", "promis", "advertis", "describ", "call",
     "writ", "wrote", "hope", "imagin", "want to hear"),
    None,
    ("said", "stated", "claimed", "promised", "described", "called", "read", "used to",
     "answered", "wrote"),
    ("no",),
    ("as",),
    ("wrongly", "mistakenly", "falsely", "incorrectly", "naively", "erroneously"),
    ("that",),
    ("need", "want", "requir", "demand", "wish", "would like", "prefer", "insist"),
    ("such as", "like", "including"),
    ("requir", "demand", "mandat", "expect", "calls for", "call for", "asks for", "ask for",
     "insist"),
)
assert len(_FRAME_NEEDS) == len(lx.NOT_ASSERTED_FRAMES)


#: A rule code and its name, as the tool's own outputs print them: the name is a mention.
_RULE_NAME = re.compile(r"\b[a-z]{2,5}\d{3} \(([a-z0-9]+(?:-[a-z0-9]+)+)\)")


def _mention_regions(text: str, quotes: list[Span]) -> list[Span]:
    regions: list[Span] = []
    for frame, needs in zip(lx.NOT_ASSERTED_FRAMES, _FRAME_NEEDS, strict=True):
        if needs is not None and not any(n in text for n in needs):
            continue
        for m in frame.finditer(text):
            stop = lx.CONTRAST.search(text, m.end())
            regions.append((m.end(), stop.start() if stop else len(text)))
    for c in lx.CONDITIONAL.finditer(text):
        comma = text.find(",", c.end())
        contrast = lx.CONTRAST.search(text, c.end())
        ends = [x for x in (comma, contrast.start() if contrast else -1) if x >= 0]
        regions.append((c.start(), min(ends) if ends else len(text)))
    for c in lx.COMPARISON.finditer(text) if "than" in text or " as " in text else ():
        stop = lx.CONTRAST.search(text, c.end())
        ends = [x for x in (text.find(",", c.end()), text.find(":", c.end()),
                            stop.start() if stop else -1) if x >= 0]
        regions.append((c.end(), min(ends) if ends else len(text)))
    if text[:1] in "qdeosp \t" and lx.PROMPT.match(text):
        regions.append((0, len(text)))
    if "(" in text:  # a rule's name after its code ("cfg017 (codeowners-review-not-required)")
        regions.extend(m.span(1) for m in _RULE_NAME.finditer(text))
    if quotes:
        rest = _strip_quotes(text, quotes)
        # quotations in a sentence about wording, or a bare list of quoted phrases, are
        # mentions; a quoted sentence on its own ('"No, nothing can leak."') is speech
        speech = len(quotes) == 1 and text[quotes[0][1] - 2:quotes[0][1] - 1] in ".?!"
        if lx.META.search(rest) or (not speech and not lx.VERBISH.search(rest)):
            regions.extend(quotes)
    return regions


def _strip_quotes(text: str, quotes: list[Span]) -> str:
    for a, b in quotes:
        text = _blank(text, a, b)
    return text


def analyse(sentence: Sentence, low: str | None = None) -> Analysis:
    """Analyse one sentence (offsets of the result are relative to ``sentence.start``);
    ``low``: its prose already normalised (:func:`normalise`), when the caller has it."""
    text = normalise(sentence.prose) if low is None else low
    answer = answer_span = None
    m = lx.ANSWER.match(text)
    if m:
        answer = "no" if lx.answer_is_no(m.group("a")) else "yes"
        answer_span = m.span("a")
        text = _blank(text, *answer_span)
    question = text.rstrip(" \"')]*_").endswith("?")
    if "but" in text or "yet" in text:
        for c in lx.CONCEDED_THEORY.finditer(text):
            text = _blank(text, *c.span())
    counted = text
    for n in lx.NEUTRAL.finditer(text):
        counted = _blank(counted, *n.span())
    quotes = [q.span() for q in lx.QUOTE.finditer(text)]
    negators = [n.span() for n in lx.NEGATOR.finditer(counted)]
    forward = [f.span() for f in lx.FORWARD_NEGATOR.finditer(counted)]
    if "neither" in text:  # "neither X nor Y can ...": one negation, not two
        for a, _ in [n for n in negators if text[n[0]:n[1]] == "neither"]:
            nor = next((n for n in negators if n[0] > a and text[n[0]:n[1]] == "nor"), None)
            if nor is not None:
                negators.remove(nor)
    if ", not " in text:  # a contrastive aside ("we use X, not Y, for ...") negates only Y
        for c in _CONTRASTIVE_ASIDE.finditer(text):
            negators = [n for n in negators if not c.start() <= n[0] < c.end()]
    if ":" in text or " - " in text or "\u2014" in text:
        label = lx.CONTROL_LABEL.match(text)
        if label is not None:  # "Backdoor Prevention: no persistence survives ..."
            negators = [n for n in negators if n[0] >= label.end()]
    if "with " in text:  # a prepositional "with no" negates its own noun, like "without"
        with_no = [n for n in negators if text.endswith("with ", 0, n[0])]
        negators = [n for n in negators if n not in with_no]
        forward = sorted(forward + with_no)
    return Analysis(
        start=sentence.start,
        end=sentence.end,
        text=text,
        question=question,
        answer=answer,
        answer_span=answer_span,
        clauses=_clauses(text),
        negators=negators,
        forward=forward,
        hedges=[h.span() for h in lx.HEDGE.finditer(text)],
        quotes=quotes,
        mentions=_mention_regions(text, quotes),
        frames=[m.span() for m in lx.NOT_ASSERTED_FRAMES[0].finditer(text)]
        if ("no" in text or "n't" in text or "never" in text) else [],
    )
