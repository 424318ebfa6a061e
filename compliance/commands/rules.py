"""`compliance rules [CODE]`: list every rule, or print one rule's page."""

from __future__ import annotations

import sys

import click


@click.command("rules")
@click.argument("code", required=False)
def rules(code: str | None) -> None:
    """List every rule, or print the documentation page of CODE (a code or a name).

    \b
    Examples:
      compliance rules              # code, name, level, summary of each rule
      compliance rules LIM002       # the page of one rule
      compliance rules kind-limit-missing
    """
    from compliance.rules.registry import ALL_RULES, LOADER_CODES, rule_names

    out = sys.stdout
    if code is None:
        for c, (name, summary) in LOADER_CODES.items():
            out.write(f"{c}  {name:<36} {'error':<7} {summary}\n")
        for c, rule in sorted(ALL_RULES.items()):
            out.write(f"{c}  {rule.name:<36} {rule.level.value:<7} {rule.summary()}\n")
        return
    resolved = rule_names().get(code) or rule_names().get(code.upper())
    if resolved in ALL_RULES:
        out.write(ALL_RULES[resolved].page())
        return
    if resolved in LOADER_CODES:
        name, summary = LOADER_CODES[resolved]
        out.write(f"{resolved} {name} (loader, error)\n\n{summary}\n")
        return
    sys.stderr.write(
        f"error: no rule {code!r}; run `compliance rules` to list them\n")
    sys.exit(2)
