"""The evidence pack's manifest.json, as `compliance verify` reads it: strict like every model."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from compliance.model.audience import Audience
from compliance.model.base import Line, Sha256, Strict


class PackFile(Strict):
    """One file of the pack: its path in the zip, its size and its sha256."""

    path: Line = Field(description="Path inside the zip.", examples=["evidence/github/CODEOWNERS"])
    bytes: int = Field(ge=0, description="Size in bytes.")
    sha256: Sha256 = Field(description="sha256 of the file's content, 64 lowercase hex digits.")


class PackManifest(Strict):
    """manifest.json in evidence-pack.zip (and, without report.pdf, attached to the PDF)."""

    format: Literal["compliance-evidence-pack/1"] = Field(description="Format and version.")
    system: Line = Field(description="The system the model covers.")
    reviewed: dt.date = Field(description="The model's last_reviewed date.")
    generator: Line = Field(description="The tool and version that built the pack.")
    audience: Audience | None = Field(
        default=None, description="Who the pack was built for (absent in packs built before "
        "audience tiers).")
    files: list[PackFile] = Field(description="Every other file of the pack, sorted by path.")
    verdicts: dict[str, Literal["verified", "partly-verified", "unverified", "refuted"]] | None = (
        Field(default=None, description="Each shown control's verdict, by control id (absent in "
              "packs built before verdicts were recorded)."))
