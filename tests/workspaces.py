"""Build small workspaces in a temporary folder for tests."""

from __future__ import annotations

import hashlib
import textwrap
from pathlib import Path

SYSTEM = """\
system:
  name: Test agents
  scope: Coding agents used by the test team.
  owner: sec@example.test
  last_reviewed: 2026-11-01
sources:
  - id: owasp-llm01
    title: OWASP LLM01 Prompt Injection
limits:
  - id: model-open
    text: The connection to the model provider stays open.
    topics: [model-channel-open]
    sources: [owasp-llm01]
"""

CONTROL = """\
controls:
  - id: ISO-01
    layer: isolation
    title: Disposable VMs
    status: deployed
    claim: Agent sessions run in single-use virtual machines.
    implementation: Each session boots a fresh VM that is destroyed at the end.
    limits: [model-open]
    residual_risk: A hypervisor escape would reach the host.
    owner: platform
"""


def make_workspace(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``files`` (relative path -> text or bytes; text is dedented) under ``root``."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


def minimal(root: Path, **extra: str | bytes) -> Path:
    """A workspace that loads cleanly, plus ``extra`` files."""
    files: dict[str, str | bytes] = {"controls/system.yaml": SYSTEM,
                                     "controls/isolation.yaml": CONTROL}
    files.update({k.replace("__", "/"): v for k, v in extra.items()})
    return make_workspace(root, files)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


#: What the example workspace at the repository root is made of.
EXAMPLE_PARTS = ("controls", "evidence", "exercises", "templates", "compliance.yaml",
                 "waivers.yaml")


def copy_example(repo: Path, dest: Path) -> Path:
    """A copy of the repository's example workspace (every part that exists) at ``dest``."""
    import shutil

    dest.mkdir(parents=True, exist_ok=True)
    for name in EXAMPLE_PARTS:
        src = repo / name
        if src.is_dir():
            shutil.copytree(src, dest / name)
        elif src.is_file():
            shutil.copy(src, dest / name)
    return dest
