"""`compliance library`: keep approved questionnaire answers for reuse (`answer --library`)."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from compliance.commands.options import EXIT_FINDINGS, EXIT_OK, color_for, fail_unreadable

if TYPE_CHECKING:
    from compliance.questionnaire.library import Reviewed


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
@click.option("--approve-unedited", is_flag=True,
              help="You reviewed the drafts left as the tool wrote them and approve them as "
                   "they stand: add them too (without it they are skipped).")
def add(source: Path, library_path: Path, workspace: Path, today: dt.datetime | None,
        approve_unedited: bool) -> None:
    """Add the human-final answers of SOURCE to the library.

    SOURCE is an answered questionnaire a human has reviewed (its answer and
    comments cells, or a JSON item's answer, are the final text; its review
    file OUT.review.json next to it is the provenance), or a review file
    itself. Only an answer a reviewer changed from the tool's draft is
    human-final: a draft left as the tool wrote it, and every draft of a
    review file read alone, is skipped as an unreviewed draft unless
    --approve-unedited says a reviewer approves the drafts as they stand.
    Each answer is kept with the controls and evidence sha256 it rests on and
    a fingerprint of each control; `answer --library` reuses it only while
    they are unchanged. Answers no control backs, or whose evidence changed
    since the review, are not added (listed on stderr). When nothing is
    added, nothing is written (an existing library is left as it was), one
    line on stderr says why, and the exit code is 1.
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
        found = entries_from_review(review, answered, model, shas, approve_unedited)
        if found.entries:
            add_entries(lib, found.entries)
            write_text_atomic(library_path, library_json(lib))
    except UserError as exc:
        fail_unreadable(exc.message, exc.diagnostics)
        return
    for line in found.skipped:
        sys.stderr.write(f"note: {line}\n")
    if not found.entries:  # the library file, if any, is left as it was
        sys.stderr.write(nothing_added_line(found, source.name, library_path,
                                            answered is None) + "\n")
        sys.exit(EXIT_FINDINGS)
    lines = added_lines(found, source.name, library_path, len(lib.entries), answered is None)
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.exit(EXIT_OK)


def added_lines(
    found: Reviewed, source: str, library_path: Path, total: int, from_review: bool
) -> list[str]:
    """What `library add` says it did: how many answers it added and on whose word, how
    many unreviewed drafts it skipped and why, how many it skipped for other reasons."""
    lines = [
        f"{library_path}: added {_count(len(found.entries), 'answer')} from {source} "
        f"({found.edited} edited by a reviewer, {found.approved_as_drafted} approved as "
        f"drafted with --approve-unedited); {total} in the library"
    ]
    if found.unreviewed:
        n = len(found.unreviewed)
        lines.append(
            f"skipped {_count(n, 'unreviewed draft')} ({_keys(found.unreviewed)}): "
            f"{'its' if n == 1 else 'their'} text is the tool's draft "
            f"({_where(source, from_review)}) and no reviewer approved it; {_HOW}"
        )
    if found.skipped:
        lines.append(f"skipped {len(found.skipped)} more (why: the notes above)")
    return lines


def nothing_added_line(found: Reviewed, source: str, library_path: Path,
                       from_review: bool) -> str:
    """Why `library add` added nothing (it then writes nothing and exits 1), in one line."""
    why = []
    if found.unreviewed:
        why.append(f"{_count(len(found.unreviewed), 'unreviewed draft')} "
                   f"({_keys(found.unreviewed)}), the tool's text "
                   f"({_where(source, from_review)}) that no reviewer approved")
    if found.skipped:
        why.append(f"{_count(len(found.skipped), 'answer')} that could not be added (why: "
                   "the notes above)")
    if not why:
        why.append(f"{source} holds no answer")
    how = f"; {_HOW}" if found.unreviewed else ""
    return f"error: nothing added to {library_path} from {source}: {'; '.join(why)}{how}"


#: What turns an unreviewed draft into one the library takes.
_HOW = ("edit the answer in the answered file and add that, or pass --approve-unedited once "
        "a reviewer approves the drafts as they stand")


def _keys(keys: list[str]) -> str:
    n = len(keys)
    return ", ".join(keys[:10]) + (f" and {n - 10} more" if n > 10 else "")


def _where(source: str, from_review: bool) -> str:
    return "a review file holds no reviewer's edits" if from_review else f"not edited in {source}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
