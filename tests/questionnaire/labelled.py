"""Real questionnaires read as if no mapping recognised them, and the hand labels for them.

Shared by tests/questionnaire/test_unmapped.py and benchmarks/unmapped_accuracy.py.
The labels file holds question ids and labels only (agent / unrelated), never a
question's text: the questionnaires stay in ../shared/data.
"""

from __future__ import annotations

import csv
from importlib import resources
from pathlib import Path

from compliance.questionnaire import Overrides

LABELS = Path(__file__).parent / "data" / "relevance-labels.csv"
#: label key -> path under ../shared/data
FILES = {
    "caiq-v4.0.3": "questionnaires/caiq-v4.0.3/CAIQv4.0.3.xlsx",
    "aicm-caiq-1.1.0": "questionnaires/aicm-caiq-1.1.0/aicm-caiq-1.1.0-questions.csv",
    "vsaq/infrastructure": "questionnaires/vsaq/infrastructure.json",
    "vsaq/physical_and_datacenter": "questionnaires/vsaq/physical_and_datacenter.json",
    "vsaq/security_privacy_programs": "questionnaires/vsaq/security_privacy_programs.json",
    "vsaq/webapp": "questionnaires/vsaq/webapp.json",
}


def labels() -> dict[tuple[str, str], str]:
    """(questionnaire, question id) -> "agent" or "unrelated"."""
    with LABELS.open(encoding="utf-8", newline="") as handle:
        return {(r["questionnaire"], r["id"]): r["label"] for r in csv.DictReader(handle)}


def unmapped_overrides() -> Overrides:
    """Read as if no mapping recognised the file: force the suggestions-only fallback, so a
    built-in mapping (CAIQ's) is disabled."""
    generic = resources.files("compliance.questionnaire") / "mappings" / "generic.yaml"
    return Overrides(mapping=Path(str(generic)))
