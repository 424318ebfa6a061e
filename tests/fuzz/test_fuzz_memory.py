"""Memory bound: a few fuzzed inputs per command in a subprocess under ``RLIMIT_AS``.

The in-process targets bound CPU time per command but cannot bound memory;
here the same generators feed ``python -m compliance`` with its address space limited
(:data:`~tests.fuzz.harness.MEMORY_LIMIT`), so an input that makes a reader allocate
without bound ends in a MemoryError traceback or a kill, and the test fails. Few
examples: each one starts an interpreter.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO
from tests.fuzz.harness import MEMORY_LIMIT, limited, run_limited, sandbox
from tests.fuzz.questionnaires import questionnaire_inputs
from tests.fuzz.strategies import mutated
from tests.questionnaire.model_ws import EVIDENCE, MODEL

# No shrinking: each step would start another interpreter; the failing input is printed.
FEW = settings(max_examples=max(2, settings.default.max_examples // 6),
               phases=[Phase.explicit, Phase.reuse, Phase.generate])

NETWORK = (REPO / "controls" / "network.yaml").read_text(encoding="utf-8")
FIREWALL = (REPO / "evidence" / "devcontainer" / "init-firewall.sh").read_text(encoding="utf-8")
SETTINGS = (REPO / "evidence" / "claude" / "managed-settings.json").read_text(encoding="utf-8")


def test_the_limit_stops_an_allocation_beyond_it(tmp_path: Path) -> None:
    """The bound is real: under it, allocating twice the limit fails."""
    proc = limited(["-c", f"bytearray({2 * MEMORY_LIMIT})"], tmp_path, tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.rstrip().endswith("MemoryError")


@FEW
@given(model=mutated(NETWORK), firewall=mutated(FIREWALL), claude=mutated(SETTINGS))
def test_check_memory(model: str, firewall: str, claude: str) -> None:
    with sandbox(example=True) as box:
        box.write("controls/network.yaml", model)
        box.write("evidence/devcontainer/init-firewall.sh", firewall)
        box.write("evidence/claude/managed-settings.json", claude)
        run_limited(box, "check", str(box.ws), "--today", "2026-12-01")


@FEW
@given(text=st.one_of(mutated(NETWORK), mutated(SETTINGS)), suffix=st.sampled_from(
    [".md", ".yaml", ".json"]))
def test_lint_memory(text: str, suffix: str) -> None:
    with sandbox() as box:
        path = box.write(f"input{suffix}", text)
        run_limited(box, "lint", str(path))


@FEW
@given(data=st.data(), suffix=st.sampled_from([".csv", ".json"]))
def test_answer_memory(data: st.DataObject, suffix: str) -> None:
    with sandbox() as box:
        box.write("controls/model.yaml", MODEL)
        box.write("evidence/fw.sh", EVIDENCE)
        path = box.write(f"q{suffix}", data.draw(questionnaire_inputs(suffix, None)))
        run_limited(box, "answer", str(path), "-w", str(box.ws), "--out",
                    str(box.out / f"a{suffix}"), "--today", "2026-12-01")
