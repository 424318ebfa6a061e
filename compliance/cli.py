"""The `compliance` command line: a thin, lazy front door.

Each command lives in its own module under compliance/commands/ and is
imported only when it runs, so `--help` and `check` never import WeasyPrint.
"""

from __future__ import annotations

import importlib

import click

from compliance import __version__
from compliance.commands.options import exits_at_the_edge

#: Command name -> "module:object". Listed explicitly; no import magic.
COMMANDS: dict[str, str] = {
    "answer": "compliance.commands.answer:answer",
    "build": "compliance.commands.build:build",
    "check": "compliance.commands.check:check",
    "diff": "compliance.commands.diff:diff",
    "drill-kit": "compliance.commands.drill_kit:drill_kit",
    "library": "compliance.commands.library:library",
    "lint": "compliance.commands.lint:lint",
    "evidence": "compliance.commands.evidence:evidence",
    "export": "compliance.commands.export:export",
    "init": "compliance.commands.init:init",
    "rules": "compliance.commands.rules:rules",
    "schema": "compliance.commands.schema:schema",
    "verify": "compliance.commands.verify:verify",
    "tabletop": "compliance.commands.tabletop:tabletop",
}


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command is needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]

    def invoke(self, ctx: click.Context) -> object:
        with exits_at_the_edge():
            return super().invoke(ctx)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="compliance")
def cli() -> None:
    """Keep claims about AI coding-agent sandboxes honest.

    Describe your controls and their limits in controls/*.yaml, cite evidence
    files in evidence/, and let `compliance` reject overclaims, check claims
    against configuration, and build what customers and auditors receive.

    \b
    Exit codes: 0 no errors; 1 errors found (or warnings with --strict);
                2 usage error, unreadable input or unwritable output;
                130 interrupted (Ctrl-C).
    \b
    Examples:
      compliance check                       # validate the workspace here
      compliance check --format sarif        # for code scanning
      compliance rules                       # list every rule
      compliance rules CLM001                # one rule's page
    """


def main() -> None:
    """Console entry point. Errors become exits in ``exits_at_the_edge``; a traceback is a bug."""
    cli(prog_name="compliance")
