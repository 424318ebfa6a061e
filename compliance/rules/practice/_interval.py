"""The one finding of the practice rules that hold a practice to an interval: a layer drill
(DRL002) and a tabletop exercise (TTX003) are done at least every N days."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Position
from compliance.rules.base import Rule


def not_done_within(rule: type[Rule], ctx: CheckContext, interval: int,
                    last: tuple[dt.date, Position] | None, *, never: str, last_done: str,
                    again: str) -> Iterator[Diagnostic]:
    """``rule``'s finding when the practice was never recorded (``last`` is None: at
    ``system:``, ``never`` + the interval) or its newest record (``last``: date and the
    position of that date) is more than ``interval`` days before today (``last_done`` +
    the dates + ``again``); nothing otherwise."""
    from compliance.check.practice import overdue  # it imports the models: not when listed

    if last is None:
        yield rule.diagnostic(ctx.pos("system", "system", key=True),
                              f"{never}, at least every {interval} days")
        return
    date, where = last
    if overdue(date, interval, ctx.today):
        yield rule.diagnostic(where, f"{last_done} on {date}, more than {interval} days "
                                     f"before {ctx.today}; {again}")
