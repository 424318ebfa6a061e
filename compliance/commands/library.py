"""`compliance library`: keep approved questionnaire answers for reuse (`answer --library`)."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from compliance.commands.options import EXIT_FINDINGS, EXIT_OK, color_for, fail_unreadable


@click.group("library")
def library() -> None:
    """Approved answers a team keeps in git and reuses on the next questionnaire.

    \b
    Examples:
      compliance library add caiq-answered.xlsx --library answers.json
      compliance library add caiq-answered.xlsx.review.json --library answers.json
      compliance answer next.xlsx --out next-answered.xlsx --library answers.json
    """


@library.command("add")
@click.argument("source", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--library", "library_path", required=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="The library file (JSON); created when missing.")
@click.option("--workspace", "-w", default=".", show_default=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Workspace whose checked model the answers rest on.")
@click.option("--today", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Check the model as of this date (YYYY-MM-DD) instead of today.")
def add(source: Path, library_path: Path, workspace: Path, today: dt.datetime | None) -> None:
    """Add the reviewed answers of SOURCE to the library.

    SOURCE is an answered questionnaire a human has reviewed and edited (its
    answer and comments cells are taken as the final text, its review file
    OUT.review.json next to it as the provenance), or a review file itself.
    Each answer is kept with the controls and evidence sha256 it rests on and
    a fingerprint of each control; `answer --library` reuses it only while
    they are unchanged. Answers no control backs, or whose evidence changed
    since the review, are not added (listed on stderr).
    """
    from compliance.atomic import write_text_atomic
    from compliance.diagnostics import UserError
    from compliance.formats import emit
    from compliance.pipeline import load_and_check
    from compliance.questionnaire.draft import evidence_sha256
    from compliance.questionnaire.library import (
        add_entries,
        entries_from_review,
        library_json,
        read_library,
    )
    from compliance.report import make_report

    if source.name.endswith(".review.json"):
        review, answered = source, None
    else:
        review, answered = source.with_name(f"{source.name}.review.json"), source
        if not review.is_file():
            fail_unreadable(f"{source}: no review file {review.name} next to it; the library "
                            "needs the controls and evidence each answer rests on")
            return
    try:
        checked = load_and_check(workspace, today.date() if today else None)
        if not checked.ok or checked.workspace.model is None:
            emit(make_report(checked), "text", sys.stdout, color=color_for(sys.stdout))
            sys.stderr.write("error: the model has errors; nothing was added\n")
            sys.exit(EXIT_FINDINGS)
        model = checked.workspace.model
        shas = evidence_sha256(model, checked.workspace.root / "evidence")
        lib = read_library(library_path)
        new, skipped = entries_from_review(review, answered, model, shas)
        added = add_entries(lib, new)
        write_text_atomic(library_path, library_json(lib))
    except UserError as exc:
        fail_unreadable(exc.message, exc.diagnostics)
        return
    for line in skipped:
        sys.stderr.write(f"note: {line}\n")
    sys.stdout.write(f"{library_path}: added {added} approved answers from {source.name} "
                     f"({len(lib.entries)} in the library)\n")
    sys.exit(EXIT_OK)
