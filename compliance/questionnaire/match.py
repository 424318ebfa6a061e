"""Match a question no mapping covers to what the model speaks to: layers, concepts, topics.

The vocabulary (``vocabulary.yaml``) is data; this module is the engine. A
question is scored on what it *says*, never on its id or its position:

- a concept's strong term (``egress``, ``pull request``, ``audit log``) gives
  0.6, each further distinct term of the same concept 0.1 (up to 0.2 more);
- a concept with only weak terms (``network``, ``review``, ``log``) gives
  0.2 per distinct term, at most 0.4;
- a word saying the question is about AI agents (``agent``, ``LLM``,
  ``AI``) adds 0.25, a second concept at 0.5 or more adds 0.1;
- each topic the model never covers (encryption, MFA, ...) takes 0.2 off, and
  0.1 more for each further distinct word of it (up to 0.2 more): a question
  that says "cryptography, encryption, and key management" is about them.

A term ``a ~ b`` matches when both words occur at most three words apart, in
either order ("LLM privileges", "privileges of the agent"). A concept term
inside a longer topic phrase counts for the topic, not the concept (the
"secrets" of "cryptographic secrets"). A topic's ``weak`` terms ("physical",
"personnel", "documented") count only when the question has no strong term
of a concept: "login failures and security events (physical or electronic)"
is still about logging, and its other part is left for a human.

A concept's ``by_agent`` terms are strong beside a word naming the agent ("which
tokens does the bot hold"). What a question stands under counts too: when it
names no AI word itself but its section, sheet or the workbook's title does
("AI coding assistant"), its "it" / "the system" is the agent ("can it push to
main?": ``by_agent`` terms count beside it, and the AI bonus applies); a
section or sheet about a topic elsewhere ("Human resources") makes the question
about that topic. A heading never overrides a topic the question names itself.

A concept's *qualifiers* are demands a question may make of it ("immutable" or
"tamper-proof" logs, logs "kept for 90 days", credentials to "production data"):
when no claim the answer would be drafted from speaks to one the question names, the
question loses 0.35 (``penalty``) and the answer says the part about it is left for a
human (:mod:`unmapped` decides this, once the controls are known).

The score is clamped to 0..1 and compared with ``--min-confidence``. A
question about something the model never describes (offices, HR, insurance,
physical security, corporate SIEM, written policies, ...) is reported as
``elsewhere`` and is not drafted, unless it also has a strong term and an AI
word (then the answer says which part it covers).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from compliance.load.yamlpos import YamlLoadError, parse_yaml
from compliance.questionnaire.mapping import LAYERS
from compliance.questionnaire.types import QuestionnaireError

STRONG, EXTRA, EXTRA_MAX, WEAK, WEAK_MAX = 0.6, 0.1, 0.2, 0.2, 0.4
CONTEXT, SECOND_CONCEPT, UNCOVERED = 0.25, 0.1, 0.2
#: What a question loses for each qualifier it names that no claim drafted from speaks to.
QUALIFIER = 0.35
#: Default for ``--min-confidence``; docs/questionnaires.md reports the measurement behind it.
DEFAULT_MIN_CONFIDENCE = 0.55


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Concept(_Strict):
    id: str
    layer: str
    label: str
    strong: list[str]
    weak: list[str] = Field(default_factory=list)
    #: terms that are strong beside a word naming the agent ("which tokens does the agent
    #: hold"; under an AI heading, "which tokens does it hold")
    by_agent: list[str] = Field(default_factory=list)
    control: list[str]


class Topic(_Strict):
    id: str
    label: str
    terms: list[str]
    weak: list[str] = Field(default_factory=list)
    #: what a question naming this (uncovered) topic loses, before 0.1 per further word
    penalty: float = Field(default=UNCOVERED, ge=0, le=1)


class Qualifier(_Strict):
    """A demand a question makes of a concept ("immutable" logs, logs "kept for a year",
    credentials to "production data"): only a claim that speaks to it answers it."""

    id: str
    label: str
    #: the concepts it qualifies (a question about another concept ignores it)
    concepts: list[str]
    terms: list[str]
    #: words that show a control's claim speaks to it
    claims: list[str]
    penalty: float = Field(default=QUALIFIER, ge=0, le=1)


class Vocabulary(_Strict):
    concepts: list[Concept]
    context: list[str]
    #: words naming the agent itself (``by_agent`` terms are strong beside them)
    agents: list[str]
    #: words that stand for the agent when a heading above the question names AI ("it")
    subject: list[str]
    elsewhere: list[Topic]
    uncovered: list[Topic]
    qualifiers: list[Qualifier] = Field(default_factory=list)


#: How many words may stand between the two halves of an ``a ~ b`` term.
NEAR = 3
#: ... and between a word naming the agent and a ``by_agent`` term: the agent is the
#: question's subject, and its object may come a few words later ("can the tool land
#: changes on the main branch").
NEAR_AGENT = 4
#: What may stand between two words of one phrase: no comma, no full stop ("prompts,
#: outputs, embeddings, or logs" lists things; it does not say "logs prompts").
_SAME_PHRASE = r"[\s'\u2019/-]+"
#: Between the two halves of an ``a ~ b`` term: the rest of the first word, then up to
#: :data:`NEAR` words of the same phrase.
_GAP = rf"\w*(?:{_SAME_PHRASE}\w+){{0,{NEAR}}}?{_SAME_PHRASE}"
_AGENT_GAP = rf"\w*(?:{_SAME_PHRASE}\w+){{0,{NEAR_AGENT}}}?{_SAME_PHRASE}"


def term_pattern(term: str) -> re.Pattern[str]:
    """Terms of up to three letters match whole words (plural allowed); longer ones match at
    the start of a word; a space or hyphen inside a term matches spaces or hyphens, and a
    word inside a term may be plural ("communication between" matches "communications
    between"). ``a ~ b``: both in one phrase, at most :data:`NEAR` words apart, in either
    order; there only halves of up to two letters ("ai") are whole words, so "log ~ prompt"
    matches "prompts are logged"."""
    if "~" in term:
        a, b = (_term_regex(side, whole_words_upto=2) for side in term.split("~", 1))
        return re.compile(rf"{a}{_GAP}{b}|{b}{_GAP}{a}")
    return re.compile(_term_regex(term))


def _term_regex(term: str, whole_words_upto: int = 3) -> str:
    term = term.strip().casefold()
    body = r"s?[\s\-]+".join(re.escape(part) for part in re.split(r"[\s\-]+", term))
    return rf"\b{body}s?\b" if len(term) <= whole_words_upto else rf"(?<![\w]){body}"


@dataclass(frozen=True, slots=True)
class Hit:
    term: str
    words: str  # the question's own words that matched
    start: int = 0  # where they are in the folded question
    end: int = 0
    #: a by_agent term beside a word naming the agent, not a layer's own strong term
    beside_agent: bool = False

    def inside(self, other: Hit) -> bool:
        """Whether these words lie within ``other``'s longer ones."""
        longer = other.end - other.start > self.end - self.start
        return longer and other.start <= self.start and self.end <= other.end


@dataclass(frozen=True, slots=True)
class ConceptHit:
    concept: Concept
    strong: tuple[Hit, ...]
    weak: tuple[Hit, ...]

    @property
    def score(self) -> float:
        if self.strong:
            extra = _distinct(self.strong + self.weak) - 1
            return STRONG + min(EXTRA_MAX, EXTRA * extra)
        return min(WEAK_MAX, WEAK * _distinct(self.weak))


@dataclass(frozen=True, slots=True)
class Match:
    """What a question says, in the model's terms."""

    concepts: tuple[ConceptHit, ...]
    context: tuple[Hit, ...]
    elsewhere: tuple[tuple[Topic, tuple[Hit, ...]], ...]
    uncovered: tuple[tuple[Topic, tuple[Hit, ...]], ...]
    score: float
    #: ids of the topics above that only their weak terms matched ("physical")
    incidental: frozenset[str] = frozenset()
    #: the heading that decided what the question is about, when it names no AI word
    #: itself: one saying what "it" is ("AI coding assistant"; :attr:`subject` holds the
    #: question's words standing for the agent), or a section or sheet about a topic
    #: elsewhere (:attr:`framed`: "Human resources")
    heading: str = ""
    subject: tuple[Hit, ...] = ()
    framed: Topic | None = None
    #: the qualifiers of the matched concepts the question names, with the words that did
    qualifiers: tuple[tuple[Qualifier, tuple[Hit, ...]], ...] = ()
    #: the question names no AI word nor a word standing for the agent, but its own section
    #: or sheet names AI ("Agent sandbox readiness") and it has a layer's own strong term:
    #: it is about the agent, and the AI bonus applies (:attr:`heading` says which)
    under_ai: bool = False

    @property
    def layers(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.concept.layer for c in self.concepts))

    @property
    def has_strong(self) -> bool:
        return any(c.strong for c in self.concepts)

    @property
    def has_own_strong(self) -> bool:
        """A layer's own strong term, not only a by_agent word beside the agent."""
        return any(not h.beside_agent for c in self.concepts for h in c.strong)

    @property
    def words(self) -> tuple[str, ...]:
        """The question's words that matched, concepts first, then the AI words."""
        hits = [h for c in self.concepts for h in c.strong + c.weak] + list(self.context)
        said = [h.words for h in hits]
        if self.subject and self.concepts:
            said.append(f"{self.subject[0].words} (the agent, per the heading {self.heading!r})")
        elif self.under_ai:
            said.append(f"(about the agent, per the heading {self.heading!r})")
        return tuple(dict.fromkeys(said))

    @property
    def off_topic(self) -> Topic | None:
        """The topic elsewhere that keeps the question from being drafted, if any: none when
        the question also has a layer's own strong term (not only a by_agent word: "access
        to the agent platform" of a background-check question) and an AI word; a topic
        only weak words name
        does not count beside a strong term, nor one a single word names beside a concept
        two or more words name (at least 0.7). A question with no AI word of its own under
        a section or sheet about a topic elsewhere ("Human resources") is about that topic.
        A heading's AI word never overrides a topic the question names itself."""
        if self.has_own_strong and self.context:
            return None
        if self.framed is not None:
            return self.framed
        settled = bool(self.concepts) and self.concepts[0].score >= STRONG + EXTRA
        for topic, hits in self.elsewhere:
            if topic.id in self.incidental and self.has_strong:
                continue  # "physical or electronic" beside "security events logged"
            if settled and _distinct(hits) == 1:
                continue  # "... flag unknown domains, detect uploads": one item of a list
            return topic
        return None


