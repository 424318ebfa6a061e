"""JSON Schemas generated from the models, committed so editors can autocomplete the YAML.

Point yaml-language-server at them with a first line such as
``# yaml-language-server: $schema=../compliance/schema/controls.schema.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from compliance.atomic import write_text_atomic
from compliance.model import ModelFile, Settings, WaiversFile
from compliance.model.disclosure import DisclosureRecord
from compliance.model.practice import DrillFile, ExerciseFile, ScenarioFile

HERE = Path(__file__).parent
SCHEMAS: dict[str, type[BaseModel]] = {
    "controls.schema.json": ModelFile,
    "settings.schema.json": Settings,
    "waivers.schema.json": WaiversFile,
    "disclosure.schema.json": DisclosureRecord,
    "scenarios.schema.json": ScenarioFile,
    "exercise.schema.json": ExerciseFile,
    "drill.schema.json": DrillFile,
}


def generate(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema()
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    return schema


def render(model: type[BaseModel]) -> str:
    return json.dumps(generate(model), indent=2, sort_keys=True) + "\n"


def write_all(folder: Path = HERE) -> list[Path]:
    written = []
    for name, model in SCHEMAS.items():
        path = folder / name
        write_text_atomic(path, render(model))
        written.append(path)
    return written
