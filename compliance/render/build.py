"""The render stage of `compliance build`, top to bottom.

checked model -> context -> stance.md + report.html -> report.pdf (manifest
attached) -> evidence-pack.zip -> findings.json, all staged and moved into
the output folder together. Every date comes from the model's last-reviewed
date; every file read stays inside the workspace (evidence) or the package
(templates, fonts).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from compliance import __version__
from compliance.formats import format_json
from compliance.paths import OutsideFolder, resolve_inside
from compliance.pipeline import Checked
from compliance.render.atomic import staged_outputs, write_bytes
from compliance.render.build_context import build_context
from compliance.render.documents import render_report_html, render_stance_md
from compliance.render.env import make_env, packaged_asset_dir
from compliance.render.output_folder import refuse_input_folders
from compliance.render.pack import build_pack, manifest, manifest_bytes
from compliance.report import make_report

OUTPUTS = ("stance.md", "report.html", "report.pdf", "evidence-pack.zip", "findings.json")

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Built:
    """What a build wrote: output name -> bytes (also on disk under ``out``)."""

    out: Path
    files: dict[str, bytes]


def evidence_files(checked: Checked) -> dict[str, bytes]:
    """Every evidence file the model cites that exists inside evidence/, by pack path.

    The pack path is where the file really is under evidence/ (``evidence/a/b``), not
    how the model spells it: ``a//b``, ``./a/b`` and ``x/../a/b`` name the same file
    and would not be safe zip member names."""
    model = checked.workspace.model
    assert model is not None
    real_evidence = checked.workspace.evidence_dir.resolve()
    files: dict[str, bytes] = {}
    for ev in model.evidence:
        try:
            path = resolve_inside(checked.workspace.evidence_dir, ev.path)
        except OutsideFolder:
            continue  # reported by the evidence rules; never packed
        if path.is_file():
            files[f"evidence/{path.relative_to(real_evidence).as_posix()}"] = path.read_bytes()
    return files


def build(checked: Checked, out: Path, *, forced: bool, progress: Progress | None = None) -> Built:
    """Render every output of ``checked`` into ``out`` (all or nothing).

    Raises ``OutputInInputFolder`` before rendering when ``out`` is or is inside
    controls/, evidence/ or templates/, and ``CannotWrite`` when the outputs
    cannot be put in place (the previous ones are then left as they were).
    """
    from compliance.render.pdf import PdfAttachment, render_pdf

    step = progress or (lambda _message: None)
    model = checked.workspace.model
    if model is None:
        raise ValueError("build needs a model that loaded")
    refuse_input_folders(checked.workspace.root, out)
    reviewed: dt.date = model.system.last_reviewed
    generator = f"compliance {__version__}"

    step("context")
    ctx = build_context(checked, forced=forced)
    env = make_env(checked.workspace.root)
    step("stance and report HTML")
    stance = render_stance_md(env, ctx).encode()
    html = render_report_html(env, ctx)
    findings = format_json(make_report(checked)).encode()

    pack_files = {
        "model.json": (model.model_dump_json(indent=2) + "\n").encode(),
        "findings.json": findings,
        "stance.md": stance,
        **evidence_files(checked),
    }
    attached = manifest(
        pack_files, system=model.system.name, reviewed=reviewed, generator=generator
    )
    step("PDF")
    pdf = render_pdf(
        html,
        asset_dir=packaged_asset_dir(),
        date=reviewed,
        attachments=[
            PdfAttachment(
                "manifest.json",
                manifest_bytes(attached),
                "sha256 of the model, the findings, the stance and every evidence file",
            )
        ],
    )
    step("evidence pack")
    pack = build_pack(
        {**pack_files, "report.pdf": pdf},
        system=model.system.name,
        reviewed=reviewed,
        generator=generator,
    )
    outputs = {
        "stance.md": stance,
        "report.html": html.encode(),
        "report.pdf": pdf,
        "evidence-pack.zip": pack,
        "findings.json": findings,
    }
    step("writing")
    with staged_outputs(out) as staging:
        for name in OUTPUTS:
            write_bytes(staging, name, outputs[name])
    return Built(out, outputs)
