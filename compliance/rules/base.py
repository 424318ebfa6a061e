"""What every rule is: stable code, a name for the flagged pattern, a level, a page.

A rule's class docstring is its documentation page and must have the sections
``What it does``, ``Why is this bad?``, ``Example``, ``Use instead`` and
``Sources`` (a test enforces this). ``compliance rules CODE`` prints it.

Rules come in families. Model rules implement :meth:`Rule.check` over the
checked model. Claim (prose) rules are driven by the claims judge, which
segments text once and asks every claim rule about every sentence; see
``compliance.judge``. Configuration rules evaluate normalised facts from
evidence adapters; see ``compliance.rules.config``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from compliance.diagnostics import Diagnostic, Level

if TYPE_CHECKING:  # pragma: no cover
    from compliance.check.context import CheckContext

DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Sources")


class Rule:
    """Base class; subclasses set the class attributes and a docstring page."""

    code: ClassVar[str]
    name: ClassVar[str]
    family: ClassVar[str]
    level: ClassVar[Level] = Level.ERROR
    aliases: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[dict[str, Any]] = {}

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        """Yield findings over the checked model. Prose and config rules may not use this."""
        return iter(())

    @classmethod
    @functools.cache
    def summary(cls) -> str:
        """First line of the page: what the rule flags, in one sentence."""
        doc = inspect.getdoc(cls) or ""
        return doc.strip().splitlines()[0] if doc.strip() else cls.name

    @classmethod
    @functools.cache
    def page(cls) -> str:
        """The rule's documentation page (its docstring), with a title line."""
        doc = inspect.getdoc(cls) or ""
        return f"{cls.code} {cls.name} ({cls.family}, {cls.level.value})\n\n{doc}\n"

    @classmethod
    def diagnostic(cls, pos: Any, message: str, level: Level | None = None,
                   related: tuple[Any, ...] = ()) -> Diagnostic:
        """Build this rule's finding at ``pos`` (a :class:`~compliance.diagnostics.Position`)."""
        return Diagnostic.at(pos, cls.code, cls.name, level or cls.level, message, related)
