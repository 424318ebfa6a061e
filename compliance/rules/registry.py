"""The rule registry: an explicit dict of every rule, by code. No import magic.

Families: ``limits``/``layers``/``evidence``/``waivers`` (rules over the model,
compliance.rules.model), ``claims`` (prose overclaims, compliance.rules.claims)
``config`` (claims versus configuration files, compliance.rules.config) and
``verdicts`` (what the verdicts say about each claim, compliance.rules.verdicts).
Loader findings (YML/SCH/REF codes) are documented in :data:`LOADER_CODES`.
"""

from __future__ import annotations

from compliance.rules.base import Rule
from compliance.rules.claims import CLAIM_RULES
from compliance.rules.config import CONFIG_FAMILY_RULES
from compliance.rules.model import MODEL_RULES
from compliance.rules.practice import PRACTICE_RULES
from compliance.rules.verdicts import VERDICT_RULES

ALL_RULES: dict[str, type[Rule]] = {**MODEL_RULES, **CLAIM_RULES, **CONFIG_FAMILY_RULES,
                                    **PRACTICE_RULES, **VERDICT_RULES}

#: Findings the loader produces before any rule runs: code -> (name, summary).
LOADER_CODES: dict[str, tuple[str, str]] = {
    "IO001": ("unreadable-input", "An input that cannot be read at all (no such file or "
                                  "folder, no controls/ folder, not a workbook): exit 2."),
    "YML001": ("unreadable-yaml", "A file that is not UTF-8 YAML (binary, UTF-16, bad "
                                  "encoding, syntax error, alias bomb), or an entry under "
                                  "controls/ that cannot be read (a link outside the "
                                  "workspace or to nothing, a FIFO, a device): exit 2."),
    "YML002": ("duplicate-key", "The same key twice in one mapping."),
    "YML003": ("empty-file", "A model file with no content."),
    "YML004": ("invalid-value", "A value YAML cannot turn into data (an impossible date "
                                "such as 2026-13-45, `!!int x`, an unsupported tag, a number "
                                "of more than 100 digits): exit 1."),
    "YML005": ("file-not-read", "A regular file under controls/ that is not .yaml/.yml, "
                                "listed so nothing is skipped silently (info: never fails)."),
    "SCH001": ("schema-violation", "A value of the wrong type or shape."),
    "SCH002": ("unknown-key", "A key the model does not define (typo?)."),
    "SCH003": ("missing-field", "A required field is absent."),
    "REF001": ("duplicate-id", "Two items of the same section share an id."),
    "REF002": ("undefined-reference", "A reference to a limit, source or evidence id "
                                      "that is not defined."),
    "REF003": ("system-not-defined-once", "`system:` missing or defined twice."),
}


def rule_names() -> dict[str, str]:
    """Every accepted way to name a rule (code, name, alias) -> its code."""
    names: dict[str, str] = {}
    for code, (name, _summary) in LOADER_CODES.items():
        names[code] = code
        names[name] = code
    for code, rule in ALL_RULES.items():
        names[code] = code
        names[rule.name] = code
        for alias in rule.aliases:
            names[alias] = code
    return names
