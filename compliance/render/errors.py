"""Errors the render stage raises. The CLI prints them as user messages (exit 2)."""

from __future__ import annotations

from compliance.diagnostics import UserError


class RenderError(UserError):
    """A build output could not be produced from these inputs."""


class RefusedReference(RenderError):
    """A template, stylesheet or attachment referred to something outside the render.

    Raised in strict mode instead of silently dropping the resource, so a
    document never goes out with a hole nobody noticed.
    """

    def __init__(self, url: str, reason: str) -> None:
        shown = url if len(url) <= 120 else url[:117] + "..."
        super().__init__(f"refused to fetch {shown!r}: {reason}")
        self.url = url
        self.reason = reason


class TemplateOutsideFolder(RenderError):
    """A template path resolved (through a link) outside its templates folder."""


class ReportTooLarge(RenderError):
    """A model too large for the PDF renderer's memory and time bounds (docs/report.md)."""
