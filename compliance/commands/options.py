"""Option groups shared by commands, as decorators, and the edge where errors become exits."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

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


def fail_unreadable(message: str, diagnostics: list[Any] | None = None) -> None:
    """Print an unreadable-input error (positioned when possible) and exit 2.

    Text goes to stderr as before. With ``--format json|sarif|github`` (read from
    the running command's parameters, so every command that uses
    :func:`output_options` gets it) stdout also carries the same errors in that
    format, so a JSON reader, a SARIF upload or a GitHub annotation still sees them.
    """
    from compliance.formats import unreadable_report

    print_unreadable(message, diagnostics)
    ctx = click.get_current_context(silent=True)
    fmt = ctx.params.get("fmt", "text") if ctx is not None else "text"
    if fmt != "text":
        from compliance.formats import emit

        emit(unreadable_report(message, diagnostics), fmt, sys.stdout)
    sys.exit(EXIT_UNREADABLE)


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
