"""Load stage: YAML files -> positioned plain data -> strict models -> one Model."""

from compliance.load.workspace import Workspace, load_workspace
from compliance.load.yamlpos import YamlDocument, YamlLoadError, load_yaml, parse_yaml

__all__ = ["Workspace", "YamlDocument", "YamlLoadError", "load_workspace", "load_yaml",
           "parse_yaml"]
