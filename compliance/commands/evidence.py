"""`compliance evidence`: list evidence files and re-pin them after review."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from compliance.commands.options import (
    EXIT_FINDINGS,
    EXIT_UNREADABLE,
    fail_unreadable,
    workspace_argument,
)


@click.group("evidence")
def evidence() -> None:
    """Evidence files under evidence/: their pins, and re-pinning after review.

    \b
    Examples:
      compliance evidence status              # id, path, pinned?, matches?
      compliance evidence pin                 # write current sha256 of every file
      compliance evidence pin --id firewall-script   # only one item
    """


def _load(workspace: str):  # type: ignore[no-untyped-def]
    from compliance.diagnostics import UserError
    from compliance.load import load_workspace

    try:
        ws = load_workspace(Path(workspace))
    except UserError as exc:
        fail_unreadable(exc.message, exc.diagnostics)
    if ws.model is None:
        from compliance.formats import emit

        emit(ws.findings, "text", sys.stderr)
        click.echo("error: fix the model errors above first", err=True)
        sys.exit(EXIT_FINDINGS)
    return ws


@evidence.command("status")
@workspace_argument
def status(workspace: str) -> None:
    """Show each evidence item: path, pin state and collected date.

    States: ok, not pinned, STALE (changed since pinned), missing, outside
    evidence/, unreadable.

    \b
    Exit codes: 0 every item ok; 1 an item is not ok (stale, not pinned, missing,
                outside evidence/, unreadable), or the model has errors;
                2 the workspace cannot be read at all.
    \b
    Examples:
      compliance evidence status
    """
    from compliance.evidence_pin import evidence_states

    ws = _load(workspace)
    states = evidence_states(ws)
    by_id = {ev.id: ev for ev in ws.model.evidence}
    id_width = max((len(st.evidence_id) for st in states), default=0)
    path_width = max((len(f"evidence/{st.path}") for st in states), default=0)
    for st in states:  # columns as wide as their longest entry
        state = f"{st.state} ({st.detail})" if st.detail else st.state
        click.echo(f"{st.evidence_id:<{id_width}}  {'evidence/' + st.path:<{path_width}}  "
                   f"{state}; collected {by_id[st.evidence_id].collected}")
    bad = [st for st in states if not st.ok]
    if bad:
        click.echo(f"{len(bad)} of {len(states)} evidence item(s) not ok; see "
                   "`compliance check` for the findings", err=True)
        sys.exit(EXIT_FINDINGS)


@evidence.command("pin")
@workspace_argument
@click.option("--id", "ids", multiple=True, help="Evidence id to pin (repeatable); default all.")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
def pin_command(workspace: str, ids: tuple[str, ...], dry_run: bool) -> None:
    """Write the current sha256 of evidence files into the model, after you reviewed them.

    Only the `sha256:` values change; comments, layout, line breaks and a
    UTF-8 BOM are kept. Items whose file is missing, outside evidence/ or
    unreadable cannot be pinned: they are listed on stderr.

    \b
    Exit codes: 0 every selected item is pinned and current; 1 some item could
                not be pinned (the others were), or the model has errors;
                2 the workspace cannot be read, or --id names no item.
    \b
    Examples:
      compliance evidence pin --dry-run
      compliance evidence pin --id firewall-script
    """
    from compliance.evidence_pin import evidence_states, pin

    ws = _load(workspace)
    unknown = set(ids) - {ev.id for ev in ws.model.evidence}
    if unknown:
        click.echo(f"error: no evidence item {', '.join(sorted(unknown))}", err=True)
        sys.exit(EXIT_UNREADABLE)
    selected = set(ids) or None
    unpinnable = [st for st in evidence_states(ws, selected) if st.current is None]
    changes = pin(ws, selected, dry_run)
    for c in changes:
        old = c.old[:12] + "..." if c.old else "unpinned"
        click.echo(f"{'would pin' if dry_run else 'pinned'} {c.evidence_id}: evidence/{c.path} "
                   f"{old} -> {c.new[:12]}...")
    for st in unpinnable:
        click.echo(f"error: cannot pin {st.evidence_id}: {st.state} ({st.detail})", err=True)
    if unpinnable:
        sys.exit(EXIT_FINDINGS)
    if not changes:
        click.echo("all evidence pins are current")