class Matcher:
    """Compiled vocabulary: :meth:`match` scores one question's text."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self._concepts = [
            (c, _compile(c.strong), _compile(c.weak), _compile(c.control))
            for c in vocabulary.concepts
        ]
        self._context = _compile(vocabulary.context + vocabulary.agents)
        self._subject = _compile(vocabulary.subject)
        agents, stand_ins = vocabulary.agents, vocabulary.agents + vocabulary.subject
        self._by_agent = [_compile_near(agents, c.by_agent) for c in vocabulary.concepts]
        self._by_subject = [_compile_near(stand_ins, c.by_agent) for c in vocabulary.concepts]
        self._elsewhere = [(t, _compile(t.terms), _compile(t.weak)) for t in vocabulary.elsewhere]
        self._uncovered = [(t, _compile(t.terms), _compile(t.weak)) for t in vocabulary.uncovered]
        self._qualifiers = [
            (q, _compile(q.terms), _compile(q.claims)) for q in vocabulary.qualifiers
        ]

    def match(self, text: str, headings: Sequence[str] = (), titles: Sequence[str] = ()) -> Match:
        """Score ``text``. ``headings`` (its section, then its sheet's name) and ``titles``
        (the workbook's title rows) say what the question stands under: when the question
        has no AI word of its own, the nearest heading or title with one makes the
        question's "it" / "the system" the agent (its ``by_agent`` terms then count, and
        the AI bonus); a section or sheet about a topic elsewhere frames the question as
        about that topic."""
        spaced = " ".join(text.split())
        folded = spaced.casefold()
        context = _hits(self._context, folded)
        heading, framed, section = ("", None, False) if context else self._heading(headings, titles)
        subject = _hits(self._subject, folded) if heading and framed is None else ()
        capitals: tuple[Hit, ...] = ()
        if len(spaced) == len(folded):  # "IT governance" is information technology, not "it"
            capitals = tuple(h for h in subject if spaced[h.start : h.end].isupper())
            subject = tuple(h for h in subject if h not in capitals)
        near = self._by_agent if context else self._by_subject if subject else None
        plain = [_hits(strong, folded) for _c, strong, _w, _control in self._concepts]
        said_plainly = [h for hits in plain for h in hits]
        raw = []
        for i, (concept, _strong, weak_terms, _control) in enumerate(self._concepts):
            # beside the agent, a by_agent term is strong; where it overlaps a strong term
            # the strong term is the reading ("audit logs of AI agents"; the "access" of
            # "network access from agent sessions" is egress, not credentials)
            by_agent = _hits(near[i], folded) if near else ()
            by_agent = tuple(
                replace(h, beside_agent=True)
                for h in by_agent
                if not any(_overlap(h, p) for p in said_plainly)
                and not _names_the_agent(h, folded, subject)
            )
            # the words standing for the agent are not the concept's ("the tool")
            weak = tuple(h for h in _hits(weak_terms, folded)
                         if not any(_overlap(h, x) for x in subject))  # fmt: skip
            raw.append((concept, plain[i] + by_agent, weak))
        # the longer phrase wins: "cryptographic secrets" is encryption, not credentials;
        # "retention period for those logs" is logging, not data retention
        said = [h for _c, s, w in raw for h in s + w]
        elsewhere, incidental_e = _topics(self._elsewhere, folded, said)
        uncovered, incidental_u = _topics(self._uncovered, folded, said)
        phrases = [h for _t, hits in elsewhere + uncovered for h in hits]
        # ... and between concepts: the "tool-call" of "tool-call logs" is logging
        longer = [h for _c, s, _w in raw for h in s]
        concepts = []
        for concept, strong, weak in raw:
            s = _outside(_outside(strong, phrases), longer)
            w = _outside(_outside(weak, phrases), longer)
            w = tuple(h for h in w if not any(h.words in x.words for x in s))
            if s or w:
                concepts.append(ConceptHit(concept, s, w))
        concepts.sort(key=lambda c: -c.score)
        has_strong = any(c.strong for c in concepts)
        # a section or sheet naming AI makes a question with a layer's own strong term about
        # the agent even when it has no "it" ("Are logs kept?" under "Agent sandbox"); a
        # workbook title does not ("AI vendor questionnaire" is above every question)
        under_ai = bool(
            section and framed is None and not subject and not capitals
            and any(not h.beside_agent for c in concepts for h in c.strong)
        )  # fmt: skip
        # a topic only its weak words name is incidental beside a concept's strong term
        incidental = (incidental_e | incidental_u) if has_strong else frozenset()
        score = 0.0
        if concepts:
            score = concepts[0].score
            if len(concepts) > 1 and concepts[1].score >= 0.5:
                score += SECOND_CONCEPT
            if context or subject or under_ai:
                score += CONTEXT
            for topic, hits in uncovered:
                if topic.id not in incidental:
                    score -= topic.penalty + min(EXTRA_MAX, EXTRA * (_distinct(hits) - 1))
        score = round(min(1.0, max(0.0, score)), 2)
        named = {c.concept.id for c in concepts}
        qualifiers = tuple(
            (q, hits)
            for q, terms, _claims in self._qualifiers
            if named.intersection(q.concepts) and (hits := _hits(terms, folded))
        )
        return Match(
            tuple(concepts), context, elsewhere, uncovered, score, incidental,
            heading if subject or framed or under_ai else "", subject, framed, qualifiers,
            under_ai,
        )  # fmt: skip

    def speaks_to(self, qualifier: Qualifier, claim: str) -> bool:
        """Whether a control's claim speaks to what ``qualifier`` demands."""
        for q, _terms, claims in self._qualifiers:
            if q.id == qualifier.id:
                return bool(_hits(claims, " ".join(claim.split()).casefold()))
        return False

    def _heading(
        self, headings: Sequence[str], titles: Sequence[str]
    ) -> tuple[str, Topic | None, bool]:
        """The nearest heading that says what the question is about: one with an AI word
        (returned, and whether it is the question's section or sheet rather than the
        workbook's title), or a section or sheet about a topic elsewhere (returned with the
        topic; a workbook title never frames a topic: "Security and privacy questionnaire"
        is about every question). ("", None, False) when none says either."""
        for n, where in enumerate((*headings, *titles)):
            folded = " ".join(where.split()).casefold()
            if _hits(self._context, folded):
                return where, None, n < len(headings)
            if n < len(headings):
                for topic, terms, _weak in self._elsewhere:
                    if _hits(terms, folded):
                        return where, topic, True
        return "", None, False

    def control_mentions(self, concept: Concept, control_text: str) -> bool:
        """Whether a control's own words name the concept (its ``control`` terms)."""
        for c, _s, _w, pats in self._concepts:
            if c.id == concept.id:
                return bool(_hits(pats, control_text.casefold()))
        return False


_Compiled = list[tuple[str, re.Pattern[str]]]


def _compile(terms: list[str]) -> _Compiled:
    return [(t, term_pattern(t)) for t in terms]


def _compile_near(agents: list[str], terms: list[str]) -> _Compiled:
    """``agent ~ term`` for every term, with any of ``agents`` as the agent's half, at most
    :data:`NEAR_AGENT` words apart."""
    who = "(?:" + "|".join(_term_regex(a, whole_words_upto=2) for a in agents) + ")"
    out = []
    for term in terms:
        what = _term_regex(term, whole_words_upto=2)
        pattern = rf"{who}{_AGENT_GAP}{what}|{what}{_AGENT_GAP}{who}"
        out.append((f"agent ~ {term}", re.compile(pattern)))
    return out


def _topics(
    compiled: list[tuple[Topic, _Compiled, _Compiled]],
    folded: str,
    said: list[Hit],
) -> tuple[tuple[tuple[Topic, tuple[Hit, ...]], ...], frozenset[str]]:
    """The topics a question names (outside longer concept phrases, ``said``), and the ids
    of those only weak terms named."""
    found, weak_only = [], set()
    for topic, terms, weak in compiled:
        strong_hits = _outside(_hits(terms, folded), said)
        weak_hits = _outside(_hits(weak, folded), said)
        if strong_hits or weak_hits:
            found.append((topic, strong_hits + weak_hits))
            if not strong_hits:
                weak_only.add(topic.id)
    return tuple(found), frozenset(weak_only)


def _names_the_agent(hit: Hit, folded: str, subject: tuple[Hit, ...]) -> bool:
    """Whether a by_agent hit's term is only the word standing for the agent ("tool" beside
    "itself" in "can this tool deploy by itself"): its term occurs in the hit only inside
    the question's words for the agent."""
    term = hit.term.split("~", 1)[1].strip()
    pattern = re.compile(_term_regex(term, whole_words_upto=2))
    spots = [
        (hit.start + m.start(), hit.start + m.end())
        for m in pattern.finditer(folded[hit.start : hit.end])
    ]
    return bool(spots) and all(any(s.start <= a and b <= s.end for s in subject) for a, b in spots)


def _overlap(a: Hit, b: Hit) -> bool:
    return a.start < b.end and b.start < a.end


def _distinct(hits: tuple[Hit, ...]) -> int:
    """How many separate places of the question the hits cover (overlapping hits, such as
    "human oversight" and "reviews, and human", are one)."""
    count, end = 0, -1
    for h in sorted(hits, key=lambda h: (h.start, h.end)):
        if h.start >= end:
            count += 1
        end = max(end, h.end)
    return count


def _outside(hits: tuple[Hit, ...], phrases: list[Hit]) -> tuple[Hit, ...]:
    """Drop the hits that lie inside a longer phrase of another kind."""
    return tuple(h for h in hits if not any(h.inside(p) for p in phrases))


def _hits(patterns: list[tuple[str, re.Pattern[str]]], folded: str) -> tuple[Hit, ...]:
    out: dict[str, Hit] = {}
    for term, pattern in patterns:
        m = pattern.search(folded)
        if m and term not in out:
            end = m.end()
            while end < len(folded) and (folded[end].isalnum() or folded[end] == "-"):
                end += 1  # the whole word: "isolat" shows as "isolated"
            out[term] = Hit(term, folded[m.start() : end], m.start(), end)
    # A term inside a longer hit of the same list ("log" in "audit log") adds nothing.
    words = [h.words for h in out.values()]
    return tuple(h for h in out.values() if not any(h.words != w and h.words in w for w in words))


@cache
def builtin_matcher() -> Matcher:
    """The matcher over the packaged ``vocabulary.yaml``."""
    where = "builtin:vocabulary.yaml"
    text = (resources.files("compliance.questionnaire") / "vocabulary.yaml").read_text("utf-8")
    try:
        doc = parse_yaml(text, where)
        vocabulary = Vocabulary.model_validate(doc.data)
    except (YamlLoadError, ValidationError) as exc:  # a packaging bug, said plainly
        raise QuestionnaireError(f"{where}: cannot be read ({exc})") from None
    unknown = [c.layer for c in vocabulary.concepts if c.layer not in LAYERS]
    if unknown:
        raise QuestionnaireError(f"{where}: unknown layer {unknown[0]!r}")
    return Matcher(vocabulary)
