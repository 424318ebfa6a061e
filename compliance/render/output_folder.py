"""Where a build may write: never into the folders it reads.

A build reads controls/, evidence/ and templates/ of its workspace. An output
folder that is one of them, or lies inside one (after resolving symbolic
links), would overwrite inputs: ``build . --out evidence`` replaced a pinned
``evidence/stance.md``. Such a folder is refused before anything is rendered.
A folder that merely contains them is fine (``--out .``, the workspace root):
outputs go only to its top level, under names no input folder uses.
"""

from __future__ import annotations

from pathlib import Path

from compliance.load.workspace import CONTROLS_DIR, EVIDENCE_DIR
from compliance.render.env import TEMPLATES_DIR
from compliance.render.errors import RenderError

#: The workspace folders a build reads, whether or not they exist yet.
INPUT_FOLDERS = (CONTROLS_DIR, EVIDENCE_DIR, TEMPLATES_DIR)


class OutputInInputFolder(RenderError):
    """The output folder is, or is inside, one of the workspace's input folders."""


def refuse_input_folders(workspace: Path, out: Path) -> None:
    """Raise :class:`OutputInInputFolder` when writing into ``out`` could replace an input."""
    real_out = Path(out).resolve()
    for name in INPUT_FOLDERS:
        folder = (Path(workspace) / name).resolve()
        if real_out == folder or folder in real_out.parents:
            where = "is" if real_out == folder else "is inside"
            raise OutputInInputFolder(
                f"output folder {out} {where} the workspace's {name}/ folder, which the build "
                f"reads; choose one outside {_listed()} (such as out/)"
            )


def _listed() -> str:
    *first, last = (f"{name}/" for name in INPUT_FOLDERS)
    return f"{', '.join(first)} and {last}"
