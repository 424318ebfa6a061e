"""Load stage: YAML files -> positioned plain data -> strict models -> one Model.

The names below are imported when first used, so that a reader of one submodule
(``compliance.load.yamlpos``, which the adapters share) does not import the models.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from compliance.load.workspace import Workspace, load_workspace
    from compliance.load.yamlpos import YamlDocument, YamlLoadError, load_yaml, parse_yaml

_WHERE = {"Workspace": "workspace", "load_workspace": "workspace", "YamlDocument": "yamlpos",
          "YamlLoadError": "yamlpos", "load_yaml": "yamlpos", "parse_yaml": "yamlpos"}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


__all__ = ["Workspace", "YamlDocument", "YamlLoadError", "load_workspace", "load_yaml",
           "parse_yaml"]
