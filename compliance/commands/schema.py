"""`compliance schema`: print or refresh the JSON Schemas of the YAML files."""

from __future__ import annotations

import click


@click.command("schema")
@click.option("--write", is_flag=True, help="Rewrite the committed schema files in the package.")
@click.argument("which", type=click.Choice(["controls", "settings", "waivers", "disclosure",
                                                 "scenarios", "exercise", "drill"]),
                default="controls")
def schema(write: bool, which: str) -> None:
    """Print the JSON Schema for controls/*.yaml (or settings, waivers, disclosure records,
    scenarios/*.yaml, exercises/*.yaml, drills/*.yaml files).

    \b
    Examples:
      compliance schema > controls.schema.json
      compliance schema waivers
    """
    from compliance.schema import SCHEMAS, render, write_all

    if write:
        for path in write_all():
            click.echo(f"wrote {path}")
        return
    click.echo(render(SCHEMAS[f"{which}.schema.json"]), nl=False)
