"""Drafting for questionnaires no mapping recognises: narrative only, scoped, VERIFIED only."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from compliance.pipeline import load_and_check
from compliance.questionnaire import Format, Question, Questionnaire
from compliance.questionnaire.draft import draft_answers
from compliance.questionnaire.judging import claims_judge
from compliance.questionnaire.match import DEFAULT_MIN_CONFIDENCE, builtin_matcher
from compliance.questionnaire.unmapped import UnmappedPolicy, scope_line
from compliance.questionnaire.verdicts import control_verdicts
from tests.conftest import REPO

AS_OF = dt.date(2026, 11, 30)
LABELS = Path(__file__).parent / "data" / "relevance-labels.csv"

AGENT = {
    "a1": "Do you maintain audit logs of AI agent activity?",
    "a2": "Are changes to production code reviewed and approved before merge?",
    "a3": "Do LLM integrations use least-privilege credentials?",
    "a4": "Are AI coding agents run in a sandbox?",
    "a5": "Is outbound network access from agent environments restricted?",
}
UNRELATED = {
    "u1": ("Where is your company headquartered?", "company offices and locations"),
    "u2": ("Do you perform background checks on new employees?", "human resources and staff"),
    "u3": ("Do you carry cyber liability insurance?", "insurance and finance"),
    "u4": ("Are visitors to the data center escorted?", "physical security and facilities"),
    "u5": (
        "Do you run a SIEM that collects security events from all systems 24x7?",
        "corporate security monitoring (SIEM/SOC)",
    ),
}


@pytest.fixture(scope="module")
def example() -> Any:
    checked = load_and_check(REPO, AS_OF)
    assert checked.ok and checked.workspace.model is not None
    return checked


def draft(example: Any, texts: dict[str, str], **policy: Any) -> dict[str, Any]:
    questions = [
        Question(key=k, id=k, text=t, choices=("Yes", "No", "NA")) for k, t in texts.items()
    ]
    q = Questionnaire(Path("q.csv"), Format.CSV, questions)
    return draft_answers(
        q,
        example.workspace.model,
        control_verdicts(example.result.verdicts),
        example.workspace.root / "evidence",
        policy.pop("judge", None) or claims_judge(),
        UnmappedPolicy(**policy),
    )


def test_agent_questions_get_scoped_traced_narratives(example: Any) -> None:
    answers = draft(example, AGENT)
    verdicts = control_verdicts(example.result.verdicts)
    scope = scope_line(example.workspace.model.system)
    for key, answer in answers.items():
        assert answer.answered, (key, answer.unanswered_reason)
        assert answer.choice is None  # never a Yes/No/NA on an unmapped questionnaire
        assert answer.narrative.startswith(scope + "\n")
        assert answer.control_ids and all(verdicts[c] == "verified" for c in answer.control_ids)
        assert answer.evidence_sha256 and all(len(s) == 64 for s in answer.evidence_sha256)
        assert answer.limits and "Limits:" in answer.narrative
        assert answer.match_score is not None and answer.match_score >= DEFAULT_MIN_CONFIDENCE
    assert answers["a1"].control_ids == ("LOG-01",)  # LOG-02 is partial: never used here
    assert answers["a1"].matched == ("audit logs", "agent", "ai")
    assert answers["a2"].control_ids == ("GIT-01", "GIT-02")  # GIT-03 is unverified
    assert answers["a4"].control_ids == ("ISO-01", "ISO-02")
    assert answers["a5"].control_ids == ("NET-01", "NET-02")
    model = example.workspace.model
    claims = {c.id: " ".join(c.claim.split()).rstrip(".") for c in model.controls}
    assert answers["a4"].narrative.splitlines()[1:3] == [
        f"{claims['ISO-01']} (ISO-01).",
        f"{claims['ISO-02']} (ISO-02).",
    ]


def test_unrelated_questions_are_left_blank_with_the_reason(example: Any) -> None:
    answers = draft(example, {k: t for k, (t, _) in UNRELATED.items()})
    for key, (_, topic) in UNRELATED.items():
        answer = answers[key]
        assert not answer.answered
        assert answer.unanswered_reason.startswith(f"about {topic} (")
        assert answer.unanswered_reason.endswith(
            "which the model of agent controls does not describe; left for a human"
        )


def test_a_compound_question_says_which_part_it_covers(example: Any) -> None:
    text = (
        "Is customer data encrypted at rest, and is outbound network access from AI agents "
        "restricted?"
    )
    answer = draft(example, {"c": text})["c"]
    assert answer.answered
    assert answer.narrative.splitlines()[1] == (
        "This answer covers only the part about network egress from agent sessions; the part "
        "about encryption and key management, data handling and retention is left for a human."
    )
    assert answer.control_ids == ("NET-01", "NET-02")


def test_an_incidental_topic_is_the_part_left_for_a_human(example: Any) -> None:
    text = "Are security events, physical or electronic, written to an audit trail?"
    answer = draft(example, {"p": text})["p"]
    assert answer.answered and answer.control_ids == ("LOG-01",)
    assert answer.narrative.splitlines()[1] == (
        "This answer covers only the part about logging of agent sessions; the part about "
        "physical security and facilities is left for a human."
    )


def test_only_verified_claims_count(example: Any) -> None:
    # Anything but VERIFIED (unverified, refuted, partly verified) supports nothing here.
    verdicts = {c.id: "partly verified" for c in example.workspace.model.controls}
    q = Questionnaire(Path("q.csv"), Format.CSV, [Question(key="a", id="a", text=AGENT["a4"])])
    answer = draft_answers(
        q, example.workspace.model, verdicts, REPO / "evidence", claims_judge(), UnmappedPolicy()
    )["a"]
    assert not answer.answered
    assert answer.unanswered_reason == (
        "no deployed control with a VERIFIED claim covers isolation of agent sessions "
        "(ISO-01: partly verified; ISO-02: partly verified)"
    )
    assert answer.control_ids == ("ISO-01", "ISO-02")  # suggested for the human


def test_min_confidence_leaves_weak_matches_blank(example: Any) -> None:
    answer = draft(example, {"w": "Are network configurations reviewed?"})["w"]
    assert not answer.answered
    assert answer.unanswered_reason.startswith(
        "the question matches the model too weakly to draft (score 0.20 < --min-confidence 0.55; "
        "matched: network, reviewed); controls that may answer it: NET-01, NET-02, GIT-01"
    )
    strict = draft(example, {"a": AGENT["a1"]}, min_confidence=0.9)["a"]
    assert not strict.answered and "score 0.85 < --min-confidence 0.90" in strict.unanswered_reason


def test_a_flagged_draft_is_left_blank_with_the_judges_message(example: Any) -> None:
    def judge(_question: str, _answer: str) -> list[str]:
        return ["sounds absolute [CLM001]"]

    answer = draft(example, {"a": AGENT["a4"]}, judge=judge)["a"]
    assert not answer.answered
    assert (
        answer.unanswered_reason
        == "the claims judge flagged the drafted answer: sounds absolute [CLM001]"
    )


def test_every_drafted_answer_passes_the_claims_judge(example: Any) -> None:
    judge = claims_judge()
    for key, answer in draft(example, AGENT).items():
        assert judge(AGENT[key], answer.narrative) == []


def test_matcher_reports_the_words_that_matched() -> None:
    m = builtin_matcher().match("Are AI coding agents run in a sandbox?")
    assert (m.score, m.layers, m.words) == (0.85, ("isolation",), ("sandbox", "agents", "ai"))
    assert builtin_matcher().match("What is the weather like?").score == 0.0


def test_labels_file_holds_ids_and_labels_only() -> None:
    with LABELS.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["questionnaire", "id", "label"]
    assert {r[2] for r in rows[1:]} == {"agent", "unrelated"}
    assert all(len(r) == 3 and len(r[1]) < 40 and " " not in r[1] for r in rows[1:])


def test_labelled_real_questions(shared_data: Path, example: Any) -> None:
    """CAIQ (mapping disabled), AICM and VSAQ read as unseen: no unrelated question drafted."""
    from compliance.questionnaire import load_questionnaire
    from tests.questionnaire.labelled import FILES, labels, unmapped_overrides

    wanted = labels()
    drafted = {"agent": 0, "unrelated": 0}
    seen = 0
    for name, path in FILES.items():
        book = load_questionnaire(shared_data / path, unmapped_overrides())
        answers = draft_answers(
            book,
            example.workspace.model,
            control_verdicts(example.result.verdicts),
            example.workspace.root / "evidence",
            claims_judge(),
            UnmappedPolicy(),
        )
        for q in book.questions:
            label = wanted.get((name, q.id or q.key))
            if label:
                seen += 1
                drafted[label] += answers[q.key].answered
                assert answers[q.key].choice is None
    assert seen == len(wanted)
    assert drafted["unrelated"] == 0
    # measured: 20 of 30 (docs/questionnaires.md); CAIQ LOG-02.1 asks about log retention,
    # which the claim of LOG-01 does not speak to
    assert drafted["agent"] >= 20


def test_aicm_mapping_answers_its_agent_relevant_questions(
    shared_data: Path, example: Any
) -> None:
    """The built-in AICM mapping (not the matcher) against the same hand labels."""
    from compliance.questionnaire import load_questionnaire
    from tests.questionnaire.labelled import FILES, labels

    book = load_questionnaire(shared_data / FILES["aicm-caiq-1.1.0"])
    assert book.recognised
    answers = draft_answers(
        book,
        example.workspace.model,
        control_verdicts(example.result.verdicts),
        example.workspace.root / "evidence",
        claims_judge(),
        UnmappedPolicy(),
    )
    wanted = {i: label for (n, i), label in labels().items() if n == "aicm-caiq-1.1.0"}
    drafted = {i for i, a in answers.items() if a.answered}
    assert sorted(i for i, label in wanted.items() if label == "unrelated" and i in drafted) == []
    missed = sorted(i for i, label in wanted.items() if label == "agent" and i not in drafted)
    # (AIS-06.1 was missed while the judge read "trigger (PIPE-01)." as a verb: CLM009)
    assert missed == []
    verdicts = control_verdicts(example.result.verdicts)
    for key in drafted:
        if answers[key].choice is not None:
            assert any(verdicts[c] == "verified" for c in answers[key].control_ids)


def test_dev_set_labels_name_questions_the_reader_finds() -> None:
    """Our own dev set (tests/questionnaire/data/dev): every labelled id is read as a
    question, about half are agent-relevant."""
    from compliance.questionnaire import load_questionnaire
    from tests.questionnaire.labelled import DEV_SETS, dev_labels, unmapped_overrides

    counts = {"agent": 0, "unrelated": 0}
    for questionnaire, labels_file in DEV_SETS.items():
        wanted = dev_labels(labels_file)
        read = {q.id for q in load_questionnaire(questionnaire, unmapped_overrides()).questions}
        assert sorted(set(wanted) - read) == []
        for label in wanted.values():
            counts[label] += 1
    assert counts == {"agent": 136, "unrelated": 143}


def test_a_question_under_an_ai_heading_is_drafted_and_says_why(
    example: Any, tmp_path: Path
) -> None:
    from compliance.questionnaire import load_questionnaire

    path = tmp_path / "q.csv"
    path.write_text(
        "Vendor review,,\nID,Question,Answer\nCoding agents,,\n"
        "1,Which hosts can it connect to?,\nHuman resources,,\n"
        "2,Are their credentials revoked on the last day?,\n",
        encoding="utf-8",
    )
    book = load_questionnaire(path)
    answers = draft_answers(
        book,
        example.workspace.model,
        control_verdicts(example.result.verdicts),
        example.workspace.root / "evidence",
        claims_judge(),
        UnmappedPolicy(),
    )
    agent, hr = answers["1"], answers["2"]
    assert agent.answered and agent.choice is None
    assert agent.narrative.startswith(scope_line(example.workspace.model.system) + "\n")
    assert agent.control_ids == ("NET-01", "NET-02") and agent.evidence_sha256 and agent.limits
    assert agent.matched == ("it connect", "it (the agent, per the heading 'Coding agents')")
    assert claims_judge()(book.questions[0].text, agent.narrative) == []
    assert not hr.answered
    assert hr.unanswered_reason == (
        "about human resources and staff (under the heading 'Human resources'), which the "
        "model of agent controls does not describe; left for a human"
    )


def test_dev_set(example: Any) -> None:
    """Our own dev set read as unseen: no unrelated question drafted, every drafted answer
    scoped, traced and passing the judge."""
    from compliance.questionnaire import load_questionnaire
    from tests.questionnaire.labelled import DEV_SETS, dev_labels, unmapped_overrides

    judge = claims_judge()
    scope = scope_line(example.workspace.model.system)
    drafted = {}
    for questionnaire, labels_file in DEV_SETS.items():
        wanted = dev_labels(labels_file)
        book = load_questionnaire(questionnaire, unmapped_overrides())
        answers = draft_answers(
            book,
            example.workspace.model,
            control_verdicts(example.result.verdicts),
            example.workspace.root / "evidence",
            judge,
            UnmappedPolicy(),
        )
        for q in book.questions:
            a = answers[q.key]
            if a.answered:
                drafted[q.id] = wanted[q.id]
                assert a.choice is None and a.narrative.startswith(scope + "\n")
                assert a.control_ids and a.evidence_sha256 and a.limits and a.matched
                assert judge(q.text, a.narrative) == []
    unrelated = sorted(i for i, label in drafted.items() if label == "unrelated")
    assert unrelated == []
    # measured: 112 of 136 (103 before the quest5 wording classes); nine more were drafted
    # before qualifiers, each from a claim that
    # does not say what the question asks (how long logs are kept, whether they can be
    # altered or deleted, access to production)
    assert sum(label == "agent" for label in drafted.values()) >= 112


def test_a_demand_no_drafted_claim_speaks_to_leaves_the_question_for_a_human(
    example: Any,
) -> None:
    """High-scoring questions whose point is a qualifier the claims do not speak to: the
    example's LOG-01 says logs are exported, not that they cannot be changed or how long
    they are kept; CRED-02 says which files the sandbox cannot read, not what reaches
    production."""
    answers = draft(example, {
        "tamper": "Are the AI agent's session logs tamper-evident?",
        "kept": "Are AI agent tool-call logs kept for twelve months?",
        "prod": "Could the AI agent's token open the production database?",
    })
    assert {k: (a.answered, a.match_score) for k, a in answers.items()} == {
        "tamper": (False, 0.5), "kept": (False, 0.5), "prod": (False, 0.5)
    }
    assert answers["tamper"].unanswered_reason == (
        "the question asks about whether records can be altered or deleted (tamper-evident), "
        "which the claim of LOG-01 does not speak to; the claim of LOG-02 speaks to it, but "
        "it is partial (score 0.85, 0.50 for what they say < --min-confidence 0.55)"
    )
    assert answers["prod"].unanswered_reason.startswith(
        "the question asks about access to production systems and customer data (production "
        "database), which the claim of CRED-02 does not speak to (score 0.85"
    )


def test_a_question_that_asks_more_gets_the_part_the_claims_speak_to(example: Any) -> None:
    text = ("Are AI agent sessions recorded in an audit trail and telemetry, and how long "
            "are those logs retained?")
    [answer] = draft(example, {"both": text}).values()
    assert (answer.answered, answer.match_score, answer.control_ids) == (True, 0.65, ("LOG-01",))
    assert answer.narrative.splitlines()[1] == (
        "This answer covers only the part about logging of agent sessions; the part about how "
        "long records are kept is left for a human."
    )


def test_a_claim_that_speaks_to_the_demand_answers_it(example: Any) -> None:
    model = example.workspace.model
    claim = (
        "Claude Code in each session exports its event logs over OpenTelemetry to a bucket "
        "that retains them for 400 days."
    )
    controls = [
        c.model_copy(update={"claim": claim}) if c.id == "LOG-01" else c for c in model.controls
    ]
    text = "Are AI agent tool-call logs kept for a year?"
    q = Questionnaire(Path("q.csv"), Format.CSV, [Question(key="kept", id="kept", text=text)])
    [answer] = draft_answers(
        q,
        model.model_copy(update={"controls": controls}),
        control_verdicts(example.result.verdicts),
        example.workspace.root / "evidence",
        claims_judge(),
        UnmappedPolicy(),
    ).values()
    assert (answer.answered, answer.match_score) == (True, 0.85)
    assert "This answer covers only" not in answer.narrative
    assert f"{claim.rstrip('.')} (LOG-01)." in answer.narrative


def test_a_tools_question_is_answered_from_what_bounds_them(example: Any) -> None:
    """Which tools an agent may call is not a claim of the model: the answer says what bounds
    them (the sandbox, the microVM, and the limit that the sandbox covers Bash only) and
    that the part about which tools is left for a human."""
    [answer] = draft(example, {"t": "Which tools may the coding agent call?"}).values()
    assert answer.answered and answer.control_ids == ("ISO-01", "ISO-02")
    assert answer.narrative.splitlines()[1] == (
        "This answer covers only the part about what bounds the tools agents call; the part "
        "about which tools the agent may call is left for a human."
    )
    assert any("MCP servers and hooks run outside it" in lim for lim in answer.limits)
    assert claims_judge()("Which tools may the coding agent call?", answer.narrative) == []


def test_limits_on_how_much_an_agent_calls_are_left_for_a_human(example: Any) -> None:
    text = "Is the AI agent limited in plugin calls per request?"
    [answer] = draft(example, {"u": text}).values()
    assert not answer.answered
    assert answer.unanswered_reason.startswith(
        "the question asks about limits on how many calls or how much resource a request uses"
    )


def test_where_a_tool_comes_from_is_left_for_a_human(example: Any) -> None:
    """What bounds a plugin once it runs says nothing of whether its publisher was vetted."""
    text = "Is every agent plugin obtained from a vetted publisher?"
    [answer] = draft(example, {"p": text}).values()
    assert not answer.answered
    assert answer.unanswered_reason.startswith(
        "the question asks about where the tools and MCP servers come from and who vetted them"
    )


def test_environment_separation_says_what_is_beyond_the_agents_sessions(example: Any) -> None:
    text = "Are test and production environments kept separate?"
    [answer] = draft(example, {"e": text}).values()
    assert answer.answered
    assert answer.control_ids == ("ISO-01", "ISO-02", "NET-01", "NET-02")
    assert "the part about how development, test and production environments are kept " \
        "apart beyond the agent's sessions is left for a human." in answer.narrative
    assert claims_judge()(text, answer.narrative) == []


def test_a_compromised_agent_is_answered_by_each_layer_that_bounds_it(example: Any) -> None:
    text = "If an AI agent is compromised, what can the attacker reach?"
    [answer] = draft(example, {"c": text}).values()
    assert answer.answered
    assert {"ISO-01", "NET-01", "CRED-02"} <= set(answer.control_ids)
    assert claims_judge()(text, answer.narrative) == []
