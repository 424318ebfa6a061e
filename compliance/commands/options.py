"""Option groups shared by commands, as decorators, and the edge where errors become exits."""

from __future__ import annotations

import contextlib
import datetime as dt
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

if TYPE_CHECKING:
    from compliance.pipeline import Checked

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE = 0, 1, 2
#: 128 + SIGINT, as shells report a command stopped by Ctrl-C.
EXIT_INTERRUPTED = 130


def output_options(func: F) -> F:
    """--format and --strict, shared by check and lint."""
    func = click.option(
        "--strict", is_flag=True,
        help="Exit 1 on warnings too (errors always exit 1).")(func)
    func = click.option(
        "--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]),
        default="text", show_default=True,
        help="text: path:line:col lines; json: stable findings object; sarif: SARIF 2.1.0 "
             "for code scanning; github: workflow annotations.")(func)
    return func


def workspace_argument(func: F) -> F:
    return click.argument(
        "workspace", required=False, default=".",
        type=click.Path(file_okay=False, path_type=None))(func)


def color_for(stream: Any) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)())


def print_unreadable(message: str, diagnostics: list[Any] | None = None) -> None:
    """An unreadable-input error on stderr: each positioned diagnostic, else the message."""
    err = sys.stderr
    for d in diagnostics or []:
        err.write(f"{d.path}:{d.line}:{d.column}: error {d.message} [{d.code}]\n")
    if not diagnostics:
        err.write(f"error: {message}\n")


def fail_unreadable(message: str, diagnostics: list[Any] | None = None,
                    base: str = "") -> NoReturn:
    """Print an unreadable-input error (positioned when possible) and exit 2.

    Text goes to stderr as before. With ``--format json|sarif|github`` (read from
    the running command's parameters, so every command that uses
    :func:`output_options` gets it) stdout also carries the same errors in that
    format, so a JSON reader, a SARIF upload or a GitHub annotation still sees them.
    ``base``: the folder the diagnostics' paths are relative to (see ``Report.base``).
    """
    from compliance.formats import unreadable_report

    print_unreadable(message, diagnostics)
    ctx = click.get_current_context(silent=True)
    fmt = ctx.params.get("fmt", "text") if ctx is not None else "text"
    if fmt != "text":
        from compliance.formats import emit

        emit(unreadable_report(message, diagnostics, base), fmt, sys.stdout)
    sys.exit(EXIT_UNREADABLE)


def load_and_check_or_exit(workspace: str | Path, today: dt.datetime | None,
                           strict: bool = False) -> Checked:
    """Stages 1 and 2 for a command: load WORKSPACE and run every check as of ``--today``.

    A workspace that cannot be read at all prints its errors (positioned when
    possible, see :func:`fail_unreadable`) and exits 2; a model that reads but has
    errors is returned, for the command to decide (see :func:`stop_on_model_errors`).
    """
    from compliance.diagnostics import UserError
    from compliance.pipeline import load_and_check

    try:
        return load_and_check(Path(workspace), today.date() if today else None, strict)
    except UserError as exc:  # positioned diagnostics name files inside the workspace
        fail_unreadable(exc.message, exc.diagnostics, base=str(workspace))


def stop_on_model_errors(checked: Checked, nothing_done: str) -> NoReturn:
    """Print the findings of a model that cannot be used as text, then ``nothing_done``
    (what the command did not do, and why), and exit 1."""
    from compliance.formats import emit
    from compliance.report import make_report

    emit(make_report(checked), "text", sys.stdout, color=color_for(sys.stdout))
    sys.stdout.write(f"{nothing_done}\n")
    sys.exit(EXIT_FINDINGS)


@contextlib.contextmanager
def exits_at_the_edge() -> Iterator[None]:
    """Around every command: what is not a bug ends in one line and an exit code.

    - a file that cannot be written (``CannotWrite``, raised by every writer in
      ``compliance.atomic`` and ``compliance.render.atomic``):
      ``error: cannot write PATH: REASON``, exit 2;
    - Ctrl-C: ``interrupted``, exit 130 (click alone prints "Aborted!" and exits
      1, the code for findings). Writers are atomic, so nothing is half-written.
    """
    from compliance.atomic import CannotWrite

    try:
        yield
    except CannotWrite as exc:
        fail_unreadable(exc.message)
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        sys.exit(EXIT_INTERRUPTED)


def force_option(func: F) -> F:
    """--force: replace outputs a person may have edited (answer, drill-kit, tabletop)."""
    return click.option(
        "--force", is_flag=True,
        help="Replace an existing output that differs from what this run writes (edits "
             "in it are lost). Without it such an output is kept, nothing is written and "
             "the exit code is 2; an identical one is simply left as it is.")(func)


def record_options(func: F) -> F:
    """--record NAME and --replace-record, shared by build and answer."""
    func = click.option(
        "--replace-record", is_flag=True,
        help="Replace an existing disclosures/NAME.yaml instead of refusing.")(func)
    func = click.option(
        "--record", "record", metavar="NAME", default=None,
        help="Record what was sent in the workspace's disclosures/NAME.yaml (commit it); "
             "`compliance diff` and `check` then say when it is out of date.")(func)
    return func
