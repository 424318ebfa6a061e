"""The one Jinja2 environment: a workspace's templates/ first, packaged defaults second.

Templates are looked up file by file, so a workspace overrides ``report.css``
without copying ``report.html``. The loader reads only inside those two
folders, after resolving links; the environment is sandboxed (no access to
Python internals from a template), uses ``StrictUndefined`` so a missing
field fails loudly, and autoescapes HTML so model text is never markup.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from jinja2 import BaseLoader, Environment, StrictUndefined, TemplateNotFound, select_autoescape
from jinja2.loaders import split_template_path
from jinja2.sandbox import ImmutableSandboxedEnvironment

from compliance.paths import OutsideFolder, resolve_inside
from compliance.render.errors import RenderError, TemplateOutsideFolder

#: A workspace's own templates, looked up before the packaged ones.
TEMPLATES_DIR = "templates"

_HERE = Path(__file__).parent
#: Inside an installed wheel (and through the repository's symlink).
_PACKAGED = _HERE / "_templates"
#: The repository's top-level templates/ folder: editable installs whose
#: checkout has no symlinks (e.g. core.symlinks=false) fall back to it.
_REPO = _HERE.parent.parent / "templates"


def packaged_templates_dir() -> Path:
    """The default templates shipped with the package (resolved, absolute)."""
    for candidate in (_PACKAGED, _REPO):
        if (candidate / "base.html").is_file():
            return candidate.resolve()
    raise RenderError(f"packaged templates are missing (looked in {_PACKAGED} and {_REPO})")


def template_roots(workspace: Path | None) -> list[Path]:
    """Folders searched for templates, first match wins: workspace, then packaged."""
    roots: list[Path] = []
    if workspace is not None and (workspace / TEMPLATES_DIR).is_dir():
        try:
            roots.append(resolve_inside(workspace, TEMPLATES_DIR))
        except OutsideFolder as exc:
            raise TemplateOutsideFolder(
                f"{TEMPLATES_DIR}/ {exc}; refusing to read templates from outside the "
                "workspace") from None
    packaged = packaged_templates_dir()
    if packaged not in roots:
        roots.append(packaged)
    return roots


class ConfinedLoader(BaseLoader):
    """Load templates from a list of folders, never from outside them.

    ``..`` in a template name is refused by Jinja's own path splitting; a
    symlink inside a folder that resolves outside it raises
    :class:`TemplateOutsideFolder` instead of being followed.
    """

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = [Path(root).resolve() for root in roots]

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)
        for root in self.roots:
            candidate = root.joinpath(*pieces)
            if not os.path.lexists(candidate):
                continue
            resolved = candidate.resolve()
            if not resolved.is_relative_to(root):
                raise TemplateOutsideFolder(
                    f"template {template!r} in {root} resolves outside it, to {resolved}"
                )
            if not resolved.is_file():
                continue
            # auto_reload is off: one build renders one snapshot of the folders.
            return resolved.read_text(encoding="utf-8"), str(resolved), lambda: True
        raise TemplateNotFound(template)

    def list_templates(self) -> list[str]:
        found: set[str] = set()
        for root in self.roots:
            for path in root.rglob("*"):
                if path.is_file() and path.resolve().is_relative_to(root):
                    found.add(path.relative_to(root).as_posix())
        return sorted(found)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#!])")
_WHITESPACE = re.compile(r"\s+")


def md_text(value: object) -> str:
    """Model text as inert Markdown: one line, punctuation that would be markup escaped."""
    return _MD_SPECIAL.sub(r"\\\1", _WHITESPACE.sub(" ", str(value)).strip())


def make_env(workspace: Path | None = None) -> Environment:
    """The environment every output is rendered with."""
    env = ImmutableSandboxedEnvironment(
        loader=ConfinedLoader(template_roots(workspace)),
        undefined=StrictUndefined,
        autoescape=select_autoescape(
            enabled_extensions=("html", "htm", "xml"), default_for_string=True, default=False
        ),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.filters["md"] = md_text
    return env


def packaged_asset_dir() -> Path:
    """The render's asset folder (fonts, font stylesheet): always the packaged one.

    Workspaces override templates and CSS, not fonts, so the PDF's fonts are
    always the pinned ones.
    """
    return packaged_templates_dir() / "assets"
