"""The drafter: Yes only from deployed, verified controls; honest partials; never guessed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from compliance.load import load_workspace
from compliance.questionnaire import Answer, Choice, Format, MappingEntry, Question, Questionnaire
from compliance.questionnaire.draft import draft_answers, topic_pattern
from compliance.questionnaire.judging import claims_judge
from tests.questionnaire.model_ws import EVIDENCE, MODEL
from tests.workspaces import make_workspace, sha256


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = make_workspace(
        tmp_path_factory.mktemp("ws"), {"controls/model.yaml": MODEL, "evidence/fw.sh": EVIDENCE}
    )
    ws = load_workspace(root)
    assert ws.model is not None, ws.findings
    return ws.model


def question(key: str, text: str, style: str = "choice+narrative", **entry: Any) -> Question:
    mapping = MappingEntry(**entry) if entry else None
    return Question(
        key=key, id=key, text=text, style=style, mapping=mapping, choices=("Yes", "No", "NA")
    )


def draft(
    model: Any, *questions: Question, verdicts: dict[str, str] | None = None, judge: Any = None
) -> dict[str, Answer]:
    q = Questionnaire(Path("q.xlsx"), Format.XLSX, list(questions))
    return draft_answers(q, model, verdicts or {}, Path("evidence"), judge or (lambda _q, _a: []))


def test_verified_deployed_control_supports_yes(model: Any) -> None:
    q = question(
        "N1",
        "Is outbound network access restricted?",
        layers=("network",),
        topics=("egress", "outbound"),
    )
    answer = draft(model, q, verdicts={"NET-01": "verified"})["N1"]
    assert answer == Answer(
        choice=Choice.YES,
        narrative="Scope: Test agents.\n"
        "Outbound traffic from agent sessions is denied by default (NET-01).\n"
        "Limits:\n- The connection to the model provider stays open.",
        control_ids=("NET-01",),
        evidence_sha256=(sha256(EVIDENCE),),
        limits=("The connection to the model provider stays open.",),
    )


def test_unverified_control_gets_partial_wording_and_no_choice(model: Any) -> None:
    q = question("N1", "Is outbound network access restricted?", layers=("network",))
    answer = draft(model, q, verdicts={"NET-01": "unverified"})["N1"]
    assert answer.choice is None
    assert answer.narrative == (
        "Scope: Test agents.\n"
        "Partially: Outbound traffic from agent sessions is denied by default (NET-01; no "
        "configuration evidence verifies this claim yet).\n"
        "Limits:\n- The connection to the model provider stays open."
    )
    assert answer.answered


def test_partial_status_says_so(model: Any) -> None:
    q = question("L1", "Are agent sessions logged?", layers=("logs",))
    answer = draft(model, q, verdicts={"LOG-01": "verified"})["L1"]
    assert (answer.choice, answer.narrative) == (
        None,
        "Scope: Test agents.\n"
        "Partially: Agent tool calls are logged centrally (LOG-01; the control is only partly "
        "deployed).\nLimits:\n- Isolation depends on a well-configured host.",
    )


def test_narrative_style_never_gets_a_choice(model: Any) -> None:
    q = question("N1", "Is every host hardened?", style="narrative", layers=("network",))
    assert draft(model, q, verdicts={"NET-01": "verified"})["N1"].choice is None


@pytest.mark.parametrize(
    ("q", "verdicts", "reason"),
    [
        (question("X", "Do staff get training?"), {}, "no mapping entry covers this question"),
        (
            question("G1", "Are agent changes reviewed?", layers=("git",)),
            {},
            "only planned controls cover it (GIT-01)",
        ),
        (
            question("N2", "Is traffic encrypted?", layers=("network",), topics=("encrypt",)),
            {"NET-01": "verified"},
            "no control in the model answers it (looked for: network; topics: encrypt)",
        ),
        (
            question("C1", "Are tokens short-lived?", layers=("credentials",)),
            {},
            "no control in the model answers it (looked for: credentials)",
        ),
        (
            question("N3", "Is egress restricted?", layers=("network",)),
            {"NET-01": "refuted"},
            "the configuration checks refute NET-01",
        ),
    ],
)
def test_left_for_a_human_with_the_reason(
    model: Any, q: Question, verdicts: dict[str, str], reason: str
) -> None:
    answer = draft(model, q, verdicts=verdicts)[q.key]
    assert (answer.answered, answer.unanswered_reason) == (False, reason)


def test_named_control_answers_regardless_of_layer(model: Any) -> None:
    q = question("I1", "Describe your runtime.", controls=("ISO-01",))
    assert draft(model, q, verdicts={"ISO-01": "verified"})["I1"].control_ids == ("ISO-01",)


def test_flagged_answer_is_left_for_a_human(model: Any) -> None:
    q = question("N1", "Is egress restricted?", layers=("network",))
    seen: list[tuple[str, str]] = []

    def judge(question_text: str, answer_text: str) -> list[str]:
        seen.append((question_text, answer_text))
        return ["overclaim [CLM000]"]

    answer = draft(model, q, verdicts={"NET-01": "verified"}, judge=judge)["N1"]
    assert seen == [
        (
            "Is egress restricted?",
            "Yes. Scope: Test agents.\n"
            "Outbound traffic from agent sessions is denied by default (NET-01).\n"
            "Limits:\n- The connection to the model provider stays open.",
        )
    ]
    assert answer.unanswered_reason == (
        "the claims judge flagged the drafted answer: overclaim [CLM000]"
    )
    assert answer.control_ids == ("NET-01",)


def test_real_judge_catches_yes_to_an_overclaiming_question(model: Any) -> None:
    q = question("I9", "Is escape from the agent sandbox impossible?", layers=("isolation",))
    answer = draft(model, q, verdicts={"ISO-01": "verified"}, judge=claims_judge())["I9"]
    assert answer.unanswered_reason is not None
    assert answer.unanswered_reason.startswith("the claims judge flagged the drafted answer: ")
    assert answer.unanswered_reason.endswith("[CLM006]")
    honest = question("I1", "Do agents run in isolated environments?", layers=("isolation",))
    assert (
        draft(model, honest, verdicts={"ISO-01": "verified"}, judge=claims_judge())["I1"].choice
        is Choice.YES
    )


@pytest.mark.parametrize(
    ("topic", "text", "hit"),
    [
        ("vm", "single-use VMs", True),
        ("vm", "the environment", False),
        ("ci", "circumstances", False),
        ("ci", "runs in CI", True),
        ("isolat", "isolated sessions", True),
        ("isolat", "non-isolated", True),
        ("egress", "regress tests", False),
    ],
)
def test_topic_pattern(topic: str, text: str, hit: bool) -> None:
    assert bool(topic_pattern(topic).search(text.casefold())) is hit


def test_partly_verified_control_is_not_verified(model: Any) -> None:
    """PARTLY VERIFIED (some parts of the claim no check verified) never backs a Yes."""
    q = question("N1", "Is outbound network access restricted?", layers=("network",))
    answer = draft(model, q, verdicts={"NET-01": {"status": "partly-verified"}})["N1"]
    assert answer.choice is None
    assert answer.narrative == (
        "Scope: Test agents.\n"
        "Partially: Outbound traffic from agent sessions is denied by default (NET-01; only "
        "some parts of this claim are verified).\n"
        "Limits:\n- The connection to the model provider stays open."
    )


def test_yes_only_when_verified_claims_speak_to_every_part_of_the_question(model: Any) -> None:
    """IVS-03.3 asks for connections restricted, authenticated and authorized, as justified by
    the business; a verified default-deny claim speaks to the first part only. The narrative
    is kept; the choice is left for a human, with the parts no verified claim speaks to."""
    parts = ((("restricted", ("denied", "allowlist")), ("authenticated", ("authenticat",)),
              ("justified by the business", ("justif", "business"))))
    q = question("IVS-03.3", "Are communications between environments restricted to only "
                 "authenticated and authorized connections, as justified by the business?",
                 layers=("network",), yes_needs=parts)
    answer = draft(model, q, verdicts={"NET-01": "verified"})["IVS-03.3"]
    assert answer.choice is None
    assert answer.narrative.startswith("Scope: Test agents.\nOutbound traffic from agent "
                                       "sessions is denied by default (NET-01).")
    assert answer.unanswered_reason is None
    assert answer.choice_left == (
        "the Yes/No/NA choice is left for a human: no verified claim speaks to these parts "
        "of the question: authenticated (looked for: authenticat); justified by the business "
        "(looked for: justif, business)")
    covered = question("N2", "Is egress restricted?", layers=("network",),
                       yes_needs=(("restricted", ("denied",)),))
    assert draft(model, covered, verdicts={"NET-01": "verified"})["N2"].choice is Choice.YES


def test_the_review_gives_why_the_choice_was_left(model: Any, tmp_path: Path) -> None:
    from compliance.questionnaire.review import review_rows

    q = question("N3", "Is egress restricted and authenticated?", layers=("network",),
                 yes_needs=(("authenticated", ("authenticat",)),))
    questionnaire = Questionnaire(Path("q.xlsx"), Format.XLSX, [q])
    answers = draft(model, q, verdicts={"NET-01": "verified"})
    [row] = review_rows(questionnaire, answers)
    assert (row["status"], row["reason"]) == ("narrative only", answers["N3"].choice_left)
    assert row["reason"].endswith("authenticated (looked for: authenticat)")


def test_a_claim_with_a_waived_overclaim_answers_nothing(model: Any) -> None:
    """A waiver lets a flagged claim stand in the model; it is not carried into a customer's
    answer, even when the judge would not flag the drafted narrative again."""
    q = question("N1", "Is outbound network access restricted?", layers=("network",))
    questionnaire = Questionnaire(Path("q.xlsx"), Format.XLSX, [q])
    waived = {"NET-01": "CLM005 complete-allowlist-claim at controls/model.yaml:9:12, waived: "
                        "waiver CLM005 on NET-01 by ciso until 2027-01-31: for the renewal"}
    answer = draft_answers(questionnaire, model, {"NET-01": "verified"}, Path("evidence"),
                           lambda _q, _a: [], waived=waived)["N1"]
    assert (answer.choice, answer.narrative, answer.control_ids) == (None, "", ("NET-01",))
    assert answer.unanswered_reason == (
        "the claims judge flagged the claim of NET-01 (CLM005 complete-allowlist-claim at "
        "controls/model.yaml:9:12, waived: waiver CLM005 on NET-01 by ciso until 2027-01-31: "
        "for the renewal) as an overclaim and a waiver lets it stand in the model; a waiver is "
        "not carried into a customer's answer")


@pytest.mark.parametrize(("status", "verdict", "reason"), [
    ("partial", "unverified",
     "the control is only partly deployed; no configuration evidence verifies this claim yet"),
    ("partial", "partly-verified",
     "the control is only partly deployed; only some parts of this claim are verified"),
    ("partial", "verified", "the control is only partly deployed"),
    ("deployed", "unverified", "no configuration evidence verifies this claim yet"),
    ("deployed", "verified", None),
])
def test_a_backing_names_every_reason_a_reader_must_weigh(status: str, verdict: str,
                                                          reason: str | None) -> None:
    """CAIQ LOG-08.1 said "(LOG-02; the control is only partly deployed)" of a control that
    was partly deployed and whose claim nothing verified: the second reason was dropped."""
    from types import SimpleNamespace

    from compliance.questionnaire.draft import Support, _backing

    backing = _backing(SimpleNamespace(status=status), verdict)
    assert backing is not None
    assert (backing.support is Support.FULL) == (reason is None)
    if reason is not None:
        assert backing.why_partial == reason
