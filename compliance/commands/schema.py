"""`compliance schema`: print the JSON Schemas of the YAML files, or write them to a folder."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("schema")
@click.option("--write", "write_dir", is_flag=False, flag_value="", default=None,
              metavar="[DIR]",
              help="Write every schema into DIR (created if missing); without DIR, "
                   "rewrite the committed schema files in the package.")
@click.argument("which", type=click.Choice(["controls", "settings", "waivers", "disclosure",
                                                 "scenarios", "exercise", "drill"]),
                default="controls")
def schema(write_dir: str | None, which: str) -> None:
    """Print the JSON Schema for controls/*.yaml (or settings, waivers, disclosure records,
    scenarios/*.yaml, exercises/*.yaml, drills/*.yaml files).

    For editor autocompletion in a workspace of your own, write the schemas
    next to it and point each YAML file's first line at them:

    \b
      compliance schema --write .schema
      # first line of controls/*.yaml:
      # yaml-language-server: $schema=../.schema/controls.schema.json
      # first line of compliance.yaml and waivers.yaml:
      # yaml-language-server: $schema=.schema/settings.schema.json
      # yaml-language-server: $schema=.schema/waivers.schema.json

    \b
    Examples:
      compliance schema > controls.schema.json
      compliance schema waivers
      compliance schema --write .schema
    """
    from compliance.schema import HERE, SCHEMAS, render, write_all

    if write_dir is not None:
        folder = Path(write_dir) if write_dir else HERE
        from compliance.atomic import writing_to

        with writing_to(folder):
            folder.mkdir(parents=True, exist_ok=True)
        for path in write_all(folder):
            click.echo(f"wrote {path}")
        return
    click.echo(render(SCHEMAS[f"{which}.schema.json"]), nl=False)
