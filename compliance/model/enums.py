"""The model's plain enumerations, without pydantic: rules that compare against them
import this module (and :mod:`compliance.model.layers`) without building the models,
so listing the rules (`compliance rules`) does not import pydantic."""

from __future__ import annotations

import enum


class Status(enum.StrEnum):
    """How far a control is in place. Only deployed controls support a stance clause."""

    DEPLOYED = "deployed"
    PARTIAL = "partial"
    PLANNED = "planned"


class FindingLevel(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    OFF = "off"
