"""Strict pydantic models of a workspace: what the YAML may say."""

from compliance.model.layers import LAYER_QUESTIONS, Layer
from compliance.model.sections import (
    Assertion,
    Control,
    Evidence,
    Limit,
    Source,
    Status,
    System,
    Waiver,
)
from compliance.model.workspace import Model, ModelFile, Settings, WaiversFile

__all__ = [
    "LAYER_QUESTIONS", "Assertion", "Control", "Evidence", "Layer", "Limit", "Model", "ModelFile",
    "Settings", "Source", "Status", "System", "Waiver", "WaiversFile",
]
