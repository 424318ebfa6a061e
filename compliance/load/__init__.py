"""Load stage: YAML files -> positioned plain data -> strict models -> one Model.

The names below are imported when first used, so that a reader of one submodule
(``compliance.load.yamlpos``, which the adapters share) does not import the models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from compliance.lazy import lazy_attributes

if TYPE_CHECKING:
    from compliance.load.workspace import Workspace, load_workspace
    from compliance.load.yamlpos import YamlDocument, YamlLoadError, load_yaml, parse_yaml

_WHERE = {"Workspace": "workspace", "load_workspace": "workspace", "YamlDocument": "yamlpos",
          "YamlLoadError": "yamlpos", "load_yaml": "yamlpos", "parse_yaml": "yamlpos"}


__getattr__ = lazy_attributes(__name__, _WHERE, globals())


__all__ = ["Workspace", "YamlDocument", "YamlLoadError", "load_workspace", "load_yaml",
           "parse_yaml"]
