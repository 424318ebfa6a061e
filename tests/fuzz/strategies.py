"""Input generators for the fuzz targets: mutated copies of real files, and generated ones.

Two families:

- :func:`mutated` edits a seed text a few times (cut, duplicate, splice in a token or
  another line, swap lines, truncate, repeat a line, change the line endings) — what a
  hand edit, a bad merge or a truncated export does to a file.
- :func:`tree_mutated` / :func:`trees` change the *shape* of structured data (a list
  where a mapping was, a number where a string was, a key removed or renamed) and the
  callers serialise it as JSON, YAML or TOML — what a different tool version exports.
"""

from __future__ import annotations

import json
import string
from typing import Any

from hypothesis import strategies as st
from ruamel.yaml import YAML

#: Tokens that mean something to one of the formats we read.
TOKENS = [
    "\n", "\r\n", "\r", "\t", " ", "\\", "\\\n", '"', "'", "`", "#", ":", ": ", "- ", "-",
    "{", "}", "[", "]", ",", "=", "*", "&a ", "*a", "!!str ", "!!binary ",
    "!!python/name:os.system",
    "? ", "|", ">", "---\n", "...\n", "%YAML 1.2\n", "<<: *a\n", "~", "null", "true", "false",
    "yes", "no", "0x1F", "1e400", "-0", "NaN", "Infinity", "2026-13-45", "2026-02-29",
    "12:30:00", "0o777", "9" * 40, "-" + "9" * 30, "1_000", ".inf", "$", "$(", "${X}", "`id`",
    ";", "&&", "||", "|", ">", "<<EOF\n", "EOF\n", "\\x00", "\\u0000", "\\ud800", "\u2028",
    "\ufeff", "\u00e9", "\U0001f600", "\u202e", "<!DOCTYPE x>", "<", ">", "&amp;", "/", "../",
    "/etc/passwd", "**", "@", "@org/team", "[[x]]\n", "[x]\n", "x = 1\n", '"""', "'''",
    "iptables -A OUTPUT -j ACCEPT\n", "iptables -P OUTPUT ACCEPT\n", "ipset add allowed-domains ",
    "permissions: write-all\n", "on: pull_request_target\n", "runs-on: ubuntu-latest\n",
]

WORDS = [
    "id", "path", "kind", "sha256", "controls", "limits", "evidence", "sources", "system",
    "permissions", "allow", "deny", "sandbox", "network", "env", "jobs", "steps", "on",
    "enforcement", "rules", "type", "parameters", "required_approving_review_count",
    "bypass_actors", "enabled", "allowed_actions", "approval_policy", "sandbox_mode",
    "runtimeClassName", "securityContext", "privileged", "capAdd", "mounts", "runArgs",
    "drives", "network-interfaces", "claim", "status", "deployed", "planned", "layer",
]


def _seed_lines(seed: str) -> list[str]:
    return seed.splitlines(keepends=True) or [seed]


@st.composite
def _edit(draw: st.DrawFn, text: str) -> str:
    """One edit of ``text``."""
    n = len(text)
    at = draw(st.integers(0, n))
    op = draw(st.sampled_from(["cut", "dup", "token", "chars", "line", "swap", "truncate",
                               "repeat", "endings", "number"]))
    if op == "cut" and n:
        end = draw(st.integers(at, min(n, at + 200)))
        return text[:at] + text[end:]
    if op == "dup" and n:
        end = draw(st.integers(at, min(n, at + 200)))
        return text[:end] + text[at:end] + text[end:]
    if op == "token":
        return text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
    if op == "chars":
        return text[:at] + draw(st.text(max_size=12)) + text[at:]
    if op == "number":  # past Python's 4,300-digit limit for int(str)
        return text[:at] + "9" * draw(st.integers(1, 6000)) + text[at:]
    lines = _seed_lines(text)
    i = draw(st.integers(0, len(lines) - 1))
    if op == "line":
        lines.insert(i, draw(st.sampled_from(lines)))
    elif op == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "truncate":
        return text[:at]
    elif op == "repeat":
        lines[i:i + 1] = [lines[i]] * draw(st.integers(2, 50))
    elif op == "endings":
        return text.replace("\n", draw(st.sampled_from(["\r\n", "\r", "\n\n", ""])))
    return "".join(lines)


@st.composite
def mutated(draw: st.DrawFn, seed: str, max_edits: int = 4) -> str:
    """``seed`` after one to ``max_edits`` edits."""
    text = seed
    for _ in range(draw(st.integers(1, max_edits))):
        text = draw(_edit(text))
    return text


def scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(), st.booleans(), st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=30), st.sampled_from(WORDS), st.sampled_from(TOKENS),
    )


def keys(vocabulary: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(vocabulary or WORDS), st.text(max_size=10))


def trees(vocabulary: list[str], max_leaves: int = 25) -> st.SearchStrategy[Any]:
    """Nested mappings and lists whose keys are mostly from ``vocabulary``."""
    return st.recursive(
        scalars(),
        lambda children: st.one_of(
            st.lists(children, max_size=5),
            st.dictionaries(keys(vocabulary), children, max_size=6),
        ),
        max_leaves=max_leaves,
    )


