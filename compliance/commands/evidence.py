"""`compliance evidence`: list evidence files and re-pin them after review."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from compliance.commands.options import EXIT_FINDINGS, fail_unreadable, workspace_argument


@click.group("evidence")
def evidence() -> None:
    """Evidence files under evidence/: their pins, and re-pinning after review.

    \b
    Examples:
      compliance evidence status              # id, path, pinned?, matches?
      compliance evidence pin                 # write current sha256 of every file
      compliance evidence pin --id firewall   # only one item
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
    """Show each evidence item: path, pin state and age.

    \b
    Examples:
      compliance evidence status
    """
    from compliance.evidence_pin import current_hashes

    ws = _load(workspace)
    hashes = current_hashes(ws)
    for ev in ws.model.evidence:
        now = hashes.get(ev.id)
        state = ("missing or outside evidence/" if now is None else
                 "not pinned" if ev.sha256 is None else
                 "ok" if now == ev.sha256 else "STALE (changed since pinned)")
        click.echo(f"{ev.id:<24} evidence/{ev.path:<44} {state}; collected {ev.collected}")


@evidence.command("pin")
@workspace_argument
@click.option("--id", "ids", multiple=True, help="Evidence id to pin (repeatable); default all.")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
def pin_command(workspace: str, ids: tuple[str, ...], dry_run: bool) -> None:
    """Write the current sha256 of evidence files into the model, after you reviewed them.

    Only the `sha256:` values change; comments and layout are kept.

    \b
    Examples:
      compliance evidence pin --dry-run
      compliance evidence pin --id firewall-script
    """
    from compliance.evidence_pin import pin

    ws = _load(workspace)
    unknown = set(ids) - {ev.id for ev in ws.model.evidence}
    if unknown:
        click.echo(f"error: no evidence item {', '.join(sorted(unknown))}", err=True)
        sys.exit(2)
    changes = pin(ws, set(ids) or None, dry_run)
    for c in changes:
        old = c.old[:12] + "..." if c.old else "unpinned"
        click.echo(f"{'would pin' if dry_run else 'pinned'} {c.evidence_id}: evidence/{c.path} "
                   f"{old} -> {c.new[:12]}...")
    if not changes:
        click.echo("all evidence pins are current")
