"""The model reference (docs/model-reference.md), generated from the pydantic models.

Every section and field of controls/*.yaml, waivers.yaml and compliance.yaml:
its type, whether it is required, its default, what it means and an example,
read from the models' JSON Schema so the page cannot drift from the code.
``python -m compliance.schema.reference`` rewrites the page; a test fails when
the committed page is stale (like the committed schemas).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from compliance.model import ModelFile, Settings, WaiversFile

PAGE = Path(__file__).resolve().parents[2] / "docs" / "model-reference.md"

INTRO = """\
# Model reference

Generated from the models by `python -m compliance.schema.reference`; a test
fails when this page is stale. Unknown keys are errors everywhere (with a
did-you-mean). Ids (`Identifier`) are letters, digits, `.`, `_` and `-`,
starting with a letter or digit, at most 80 characters, unique across the
workspace. Editors autocomplete these files from the JSON Schemas that
`compliance schema --write DIR` writes (see the README).
"""


def _type(spec: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        target = defs.get(name, {})
        if "enum" in target:
            return " \\| ".join(f"`{v}`" for v in target["enum"])
        return f"[{name.lower()}](#{name.lower()})"
    if "anyOf" in spec:
        kinds = [_type(s, defs) for s in spec["anyOf"] if s.get("type") != "null"]
        return " or ".join(kinds)
    if "enum" in spec:
        return " \\| ".join(f"`{v}`" for v in spec["enum"])
    kind = spec.get("type", "any")
    if kind == "array":
        return f"list of {_type(spec.get('items', {}), defs)}"
    if kind == "object":
        values = spec.get("additionalProperties")
        return f"mapping to {_type(values, defs)}" if isinstance(values, dict) else "mapping"
    if kind == "string":
        if spec.get("format") == "date":
            return "date (YYYY-MM-DD)"
        if spec.get("pattern", "").startswith("^[A-Za-z0-9]"):
            return "identifier"
        if spec.get("pattern") == "^[0-9a-f]{64}$":
            return "sha256 (64 hex digits)"
        return "text" if spec.get("maxLength", 0) > 300 else "line of text"
    return str(kind)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _table(schema: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", []))
    rows = ["| field | type | required | default | description | example |",
            "| --- | --- | --- | --- | --- | --- |"]
    for name, spec in schema.get("properties", {}).items():
        default = "" if name in required or "default" not in spec else \
            f"`{json.dumps(spec['default'])}`"
        examples = spec.get("examples") or []
        example = f"`{json.dumps(examples[0])}`" if examples else ""
        rows.append(f"| `{name}` | {_type(spec, defs)} | {'yes' if name in required else 'no'} "
                    f"| {default} | {_cell(spec.get('description', ''))} | {example} |")
    return rows


def _doc(model: type[BaseModel]) -> str:
    return " ".join((model.__doc__ or "").split())


def render() -> str:
    out = [INTRO]
    files: list[tuple[str, type[BaseModel]]] = [
        ("controls/*.yaml", ModelFile), ("waivers.yaml", WaiversFile),
        ("compliance.yaml", Settings)]
    seen: set[str] = set()
    for title, model in files:
        schema = model.model_json_schema()
        defs = schema.get("$defs", {})
        out += [f"## {title}", "", _doc(model), "", *_table(schema, defs), ""]
        for name, sub in defs.items():
            if name in seen or "properties" not in sub:
                continue
            seen.add(name)
            out += [f"### {name.lower()}", "", _cell(sub.get("description", "")), "",
                    *_table(sub, defs), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def main() -> None:
    from compliance.atomic import write_text_atomic

    write_text_atomic(PAGE, render())
    sys.stdout.write(f"wrote {PAGE}\n")


if __name__ == "__main__":
    main()