def vocabulary(data: Any) -> list[str]:
    """Every mapping key in ``data`` (to generate trees in the seed's own words)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.update(str(k) for k in node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return sorted(found)


def _paths(data: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(data, dict):
        for k, v in data.items():
            out.extend(_paths(v, (*at, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(_paths(v, (*at, i)))
    return out


def _get(data: Any, at: tuple[Any, ...]) -> Any:
    for k in at:
        data = data[k]
    return data


@st.composite
def tree_mutated(draw: st.DrawFn, data: Any, max_edits: int = 3) -> Any:
    """A deep copy of ``data`` with one to ``max_edits`` nodes replaced, removed or
    re-typed (a list where a mapping was, a scalar where a list was, ...)."""
    data = json.loads(json.dumps(data, default=str))
    words = vocabulary(data)
    for _ in range(draw(st.integers(1, max_edits))):
        paths = _paths(data)
        at = draw(st.sampled_from(paths))
        if not at:
            data = draw(trees(words))
            continue
        parent, key = _get(data, at[:-1]), at[-1]
        op = draw(st.sampled_from(["replace", "remove", "wrap", "retype"]))
        if op == "remove":
            del parent[key]
        elif op == "wrap":
            parent[key] = draw(st.sampled_from([[parent[key]], {"x": parent[key]}]))
        elif op == "retype":
            value = parent[key]
            parent[key] = (str(value) if not isinstance(value, str)
                           else draw(st.sampled_from([0, -1, 2**63, True, None, [], {}])))
        else:
            parent[key] = draw(trees(words, max_leaves=6))
    return data


def yaml_text(data: Any) -> str:
    """``data`` as block-style YAML (ruamel, safe dumper)."""
    import io

    out = io.StringIO()
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.dump(data, out)
    return out.getvalue()


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml_value(v)}"
                               for k, v in value.items() if v is not None) + "}"
    return json.dumps(str(value))


def toml_text(data: Any) -> str:
    """``data`` as TOML: top-level scalars first, then one ``[table]`` per mapping value
    (inline tables below that); a non-mapping root becomes ``value = ...``."""
    if not isinstance(data, dict):
        data = {"value": data}
    head, tables = [], []
    for k, v in data.items():
        if v is None:
            continue
        if isinstance(v, dict):
            body = "".join(f"{json.dumps(str(kk))} = {_toml_value(vv)}\n"
                           for kk, vv in v.items() if vv is not None)
            tables.append(f"[{json.dumps(str(k))}]\n{body}")
        else:
            head.append(f"{json.dumps(str(k))} = {_toml_value(v)}\n")
    return "".join(head) + "\n".join(tables)


#: Words of a shell script as a firewall script writes them.
SHELL_WORDS = [
    "iptables", "ip6tables", "ipset", "-A", "-I", "-P", "-F", "-X", "-N", "-j", "-p", "-d",
    "-s", "-m", "--dport", "--sport", "-o", "-i", "OUTPUT", "INPUT", "FORWARD", "ACCEPT",
    "DROP", "REJECT", "tcp", "udp", "53", "443", "lo", "set", "--match-set", "allowed-domains",
    "dst", "add", "create", "hash:net", "-t", "nat", "state", "--state", "ESTABLISHED,RELATED",
    "curl", "https://api.github.com/meta", "|", "jq", "for", "in", "do", "done", "if", "then",
    "fi", "while", "read", "echo", "dig", "+short", "$domain", "${ip}", '"$x"', "'a b'", "\\",
    ";", "&&", "||", "#", "$(", ")", "`", "<<EOF", "EOF", "set -euo pipefail", "exit 1", "'",
    '"', "\\\n", "\n", "sudo", "function", "{", "}", "local", "readarray", "-t", "=",
]


def shell_scripts() -> st.SearchStrategy[str]:
    """Scripts made of firewall words, quotes, continuations and substitutions."""
    line = st.lists(st.one_of(st.sampled_from(SHELL_WORDS), st.text(max_size=8)),
                    max_size=12).map(" ".join)
    return st.lists(line, max_size=20).map(lambda ls: "#!/bin/bash\n" + "\n".join(ls) + "\n")


def codeowners_files() -> st.SearchStrategy[str]:
    pattern = st.one_of(st.sampled_from(["*", "/.github/", ".github/workflows/*", "/src/**",
                                         "docs/", "*.yml", "!x", "\\#x", "/", "**/a"]),
                        st.text(string.printable, max_size=10))
    owner = st.one_of(st.sampled_from(["@org/security", "@alice", "a@b.test", "@", "@org/"]),
                      st.text(max_size=8))
    line = st.one_of(st.tuples(pattern, st.lists(owner, max_size=3)).map(
        lambda t: " ".join([t[0], *t[1]])), st.sampled_from(["# comment", "", "[Section]",
                                                             "^[Optional][2] @a"]))
    return st.lists(line, max_size=15).map(lambda ls: "\n".join(ls) + "\n")


def yamlish_text() -> st.SearchStrategy[str]:
    """Text in YAML's own alphabet: indentation, indicators, anchors, words."""
    piece = st.one_of(st.sampled_from(TOKENS), st.sampled_from(WORDS),
                      st.sampled_from(["\n  ", "\n    ", "\n- ", ": ", "  "]))
    return st.lists(piece, max_size=60).map("".join)


def json_text(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)
