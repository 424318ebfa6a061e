"""Decide whether a family's claim pattern is asserted in an analysed sentence.

A :class:`Pattern` is a predicate of a family ("comprehensive", "bypass",
"escape") with the polarity that makes it a claim: some predicates are
overclaims when asserted ("the allowlist is comprehensive"), others when
negated ("the allowlist cannot be bypassed"). For each match the engine asks,
within the match's clause: is it mentioned rather than asserted (quotation,
reported speech, denial, question)? does the family's topic appear (or a
pronoun that points to an earlier clause or sentence that has it)? does a
real hedge or a restrictor weaken it? and how many negators scope over it,
plus one when the sentence is a question answered "No".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from compliance.judge import lexicon as lx
from compliance.judge.analysis import Analysis, Span
from compliance.judge.lazyre import lazy

FUSED_PROOF = re.compile(r"[- ]?proof\b")
#: A participle after an article, before a noun, describes that noun ("a jailbroken or
#: confused model", "an injected prompt"): the verb's negation is not its negation.
_ATTRIBUTIVE = re.compile(r"\b(?:a|an|the|any|every|each)\s+$")
_ATTRIBUTIVE_WORD = re.compile(r"[\w-]{3,}(?<!e)ed|[\w-]{3,}en")  # (not "need")
_NOUN_AFTER = re.compile(r"(?:\s+(?:or|and)\s+[\w-]+)?\s+[a-z][\w-]*")
CORE_NEGATOR = re.compile(r"not|never|no|cannot|n't")


@dataclass(frozen=True)
class Pattern:
    """A family's claim predicate.

    ``regex`` runs over lower-cased sentence text; an optional ``t`` group is the
    part whose own negation is fused in (``no risk``, ``not visible``) and is not
    counted again. ``negated``: the claim is made when an odd number of negators
    scope over the predicate. ``topic``: a word that must be in the clause (or
    reachable by a pronoun). ``requires``/``unless``: further clause conditions.
    """

    regex: re.Pattern[str]
    negated: bool = False
    topic: re.Pattern[str] | None = None
    requires: re.Pattern[str] | None = None
    unless: re.Pattern[str] | None = None
    #: Count only negators before the predicate: a commitment verb ("guaranteed")
    #: keeps its force whatever the polarity of its complement ("never to see").
    before_only: bool = False
    #: ``requires`` may be met anywhere in the sentence: a premise in a fronted clause ("With
    #: no internet, your code stays under lock and key") or a reason in the next one
    #: ("Reviewers can wave agent PRs through; there is nothing it can break").
    premise: bool = False


def pattern(regex: str, negated: bool = False, topic: str | None = None,
            requires: str | None = None, unless: str | None = None,
            before_only: bool = False, premise: bool = False) -> Pattern:
    """Compile a :class:`Pattern`. Regexes are lower-case and run on lower-cased text
    (case-insensitive matching is three times slower in Python's engine). Each compiles
    when first used: most processes need only a few of them."""
    def c(p: str | None) -> re.Pattern[str] | None:
        return lazy(p) if p else None
    return Pattern(lazy(regex), negated, c(topic), c(requires), c(unless), before_only,
                   premise)


def _topic_found(an: Analysis, clause: Span, topic: re.Pattern[str],
                 prev: Analysis | None) -> bool:
    cs, ce = clause
    if topic.search(an.text, cs, ce):
        return True
    if prev is not None and prev.question and topic.search(prev.text):
        return True  # an answer inherits its question's topic
    if not (lx.ANAPHOR.search(an.text, cs, ce) or lx.ELIDED_SUBJECT.match(an.text, cs)
            or lx.CONSEQUENCE.match(an.text, cs)):
        return False
    if topic.search(an.text, 0, cs):
        return True
    return prev is not None and topic.search(prev.text) is not None


def _classified_not(an: Analysis, s: int, e: int) -> bool:
    """Is the predicate ``s:e`` the subject or the noun of a denied classification ("X isn't
    a sandbox escape")? Its "not" says what X is, not that escape is impossible."""
    cs, ce = an.clause_of(s)
    if an.text[cs:ce].lstrip(" ,;:-*").startswith("there"):
        return False  # an existential: "there isn't a way out" denies the way out
    for m in lx.CLASSIFIED_AS_NOT.finditer(an.text, cs, ce):
        a, b = m.span("np")
        if lx.CLASSIFIED_RISK.search(an.text, a, b):
            continue
        if e <= m.start() or (a <= s and e <= b):
            return True
    return False


def find(an: Analysis, pat: Pattern, flip: bool = False,
         prev: Analysis | None = None) -> Span | None:
    """The first span where ``pat`` is asserted as a claim in ``an``, or None."""
    text = an.text
    for m in pat.regex.finditer(text):
        s, e = m.span()
        if s == e or an.mentioned(s, e):
            continue
        if pat.negated and FUSED_PROOF.match(text, e):
            continue  # "escape-proof" is its own positive predicate, not a negatable "escape"
        if pat.negated and ("not a" in text or "n't a" in text) and _classified_not(an, s, e):
            continue
        if pat.negated and _ATTRIBUTIVE.search(text, 0, s) and _ATTRIBUTIVE_WORD.fullmatch(
                text, s, e) and _NOUN_AFTER.match(text, e):
            continue  # "could not contain a jailbroken model": the model is the object
        count_inside = False
        if "t" in pat.regex.groupindex and m.group("t"):
            fused = m.span("t")
        elif pat.negated:  # a negated predicate's words are all counted
            fused = (s, s)
        else:  # a positive one's words are its own ("blocks every"), except a bare "not"
            fused = (s, e)
            count_inside = True
        clause = an.clause_of(s)
        cs, ce = clause
        if e > ce:  # a pattern spanning clauses is judged on the whole span
            ce = an.clause_of(e - 1)[1]
            clause = (cs, ce)
        if pat.topic is not None and not _topic_found(an, clause, pat.topic, prev):
            continue
        if pat.requires is not None and not (pat.requires.search(text) if pat.premise
                                             else pat.requires.search(text, cs, ce)):
            continue
        if pat.unless is not None and pat.unless.search(text, cs, ce):
            continue
        rest_end = ce
        nxt = an.clause_of(ce)
        if nxt[0] == ce and (lx.RELATIVE.match(text, ce) or lx.NEXT_RESTRICTOR.match(text, ce)):
            rest_end = nxt[1]
        if an.hedged(clause, s) or lx.RESTRICTOR.search(text, e, rest_end):
            continue
        if lx.taken_back(text, s, ce):
            continue
        if cs > 0 and lx.FRONT_RESTRICTOR.match(text):
            continue
        if lx.PAST_HABIT.search(text, cs, s):
            continue
        deontic = lx.DEONTIC.search(text, cs, e)
        if deontic is not None and not flip and deontic.span() != (s, e) and not (
                prev is not None and prev.question and deontic.group(0) == "shall"):
            # a requirement, unless the requirement word is the predicate itself; a
            # vendor's "shall" answering a customer's question is a promise, not a rule
            continue
        if pat.negated and (lx.CHANNEL.match(text, e) or (
                lx.HISTORY.search(text, cs, ce) and not lx.FUTURE_TOO.search(text, cs))):
            continue
        embedded = lx.EMBEDDED_SUBJECT.search(text, e, ce)
        scope = (cs, embedded.start() if embedded else ce)
        before = s if pat.before_only else None
        inside = sum(1 for a, b in an.negators
                     if s <= a < e and CORE_NEGATOR.fullmatch(text[a:b])) if count_inside else 0
        # (a relative clause of "there's no X" or "not a X" is denied: Analysis.negations)
        odd = (an.negations(scope, fused, before, e) + inside + int(flip)) % 2 == 1
        if odd == pat.negated:
            return s, e
    return None
