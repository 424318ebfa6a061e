"""The learned second opinion (compliance/judge/learned.py, rule CLM010)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.commands.lint import lint
from compliance.judge import learned
from compliance.judge.analysis import normalise
from compliance.rules.claims import CLAIM_RULES, judge_text
from compliance.rules.claims.driver import second_opinion_input
from tests.corpus.real_text import PART1, PART2

ROOT = Path(__file__).resolve().parents[2]
#: No claim rule flags it; the model reads it as an overclaim (a case of CLM010.yaml).
WARNED = "The agent has zero ability to touch production."


def test_the_committed_model_loads_and_names_the_nine_families() -> None:
    m = learned.model()
    assert m is not None
    assert m.codes == tuple(f"CLM00{i}" for i in range(1, 10))
    assert 0.5 < m.threshold < 1.0
    assert len(m.rows) > 10_000
    assert len(m.matrix) == len(m.rows) * m.width
    assert set(m.trained_on["texts"]) == {"part1", "part2", "synthetic"}


def test_features_are_word_ngrams_never_punctuation_alone() -> None:
    feats = learned.features("no data leaves: ever.")
    assert feats[:4] == ["no", "data", "leaves", "ever"]
    assert "data leaves :" in feats and "no data leaves" in feats
    assert ":" not in feats and "." not in feats
    assert learned.features("word " * 1000) == ["word", "word word", "word word word"]


def test_a_warning_names_its_family_score_and_words() -> None:
    [o] = judge_text(WARNED)
    assert (o.code, o.name, (o.start, o.end)) == ("CLM010", "reads-like-an-overclaim",
                                                 (0, len(WARNED)))
    assert o.family in CLAIM_RULES and o.family != "CLM010"
    fam = CLAIM_RULES[o.family]
    assert f"({fam.code} {fam.name})" in o.message
    assert "score 0." in o.message and "threshold 0." in o.message
    assert "though no rule matched it" in o.message and "Honest wording:" in o.message
    reading = learned.read(normalise(WARNED))
    assert reading is not None and reading.carriers
    tokens = " ".join(learned.TOKEN.findall(normalise(WARNED)))
    assert all(c in tokens for c in reading.carriers), reading.carriers


@pytest.mark.parametrize("text", [
    "Does the agent have zero ability to touch production?",  # a question asserts nothing
    "| Agent | The agent has zero ability to touch production. |",  # the rules read tables
    'Vendors write "the agent has zero ability to touch production".',  # a quotation
    "Zero ability to touch production.",  # too few words to weigh
])
def test_the_second_opinion_is_not_asked_where_the_rules_read_form(text: str) -> None:
    assert [o.code for o in judge_text(text)] == []


def test_it_is_not_asked_where_a_rule_already_found_the_claim() -> None:
    codes = [o.code for o in judge_text("The sandbox is completely secure and nothing escapes.")]
    assert codes and "CLM010" not in codes


def test_it_reads_no_sentence_that_names_neither_agent_nor_topic() -> None:
    assert second_opinion_input(normalise("Nothing is ever written twice in this table.")) \
        is None
    assert second_opinion_input(normalise(WARNED)) is not None


def test_lint_reports_it_as_a_warning_and_fails_only_with_strict(tmp_path: Path) -> None:
    f = tmp_path / "page.md"
    f.write_text(f"# Our platform\n\n{WARNED}\n", encoding="utf-8")
    result = CliRunner().invoke(lint, [str(f)])
    assert result.exit_code == 0, result.output
    assert f"{f}:3:1: warning" in result.stdout and "[CLM010]" in result.stdout
    assert CliRunner().invoke(lint, [str(f), "--strict"]).exit_code == 1


@pytest.mark.skipif(not (PART1.is_file() and PART2.is_file()),
                    reason="needs ../shared/data/claims-real-dev (the model's real training text)")
def test_the_committed_weights_reproduce_from_the_training_script() -> None:
    """Same inputs, same bytes: retraining from the committed script and data gives the
    committed weights and metadata (about a minute)."""
    run = subprocess.run([sys.executable, str(ROOT / "training" / "train_judge_model.py"),
                          "--check"], capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "weights reproduce" in run.stdout
