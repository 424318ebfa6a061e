"""devcontainer.json (JSONC): run arguments, lifecycle commands, environment, mounts.

Facts, each with its line:
- ``run-arg``: each ``runArgs`` item;
- ``capability``: each added capability (``--cap-add=A,B``, ``--cap-add A``, ``capAdd``);
- ``network-host`` / ``privileged``: ``--network=host``/``--net=host``, ``--privileged``
  or ``"privileged": true``;
- ``lifecycle-command``: each command of on/updateContent/post*/initialize commands,
  value ``(property, command text)``;
- ``env``: each ``remoteEnv``/``containerEnv`` entry, value ``(name, value)``;
- ``mount``: each ``mounts`` item and ``workspaceMount``, value the mount string (objects
  are rendered ``source=…,target=…,type=…``).
"""

from __future__ import annotations

from typing import Any

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.jsonpos import parse_json

KIND = "devcontainer"
LIFECYCLE = ("initializeCommand", "onCreateCommand", "updateContentCommand",
             "postCreateCommand", "postStartCommand", "postAttachCommand")
_MARKERS = frozenset({"runArgs", "postStartCommand", "postCreateCommand", "remoteUser",
                      "containerEnv", "remoteEnv", "workspaceFolder", "dockerComposeFile",
                      "forwardPorts", "features", "customizations"})


def looks_like(data: Any) -> bool:
    return isinstance(data, dict) and (
        ("image" in data or "build" in data or "dockerComposeFile" in data)
        and bool(_MARKERS & set(data))
    )


def parse(text: str, display_path: str) -> EvidenceDoc:
    data, positions = parse_json(text, display_path, jsonc=True)
    doc = EvidenceDoc(KIND, display_path, data, positions, text=text)
    if not isinstance(data, dict):
        return doc
    args = [f for f in doc.items("runArgs") if isinstance(f.value, str)]
    for i, fact in enumerate(args):
        arg = fact.value
        doc.add("run-arg", arg, fact.line, fact.column, fact.key)
        nxt = args[i + 1].value if i + 1 < len(args) else ""
        if arg.startswith("--cap-add"):
            caps = arg.split("=", 1)[1] if "=" in arg else nxt
            for cap in caps.split(","):
                if cap.strip():
                    doc.add("capability", cap.strip().upper(), fact.line, fact.column, fact.key)
        if arg in ("--network=host", "--net=host") or (
            arg in ("--network", "--net") and nxt == "host"
        ):
            doc.add("network-host", arg, fact.line, fact.column, fact.key)
        if arg == "--privileged" or arg == "--privileged=true":
            doc.add("privileged", arg, fact.line, fact.column, fact.key)
    for fact in doc.items("capAdd"):
        doc.add("capability", str(fact.value).upper(), fact.line, fact.column, fact.key)
    priv = doc.at("privileged")
    if priv is not None and priv.value is True:
        doc.add("privileged", "privileged: true", priv.line, priv.column, priv.key)
    for prop in LIFECYCLE:
        _commands(doc, prop, data.get(prop))
    for prop in ("remoteEnv", "containerEnv"):
        for name, fact in doc.entries(prop):
            doc.add("env", (str(name), fact.value), fact.line, fact.column, fact.key)
    for fact in doc.items("mounts"):
        doc.add("mount", _mount_text(fact.value), fact.line, fact.column, fact.key)
    ws = doc.at("workspaceMount")
    if ws is not None:
        doc.add("mount", _mount_text(ws.value), ws.line, ws.column, ws.key)
    return doc


def _commands(doc: EvidenceDoc, prop: str, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, str):
        doc.add_at("lifecycle-command", (prop, value), prop)
    elif isinstance(value, list):
        doc.add_at("lifecycle-command", (prop, " ".join(map(str, value))), prop)
    elif isinstance(value, dict):
        for name, cmd in value.items():
            text = " ".join(map(str, cmd)) if isinstance(cmd, list) else str(cmd)
            doc.add_at("lifecycle-command", (prop, text), prop, name)


def _mount_text(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return str(value)
