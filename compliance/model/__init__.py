"""Strict pydantic models of a workspace: what the YAML may say.

The names below are imported when first used: importing a pydantic-free submodule
(:mod:`compliance.model.layers`, :mod:`compliance.model.enums`) builds no model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from compliance.lazy import lazy_attributes

if TYPE_CHECKING:
    from compliance.model.enums import Status
    from compliance.model.layers import LAYER_QUESTIONS, Layer
    from compliance.model.sections import (
        Assertion,
        Control,
        Evidence,
        Limit,
        Source,
        System,
        Waiver,
    )
    from compliance.model.workspace import Model, ModelFile, Settings, WaiversFile

_WHERE = {
    "LAYER_QUESTIONS": "layers", "Layer": "layers", "Status": "enums",
    "Assertion": "sections", "Control": "sections", "Evidence": "sections", "Limit": "sections",
    "Source": "sections", "System": "sections", "Waiver": "sections",
    "Model": "workspace", "ModelFile": "workspace", "Settings": "workspace",
    "WaiversFile": "workspace",
}


__getattr__ = lazy_attributes(__name__, _WHERE, globals())


__all__ = [
    "LAYER_QUESTIONS", "Assertion", "Control", "Evidence", "Layer", "Limit", "Model", "ModelFile",
    "Settings", "Source", "Status", "System", "Waiver", "WaiversFile",
]
