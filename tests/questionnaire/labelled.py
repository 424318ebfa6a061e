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


DEV = Path(__file__).parent / "data" / "dev"
#: Our own dev set, written in our own words (no questionnaire's text): questionnaire file ->
#: its labels file (id,label). vendor-ai.csv has a title row and section header rows above
#: its questions; flat.csv has neither; holdout.csv (a Category column) was written after the
#: first changes and scored once before any tuning on it; holdout2.json (a JSON list with
#: sections, imperative "Describe ..." wording) likewise, after the servers change;
#: holdout3.csv (a title row naming AI, sections that do not, "the solution" / "the
#: platform" for the agent) likewise, after the workspace/access change; holdout4.csv (a
#: list compiled from seven questionnaires, each row naming its own in a Questionnaire
#: column) likewise, after the Questionnaire-column change; holdout5.csv (requirements
#: as "shall" statements under a Domain column) likewise, after the main-branch change;
#: holdout6.csv (a flat list, no headings) likewise, after every change, and not tuned on.
#: Measure with
#: ``benchmarks/unmapped_accuracy.py --extra QUESTIONNAIRE LABELS``.
DEV_SETS = {
    DEV / "vendor-ai.csv": DEV / "vendor-ai-labels.csv",
    DEV / "flat.csv": DEV / "flat-labels.csv",
    DEV / "holdout.csv": DEV / "holdout-labels.csv",
    DEV / "holdout2.json": DEV / "holdout2-labels.csv",
    DEV / "holdout3.csv": DEV / "holdout3-labels.csv",
    DEV / "holdout4.csv": DEV / "holdout4-labels.csv",
    DEV / "holdout5.csv": DEV / "holdout5-labels.csv",
    DEV / "holdout6.csv": DEV / "holdout6-labels.csv",
}


def dev_labels(labels_file: Path) -> dict[str, str]:
    """question id -> "agent" or "unrelated" for one of :data:`DEV_SETS`."""
    with labels_file.open(encoding="utf-8", newline="") as handle:
        return {r["id"]: r["label"] for r in csv.DictReader(handle)}
