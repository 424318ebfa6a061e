"""The claim registry is explicit and complete, and every rule has its documentation page."""

from __future__ import annotations

import re

import pytest

from compliance.diagnostics import Level, Position
from compliance.rules.base import DOC_SECTIONS, Rule
from compliance.rules.claims import CLAIM_RULES, check_prose, judge_text

RULES = list(CLAIM_RULES.items())


def test_registry_keys_are_codes_in_order() -> None:
    assert list(CLAIM_RULES) == [f"CLM00{i}" for i in range(1, 10)] + ["CLM010"]
    assert all(code == rule.code for code, rule in RULES)


def test_names_name_the_flagged_pattern() -> None:
    names = [rule.name for rule in CLAIM_RULES.values()]
    assert names == [
        "absolute-safety-claim",
        "sandbox-stops-prompt-injection-claim",
        "no-internet-no-exfiltration-claim",
        "review-optional-claim",
        "complete-allowlist-claim",
        "absolute-isolation-claim",
        "hidden-secrets-claim",
        "complete-logs-claim",
        "pipeline-immune-claim",
        "reads-like-an-overclaim",
    ]


@pytest.mark.parametrize(("code", "rule"), RULES, ids=[c for c, _ in RULES])
def test_rule_page_has_every_section(code: str, rule: type[Rule]) -> None:
    assert issubclass(rule, Rule)
    assert rule.family == "claims"
    # the rules read grammar and fail CI; the learned second opinion asks a person
    assert rule.level is (Level.WARNING if code == "CLM010" else Level.ERROR)
    page = rule.page()
    headings = re.findall(r"^## (.+)$", page, re.M)
    assert headings == list(DOC_SECTIONS)
    assert "OWASP" in page
    assert rule.claimed and rule.why and rule.instead


def test_check_prose_maps_offsets_through_locate() -> None:
    text = "Intro line.\nThe allowlist is comprehensive."
    seen: list[int] = []

    def locate(offset: int) -> Position:
        seen.append(offset)
        line = text.count("\n", 0, offset) + 1
        return Position("claims.yaml", 10 + line, offset - (text.rfind("\n", 0, offset) + 1) + 5)

    [d] = check_prose(text, locate)
    assert (d.path, d.line, d.column, d.end_line, d.end_column) == ("claims.yaml", 12, 22, 12, 35)
    assert (d.code, d.name, d.level) == ("CLM005", "complete-allowlist-claim", Level.ERROR)
    assert d.message.startswith('"The allowlist is comprehensive." claims that the network '
                                'allowlist is complete or cannot be bypassed (the words '
                                '"comprehensive").')
    assert "Honest wording:" in d.message
    assert seen == [29, 41]


def test_judge_text_with_question_pairs_the_answer() -> None:
    [o] = judge_text("No.", question="Can customer data leave the sandbox?")
    assert (o.start, o.end, o.code) == (0, 3, "CLM003")
    assert o.message.startswith('"Can customer data leave the sandbox? No." answers the question')
    assert judge_text("Yes, through the model API.", question="Can data leave?") == []
    assert judge_text("No.") == []


def test_a_statement_in_the_question_is_the_askers_not_the_answers() -> None:
    """A question cell that goes on after its question states the asker's requirement; it
    was judged as the answer's own claim, at offsets (0, 0) and with a garbled excerpt."""
    question = "Do AI agents have access to secrets? Agents shall not have access to them."
    assert judge_text("Credentials are held by the proxy.", question=question) == []
    # an imperative prompt that presupposes a guarantee is still accepted by a "Partially"
    [o] = judge_text("Partially: microVMs (ISO-01).",
                     question="Describe how your sandbox guarantees isolation.")
    assert o.code == "CLM006" and o.end > o.start


@pytest.mark.parametrize("text", ["There is no egress control for DNS lookups.",
                                  "No network policy covers the build pods yet."])
def test_the_absence_of_a_control_is_not_the_absence_of_a_channel(text: str) -> None:
    """"no egress control" names a missing control, an honest limit; "no egress" alone is
    the no-internet premise. (Kept here, not in cases/CLM003.yaml, whose texts train the
    learned second opinion: a case added there changes its committed weights.)"""
    assert [o.code for o in judge_text(text) if o.code != "CLM010"] == []
    assert [o.code for o in judge_text("The sandbox has no egress.")] == ["CLM003"]


def test_no_longer_unseen_is_a_change_of_state_not_nothing_unseen() -> None:
    """(Here rather than in cases/CLM008.yaml, for the reason above.)"""
    assert [o.code for o in judge_text("Both sets are no longer unseen.")] == []
    assert [o.code for o in judge_text("No agent action goes unseen.")] == ["CLM008"]
