"""`compliance init`: write a checked starter workspace from a repository's agent configuration."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from compliance.commands.options import EXIT_FINDINGS

LOOKED_FOR = (".claude/settings*.json, managed-settings.json, .mcp.json, .vscode/mcp.json, "
              ".devcontainer/ (devcontainer.json and its scripts), .codex/config.toml, "
              ".github/workflows/*.yml (incl. copilot-setup-steps.yml), CODEOWNERS, and "
              "exported GitHub API JSON (branch protection, rulesets, Actions settings)")


@click.command("init")
@click.argument("repo", required=False, default=".",
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="Folder to create for the workspace (default: REPO/compliance-workspace). "
                   "It must not exist.")
@click.option("--dry-run", is_flag=True, help="List what would be written; write nothing.")
@click.option("--today", "today", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Date to write as collected/last reviewed (default: today).")
def init(repo: Path, out: Path | None, dry_run: bool, today: dt.datetime | None) -> None:
    """Scan REPO for agent configuration and write a starter workspace from it.

    Each file found is copied into evidence/ and pinned. For each thing found
    (the Bash sandbox, egress firewall, MCP servers, workflows, branch
    protection, ...) one control is written with the claim a team would make,
    checked first by the same configuration checks as `compliance check`:
    VERIFIED and UNVERIFIED claims are written as deployed controls; a claim the
    files REFUTE is written as planned, with the refuting lines, so no output
    presents it as true. Owner, scope and residual risk are left as FILL IN
    placeholders that keep `compliance check` failing until a person fills them.

    \b
    Exit codes: 0 written (or listed with --dry-run); 1 nothing found, or a
                configuration file that cannot be read (positioned error);
                2 usage error, or the workspace folder exists / cannot be written.
    \b
    Examples:
      compliance init                          # this repository -> ./compliance-workspace
      compliance init ../payments-api --out ../payments-compliance
      compliance init --dry-run
    """
    from compliance.starter.plan import make_plan
    from compliance.starter.render import files, refuse_unwritable, write_workspace

    destination = out if out is not None else repo / "compliance-workspace"
    if not dry_run:
        refuse_unwritable(destination)
    day = today.date() if today else dt.date.today()
    plan = make_plan(repo, day, exclude=destination)
    for d in plan.scan.errors:
        click.echo(f"{d.path}:{d.line}:{d.column}: error {d.message} [{d.code}]", err=True)
    if plan.scan.errors:
        click.echo("error: fix or remove the unreadable configuration above, then run init "
                   "again; nothing was written", err=True)
        sys.exit(EXIT_FINDINGS)
    for note in plan.scan.skipped:
        click.echo(f"note: {note}", err=True)
    if not plan.evidence:
        click.echo(f"error: no agent configuration found under {repo}; looked for "
                   f"{LOOKED_FOR}. Nothing was written.", err=True)
        sys.exit(EXIT_FINDINGS)
    click.echo(f"read {len(plan.evidence)} configuration file(s) under {repo}:")
    width = max(len(e.rel) for e in plan.evidence)
    for e in plan.evidence:
        click.echo(f"  {e.rel:<{width}}  {e.kind}")
    click.echo("controls (each claim checked against those files before writing):")
    for c in plan.controls:
        outcome = ("written as planned: the files contradict it" if c.refuted
                   else "written as deployed")
        click.echo(f"  {c.id:<8} {c.aspect.kind:<28} {c.status.value.upper():<10} {outcome}")
        if c.refuted:
            for v in c.verdicts.values():
                for r in v.refuting[:3]:
                    click.echo(f"           {r.path}:{r.line} {r.key}: {r.message}")
    content = files(plan)
    if dry_run:
        click.echo(f"would write {destination}/ ({len(content)} files):")
        for rel in sorted(content):
            click.echo(f"  {rel}")
        return
    write_workspace(destination, content)
    click.echo(f"wrote {destination}/ ({len(content)} files). Next: replace every FILL IN "
               f"(`compliance check {destination}` lists them), review each claim and the "
               "copied evidence, then run check again.")
