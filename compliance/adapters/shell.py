"""Shell scripts: firewall rules (iptables/ip6tables/ipset) and launch commands.

We do not run the script. We check that its quotes and here-documents are
closed (an unclosed quote is a malformed-shell error at its opening line:col),
join backslash continuations into logical commands and read:
- ``policy``: ``iptables -P CHAIN TARGET``, value ``{"chain", "target", "table"}``;
- ``rule``: ``iptables -A/-I CHAIN … -j TARGET``, value a dict of the matches
  (``proto``, ``dport``, ``sport``, ``dst``, ``src``, ``set``, ``out``, ``in``, ``state``);
- ``ipset``: ``ipset create/add`` commands;
- ``domain``: each hostname in a ``for … in`` list, ``ALLOWED_DOMAINS=(…)`` array,
  or a ``dig``/``host``/``getent``/``nslookup`` argument, at its own line;
- ``github-meta``: a fetch of ``api.github.com/meta`` (all GitHub ranges);
- ``command``: each other command, value ``(program, args)`` (``sudo``/``exec`` stripped);
- ``exit``: an ``exit`` outside any if/for/while/case/function; nothing after it is read,
  because nothing after it runs. Here-document bodies are skipped (they are data).
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from compliance.adapters.base import EvidenceDoc, evidence_error

KIND = "shell"
IPTABLES = frozenset({"iptables", "ip6tables", "iptables-legacy", "iptables-nft"})
_HOST = re.compile(r"^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$", re.I)
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
_RESOLVERS = frozenset({"dig", "host", "getent", "nslookup", "resolve"})


def looks_like(text: str, display_path: str) -> bool:
    first = text.lstrip().split("\n", 1)[0]
    return display_path.endswith((".sh", ".bash")) or (
        first.startswith("#!") and ("sh" in first.split("/")[-1] or "bash" in first)
    )


def check_quotes(text: str, path: str) -> None:
    """Raise EvidenceError at an unclosed quote or here-document (the shell would refuse)."""
    i, n, line, col = 0, len(text), 1, 1
    heredocs: list[tuple[str, int]] = []
    lines = text.split("\n")
    while i < n:
        c = text[i]
        if c == "\n":
            if heredocs:
                tag, start = heredocs.pop(0)
                rest = lines[line:]
                for offset, body in enumerate(rest):
                    if body.strip() == tag:
                        skip = sum(len(x) + 1 for x in rest[: offset + 1])
                        i += 1 + skip
                        line += 1 + offset + 1
                        col = 1
                        heredocs.clear()
                        break
                else:
                    raise evidence_error(path, start, 1, f"here-document '{tag}' is never closed")
                continue
            i, line, col = i + 1, line + 1, 1
            continue
        if c == "\\":
            i, col = i + 2, col + 2
            continue
        if c == "#" and (i == 0 or text[i - 1] in " \t\n;"):
            end = text.find("\n", i)
            i = n if end < 0 else end
            col = 1
            continue
        if c == "<" and text.startswith("<<", i) and not text.startswith("<<<", i):
            m = _HEREDOC.match(text, i)
            if m:
                heredocs.append((m.group(2), line))
        if c in "'\"" or (c == "$" and text.startswith("$'", i)):
            quote = "'" if c != '"' else '"'
            j = i + (2 if c == "$" else 1)
            escapes = quote == '"' or c == "$"
            while j < n and text[j] != quote:
                j += 2 if escapes and text[j] == "\\" else 1
            if j >= n:
                raise evidence_error(path, line, col, f"unclosed {quote} quote")
            chunk = text[i: j + 1]
            nl = chunk.count("\n")
            line += nl
            col = (len(chunk) - chunk.rfind("\n")) if nl else col + len(chunk)
            i = j + 1
            continue
        i, col = i + 1, col + 1


def logical_lines(text: str) -> list[tuple[int, str, list[int]]]:
    """Commands with continuations joined: (first line, text, physical line of each part)."""
    out: list[tuple[int, str, list[int]]] = []
    buf: list[str] = []
    first, parts = 0, list[int]()
    for lineno, raw in enumerate(text.split("\n"), start=1):
        if not buf:
            first, parts = lineno, []
        parts.append(lineno)
        if raw.rstrip().endswith("\\"):
            buf.append(raw.rstrip()[:-1])
            continue
        buf.append(raw)
        out.append((first, " ".join(buf), parts))
        buf = []
    if buf:
        out.append((first, " ".join(buf), parts))
    return out


def _tokens(command: str) -> list[str]:
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        return list(lexer)
    except ValueError:
        return []


def _iptables(doc: EvidenceDoc, prog: str, args: list[str], line: int) -> None:
    table, chain, action, target = "filter", None, None, None
    match: dict[str, Any] = {}
    it = iter(range(len(args)))
    for i in it:
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else ""
        if a in ("-t", "--table"):
            table = nxt
        elif a in ("-A", "--append", "-I", "--insert", "-P", "--policy"):
            action, chain = a, nxt
            if a in ("-P", "--policy") and i + 2 < len(args):
                target = args[i + 2]
        elif a in ("-j", "--jump"):
            target = nxt
        elif a in ("-p", "--protocol"):
            match["proto"] = nxt
        elif a in ("--dport", "--destination-port", "--dports"):
            match["dport"] = nxt
        elif a in ("--sport", "--source-port"):
            match["sport"] = nxt
        elif a in ("-d", "--destination", "--dst"):
            match["dst"] = nxt
        elif a in ("-s", "--source", "--src"):
            match["src"] = nxt
        elif a == "--match-set":
            match["set"] = nxt
        elif a in ("-o", "--out-interface"):
            match["out"] = nxt
        elif a in ("-i", "--in-interface"):
            match["in"] = nxt
        elif a in ("--state", "--ctstate"):
            match["state"] = nxt
        else:
            continue
        next(it, None)
    if action in ("-P", "--policy") and chain and target:
        doc.add("policy", {"chain": chain, "target": target, "table": table}, line, key=prog)
    elif action and chain and target:
        doc.add("rule", {"chain": chain, "target": target, "table": table, **match}, line,
                key=prog)


_ARRAY = re.compile(r"^\s*(?:declare\s+-a\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=\((.*)$")
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", ";;", "(", ")", "$("})
_PREFIXES = frozenset({"sudo", "exec", "command", "then", "do", "else", "!", "time", "nohup"})


def _segments(command: str) -> list[tuple[str, list[str]]]:
    """The simple commands of one logical line, each with the operator before it
    (``;``, ``&&``, ``||``, ``|``…; "" for the first), split outside quotes."""
    out: list[tuple[str, list[str]]] = [("", [])]
    for word in _tokens(command):
        if word in _SEPARATORS:
            out.append((word, []))
        else:
            out[-1][1].append(word)
    return [(sep, seg) for sep, seg in out if seg]


_OPEN = frozenset({"if", "case", "for", "while", "until", "select", "{"})
_CLOSE = frozenset({"fi", "esac", "done", "}"})


def parse(text: str, display_path: str) -> EvidenceDoc:
    check_quotes(text, display_path)
    doc = EvidenceDoc(KIND, display_path, {}, {(): (1, 1)}, text=text)
    array: str | None = None  # name of a multi-line array being read
    heredoc: str | None = None  # terminator of a here-document being skipped
    depth = 0  # nesting of if/for/while/case/{ }: an `exit` at depth 0 ends the script
    for first, command, physical in logical_lines(text):
        if heredoc is not None:
            if command.strip() == heredoc:
                heredoc = None
            continue
        pending = _HEREDOC.search(command.split("#", 1)[0])
        if pending and not command.lstrip().startswith("#"):
            heredoc = pending.group(2)
        if "api.github.com/meta" in command:
            doc.add("github-meta", "api.github.com/meta", first)
        if array is not None:
            body = command.split("#", 1)[0]
            if re.search(r"(DOMAIN|HOST|ALLOW)", array, re.I):
                _domains(doc, _tokens(body.replace(")", " ")), physical, text)
            if ")" in body:
                array = None
            continue
        opened = _ARRAY.match(command)
        if opened and ")" not in opened.group(2).split("#", 1)[0]:
            array = opened.group(1)
        if opened and re.search(r"(DOMAIN|HOST|ALLOW)", opened.group(1), re.I):
            rest = opened.group(2).split("#", 1)[0].replace(")", " ")
            _domains(doc, _tokens(rest), physical, text)
            continue
        for sep, words in _segments(command):
            while words and words[0] in _PREFIXES:
                words = words[1:]
            if not words:
                continue
            prog = words[0].rsplit("/", 1)[-1]
            depth += (prog in _OPEN) - (prog in _CLOSE)
            if prog == "exit" and depth <= 0 and sep not in ("&&", "||", "|"):
                doc.add("exit", words[1:2], first, key="exit")
                return doc
            if prog == "for" and "in" in words:
                _domains(doc, words[words.index("in") + 1:], physical, text)
                continue
            if prog in IPTABLES:
                _iptables(doc, prog, words[1:], first)
            elif prog == "ipset":
                doc.add("ipset", words[1:], first, key="ipset")
            elif prog in _RESOLVERS:
                _domains(doc, words[1:], physical, text)
            doc.add("command", (prog, words[1:]), first, key=prog)
    return doc


def _domains(doc: EvidenceDoc, words: list[str], physical: list[int], text: str) -> None:
    lines = text.split("\n")
    for word in words:
        host = word.strip("\"'")
        if not _HOST.match(host):
            continue
        where = next((ln for ln in physical if host in lines[ln - 1]), physical[0])
        column = lines[where - 1].find(host) + 1
        doc.add("domain", host.lower(), where, max(column, 1))
