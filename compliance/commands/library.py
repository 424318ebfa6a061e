"""`compliance library`: keep approved questionnaire answers for reuse (`answer --library`)."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
      compliance library add caiq-answered.xlsx --library answers.json --approve KEY
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
@click.option("--approve", "approve", multiple=True, metavar="KEY",
              help="A reviewer approves this one unedited draft as it stands: add it too. "
                   "KEY is the question's key as the review file (and the 'skipped' line) "
                   "gives it; repeat for each draft.")
@click.option("--approve-unedited", is_flag=True,
              help="You reviewed the drafts left as the tool wrote them and approve them as "
                   "they stand: add them too (without it they are skipped).")
def add(source: Path, library_path: Path, workspace: Path, today: dt.datetime | None,
        approve: tuple[str, ...], approve_unedited: bool) -> None:
    """Add the human-final answers of SOURCE to the library.

    SOURCE is an answered questionnaire a human has reviewed (its answer and
    comments cells, or a JSON item's answer, are the final text; its review
    file OUT.review.json next to it is the provenance), or a review file
    itself. Only an answer a reviewer changed from the tool's draft is
    human-final: a draft left as the tool wrote it, and every draft of a
    review file read alone, is skipped as an unreviewed draft unless a
    reviewer approves it as it stands: --approve KEY for one draft (repeat
    it; a KEY the review file does not hold is an error, exit 1, and nothing
    is written), --approve-unedited for every draft.
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
        idle = [] if approve_unedited else [  # keys --approve has nothing to do for
            k for k in dict.fromkeys(approve) if k not in found.unreviewed]
        if approve:
            approved = approve_drafts(review, answered, model, shas, approve, found)
            if isinstance(approved, str):
                sys.stderr.write(f"error: {approved}; nothing was added\n")
                sys.exit(EXIT_FINDINGS)
            found = approved
        if found.entries:
            add_entries(lib, found.entries)
            write_text_atomic(library_path, library_json(lib))
    except UserError as exc:
        fail_unreadable(exc.message, exc.diagnostics)
        return
    for key in idle:
        sys.stderr.write(f"note: --approve {key}: not an unreviewed draft (a reviewer edited "
                         "it, or it holds no answer to add); nothing to approve\n")
    for line in found.skipped:
        sys.stderr.write(f"note: {line}\n")
    if not found.entries:  # the library file, if any, is left as it was
        sys.stderr.write(nothing_added_line(found, source.name, library_path,
                                            answered is None) + "\n")
        sys.exit(EXIT_FINDINGS)
    flag = "--approve" if approve and not approve_unedited else "--approve-unedited"
    lines = added_lines(found, source.name, library_path, len(lib.entries), answered is None,
                        flag)
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.exit(EXIT_OK)


def approve_drafts(review: Path, answered: Path | None, model: Any, shas: dict[str, str],
                   keys: tuple[str, ...], found: Reviewed) -> Reviewed | str:
    """``found`` with the unreviewed drafts named by ``--approve KEY`` added as approved as
    drafted; or the error when a KEY is no question of the review file.

    The approved drafts are read by ``entries_from_review`` itself, with approval, from a
    copy of the review file that holds only their items (under the same name, which an
    entry from a review file alone keeps as its source): the same checks (controls in the
    model, evidence unchanged) as ``--approve-unedited`` applies to every draft."""
    import json
    import tempfile

    from compliance.questionnaire.library import Reviewed, entries_from_review

    data = json.loads(review.read_text(encoding="utf-8"))  # read and checked by the caller
    known = {str(item.get("key")) for item in data["items"]}
    unknown = [k for k in dict.fromkeys(keys) if k not in known]
    if unknown:
        return (f"--approve {', '.join(unknown)}: {review.name} has no question with "
                f"{'that key' if len(unknown) == 1 else 'those keys'} (its keys are the "
                "review file's `key` values, as the 'skipped' line names them)")
    wanted = [k for k in found.unreviewed if k in keys]
    if not wanted:
        return found
    items = [item for item in data["items"] if str(item.get("key")) in wanted]
    with tempfile.TemporaryDirectory(prefix="compliance-approve-") as tmp:
        only = Path(tmp) / review.name
        only.write_text(json.dumps({**data, "items": items}), encoding="utf-8")
        extra = entries_from_review(only, answered, model, shas, approve_unedited=True)
    return Reviewed(
        entries=found.entries + extra.entries,
        edited=found.edited,
        approved_as_drafted=found.approved_as_drafted + extra.approved_as_drafted,
        unreviewed=[k for k in found.unreviewed if k not in wanted],
        skipped=found.skipped + extra.skipped,
    )


def added_lines(
    found: Reviewed, source: str, library_path: Path, total: int, from_review: bool,
    flag: str = "--approve-unedited",
) -> list[str]:
    """What `library add` says it did: how many answers it added and on whose word, how
    many unreviewed drafts it skipped and why, how many it skipped for other reasons."""
    lines = [
        f"{library_path}: added {_count(len(found.entries), 'answer')} from {source} "
        f"({found.edited} edited by a reviewer, {found.approved_as_drafted} approved as "
        f"drafted with {flag}); {total} in the library"
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
_HOW = ("edit the answer in the answered file and add that, or pass --approve KEY for each "
        "draft a reviewer approves as it stands (--approve-unedited for all of them)")


def _keys(keys: list[str]) -> str:
    n = len(keys)
    return ", ".join(keys[:10]) + (f" and {n - 10} more" if n > 10 else "")


def _where(source: str, from_review: bool) -> str:
    return "a review file holds no reviewer's edits" if from_review else f"not edited in {source}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
