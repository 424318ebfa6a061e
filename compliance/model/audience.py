"""Audience tiers: who may read a control, a field of it, or a limit.

``public`` < ``nda`` < ``internal``: a reader of one tier sees what is marked
for that tier or a wider one. Controls and limits carry an ``audience``;
a control's ``field_audience`` (or the workspace default in compliance.yaml)
narrows single fields. The claim, status, verdict and limits of a control a
reader is shown are never narrowed: hide the whole control instead.
"""

from __future__ import annotations

import enum


class Audience(enum.StrEnum):
    """Who may read it: everyone, readers under NDA, or the team itself."""

    PUBLIC = "public"
    NDA = "nda"
    INTERNAL = "internal"

    @property
    def rank(self) -> int:
        return _RANK[self]

    def may_read(self, marked: Audience) -> bool:
        """Whether a reader of this tier may read something marked ``marked``."""
        return marked.rank <= self.rank


_RANK = {Audience.PUBLIC: 0, Audience.NDA: 1, Audience.INTERNAL: 2}


class TieredField(enum.StrEnum):
    """The fields of a control that may be narrowed to an audience on their own."""

    IMPLEMENTATION = "implementation"
    RESIDUAL_RISK = "residual_risk"
    OWNER = "owner"
    EVIDENCE = "evidence"


#: The built-in default: how a control works and what risk remains are for readers under NDA.
DEFAULT_FIELD_AUDIENCE: dict[TieredField, Audience] = {
    TieredField.IMPLEMENTATION: Audience.NDA,
    TieredField.RESIDUAL_RISK: Audience.NDA,
}
