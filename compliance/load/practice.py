"""Load the practice files: tabletop scenarios (built in and ``scenarios/*.yaml``) and
exercise records (``exercises/*.yaml``), with the same positioned errors as the model.

Built-in scenarios ship in ``compliance/practice/scenarios/``. A workspace scenario
with the id of a built-in one replaces it, so a team can adapt a scenario to its
own system without renaming it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from compliance.diagnostics import Diagnostic, Level
from compliance.load.yamlpos import YamlDocument, load_yaml
from compliance.model.practice import (
    Drill,
    DrillFile,
    Exercise,
    ExerciseFile,
    Scenario,
    ScenarioFile,
)

SCENARIOS_DIR = "scenarios"
EXERCISES_DIR = "exercises"
DRILLS_DIR = "drills"
#: Folders of practice records and the model each file must match.
PRACTICE_DIRS: dict[str, type[BaseModel]] = {
    SCENARIOS_DIR: ScenarioFile,
    EXERCISES_DIR: ExerciseFile,
    DRILLS_DIR: DrillFile,
}
BUILTIN_DIR = Path(__file__).resolve().parent.parent / "practice" / "scenarios"

Validate = Callable[[YamlDocument, type[BaseModel], list[Diagnostic]], Any]


def practice_files(root: Path) -> list[Path]:
    """Every ``*.yaml``/``*.yml`` file directly under the practice folders, sorted."""
    out: list[Path] = []
    for folder in PRACTICE_DIRS:
        base = root / folder
        if base.is_dir():
            out.extend(sorted((p for p in base.iterdir()
                               if p.suffix in (".yaml", ".yml") and p.is_file()),
                              key=lambda p: p.name))
    return out


@dataclass
class Practice:
    """What the practice files hold, and where each item was written."""

    scenarios: list[Scenario] = field(default_factory=list)
    exercises: list[Exercise] = field(default_factory=list)
    #: scenario id -> (document, path) for workspace scenarios; built-ins have none.
    scenario_at: dict[str, tuple[YamlDocument, tuple[str | int, ...]]] = field(
        default_factory=dict)
    exercise_at: list[tuple[YamlDocument, tuple[str | int, ...]]] = field(default_factory=list)
    drills: list[Drill] = field(default_factory=list)
    drill_at: list[tuple[YamlDocument, tuple[str | int, ...]]] = field(default_factory=list)


def builtin_scenarios() -> list[Scenario]:
    """The scenarios shipped with the tool, in file order (a broken one is a bug)."""
    return list(_read_builtin_scenarios())


@functools.cache
def _read_builtin_scenarios() -> tuple[Scenario, ...]:
    """Read once per process: package data, parsed into frozen models. A process that
    checks many workspaces (a test run, a fuzzer) otherwise spends close to half of each
    small workspace's load on these seven files."""
    out: list[Scenario] = []
    for file in sorted(BUILTIN_DIR.glob("*.yaml")):
        doc = load_yaml(file, f"compliance/practice/scenarios/{file.name}")
        out.extend(ScenarioFile.model_validate(doc.data).scenarios)
    return tuple(out)


def load_practice(docs: dict[str, YamlDocument], validate: Validate,
                  findings: list[Diagnostic]) -> Practice:
    """Validate the practice documents already read (``docs``: display path -> document)."""
    practice = Practice(scenarios=builtin_scenarios())
    builtin = {s.id: i for i, s in enumerate(practice.scenarios)}
    for display in sorted(docs):
        folder = display.split("/", 1)[0]
        if folder not in PRACTICE_DIRS or "/" not in display:
            continue
        doc = docs[display]
        parsed = validate(doc, PRACTICE_DIRS[folder], findings)
        if parsed is None:
            continue
        if isinstance(parsed, DrillFile):
            practice.drills.append(parsed.drill)
            practice.drill_at.append((doc, ("drill",)))
            continue
        if isinstance(parsed, ExerciseFile):
            practice.exercises.append(parsed.exercise)
            practice.exercise_at.append((doc, ("exercise",)))
            continue
        for i, scenario in enumerate(parsed.scenarios):
            _add_scenario(practice, builtin, doc, i, scenario, findings)
    known = {s.id for s in practice.scenarios}
    for exercise, (doc, path) in zip(practice.exercises, practice.exercise_at, strict=True):
        if exercise.scenario not in known:
            findings.append(Diagnostic.at(
                doc.pos((*path, "scenario")), "REF002", "undefined-reference", Level.ERROR,
                f"scenario: {exercise.scenario!r} is not defined (defined: "
                f"{', '.join(sorted(known))})"))
    return practice


def check_drill_references(practice: Practice, controls: set[str], evidence: set[str],
                           findings: list[Diagnostic]) -> None:
    """Drill layers cite controls and evidence items of the model by id."""
    for drill, (doc, path) in zip(practice.drills, practice.drill_at, strict=True):
        for i, layer in enumerate(drill.layers):
            for field_name, ids, known in (("controls", layer.controls, controls),
                                           ("evidence", layer.evidence, evidence)):
                for j, value in enumerate(ids):
                    if value not in known:
                        findings.append(Diagnostic.at(
                            doc.pos((*path, "layers", i, field_name, j)), "REF002",
                            "undefined-reference", Level.ERROR,
                            f"{field_name}: {value!r} is not defined in the model"))


def _add_scenario(practice: Practice, builtin: dict[str, int], doc: YamlDocument, i: int,
                  scenario: Scenario, findings: list[Diagnostic]) -> None:
    path: tuple[str | int, ...] = ("scenarios", i)
    if scenario.id in practice.scenario_at:
        first, first_path = practice.scenario_at[scenario.id]
        findings.append(Diagnostic.at(
            doc.pos((*path, "id")), "REF001", "duplicate-id", Level.ERROR,
            f"duplicate scenario id {scenario.id!r}; first defined at "
            f"{first.pos((*first_path, 'id'))}"))
        return
    steps = [s.id for s in scenario.steps]
    for j, step in enumerate(scenario.steps):
        if steps.index(step.id) != j:
            findings.append(Diagnostic.at(
                doc.pos((*path, "steps", j, "id")), "REF001", "duplicate-id", Level.ERROR,
                f"duplicate step id {step.id!r} in scenario {scenario.id!r}"))
    practice.scenario_at[scenario.id] = (doc, path)
    if scenario.id in builtin:
        practice.scenarios[builtin[scenario.id]] = scenario
    else:
        practice.scenarios.append(scenario)
