"""The judge's verdict on a piece of text: one overclaim, by offsets."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Overclaim:
    """An overclaim found in a text: 0-based ``start``/``end`` offsets, rule code, name, message."""

    start: int
    end: int
    code: str
    name: str
    message: str
    excerpt: str = ""
    #: for CLM010 (the learned second opinion), the code of the family it reads
    family: str = ""
