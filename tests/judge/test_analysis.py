"""Per-sentence analysis: clauses, negators, hedges, mentions, answers."""

from __future__ import annotations

from compliance.judge import analyse, sentences
from compliance.judge.analysis import Analysis


def one(text: str) -> Analysis:
    [s] = sentences(text)
    return analyse(s)


def clause_texts(an: Analysis) -> list[str]:
    return [an.text[a:b].strip(" ,") for a, b in an.clauses]


def test_clauses_split_at_conjunctions_and_intro_phrases_not_lists() -> None:
    an = one("With no network access, an attacker could still exfiltrate data, "
             "tokens or keys, but the model connection stays open.")
    assert clause_texts(an) == [
        "with no network access",
        "an attacker could still exfiltrate data, tokens or keys",
        "but the model connection stays open.",
    ]


def test_parenthetical_adverb_does_not_split_negation_from_its_verb() -> None:
    an = one("It does not, however, prevent prompt injection.")
    assert len(an.clauses) == 1


def test_network_premise_and_without_exception_are_not_negators() -> None:
    an = one("The agent has no internet access and all activity is logged without exception.")
    assert [an.text[a:b] for a, b in an.negators] == []


def test_hedges_are_found_and_intensifiers_are_not() -> None:
    hedged = one("The sandbox reduces and limits exposure.")
    assert [hedged.text[a:b] for a, b in hedged.hedges] == ["reduces", "limits"]
    intense = one("It essentially, virtually, for all practical purposes eliminates it.")
    assert intense.hedges == []


def test_mentions_cover_quotes_with_a_cue_and_reported_speech() -> None:
    an = one('Statements such as "safe by default" do not appear in our materials.')
    assert an.mentioned(20, 35)
    scare = one('Our sandbox is "bulletproof".')
    assert not scare.mentioned(16, 27)
    asked = one("Customers sometimes ask whether the sandbox is fully secure.")
    assert asked.mentioned(asked.text.index("fully"), asked.text.index("secure") + 6)


def test_answers_and_questions() -> None:
    assert one("Can data leave?").question
    no = one("No, the agent is offline.")
    assert (no.answer, no.answer_span) == ("no", (0, 2))
    assert no.text.startswith("  ,")
    assert one("No data leaves.").answer is None
    assert one("Yes.").answer == "yes"
