"""The one strict base model: unknown keys are errors, not silently ignored."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, StringConstraints


class Strict(BaseModel):
    """Base for every model section: ``extra="forbid"``, frozen, no coercion of strings.

    ``defer_build``: a model's validator is built when it first validates, not when its
    module is imported, so a command that reads one file does not build every model."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False,
                              defer_build=True)


#: Identifiers users cite: letters, digits, dot, dash, underscore.
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
Identifier = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=80)]
#: Prose: non-empty text.
Text = Annotated[str, StringConstraints(min_length=1, max_length=20_000)]
#: A line of text (titles, owners).
Line = Annotated[str, StringConstraints(min_length=1, max_length=300)]
Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
