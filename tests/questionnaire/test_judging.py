"""The drafter's split judgement agrees with judging question and answer as one text."""

from __future__ import annotations

import pytest

from compliance.questionnaire.judging import claims_judge
from compliance.rules.claims import judge_text

CASES = [
    ("Is your egress allowlist reviewed?", "It is comprehensive and cannot be bypassed.", True),
    ("Describe how your sandbox guarantees isolation.", "Partially: microVMs (ISO-01).", True),
    ("Is the agent sandbox escape-proof?", "Yes. Agents run in microVMs (ISO-01).", True),
    ("Can data leave the sandbox?", "No. The agent has no internet access.", True),
    (
        "Are logs kept?",
        "Yes. Session logs are kept for a year (LOG-01).\nLimits: not every command is logged.",
        False,
    ),
    ("Is the allowlist complete?", "Yes, but allowed hosts can still receive data.", False),
    ("Do agents run in isolated environments?", "Yes. Agents run in microVMs (ISO-01).", False),
    (
        "Are communications restricted?",
        "Egress is denied by default (NET-01).\nThe allowlist is comprehensive.",
        True,
    ),
]


@pytest.mark.parametrize(("question", "answer", "flagged"), CASES)
def test_split_judgement_matches_whole_text(question: str, answer: str, flagged: bool) -> None:
    assert bool(judge_text(answer, question=question)) is flagged
    assert bool(claims_judge()(question, answer)) is flagged
