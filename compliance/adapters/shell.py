"""Shell scripts: firewall rules (iptables/ip6tables/ipset) and launch commands.

We do not run the script. We check that its quotes and here-documents are
closed (an unclosed quote is a malformed-shell error at its opening line:col),
join backslash continuations into logical commands and read:
- ``policy``: ``iptables -P CHAIN TARGET``, value ``{"chain", "target", "table"}``;
- ``rule``: ``iptables -A/-I CHAIN … -j TARGET``, value a dict of the matches
  (``proto``, ``dport``, ``sport``, ``dst``, ``src``, ``set`` with ``set_dir``, ``out``,
  ``in``, ``state``, ``owner``; a value negated with ``!`` starts with "!") and, for
  ``-I``, ``insert`` (the 1-based position it takes). ``$NAME`` in an iptables command
  is replaced by the literal the script last assigned to it (``RESOLVER_IP="10.…"``);
  a computed one (``$(…)``, a loop variable) stays as written;
- ``ipset``: ``ipset create/add`` commands;
- ``domain``: each hostname in a ``for … in`` list, ``ALLOWED_DOMAINS=(…)`` array,
  or a ``dig``/``host``/``getent``/``nslookup`` argument, at its own line;
- ``github-meta``: a fetch of ``api.github.com/meta`` (all GitHub ranges);
- ``command``: each other command, value ``(program, args)`` (``sudo``/``exec`` stripped;
  a bare ``NAME=value`` assignment is not a command);
- ``exit``: an ``exit`` outside any if/for/while/case/function; nothing after it is read,
  because nothing after it runs. Here-document bodies are skipped (they are data).
"""

from __future__ import annotations

import bisect
import re
from typing import Any, NamedTuple

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


_ORDINARY = re.compile(r"[^\n\\#<'\"$]+")


def check_quotes(text: str, path: str) -> None:
    """Raise EvidenceError at an unclosed quote or here-document (the shell would refuse).

    One pass over the text (linear time): runs of ordinary characters are skipped
    at once, and a here-document's body is scanned once, from the line after its
    ``<<TAG`` to its terminator."""
    i, n, line, col = 0, len(text), 1, 1
    heredocs: list[tuple[str, int]] = []
    lines = text.split("\n")
    while i < n:
        c = text[i]
        if c == "\n":
            if heredocs:
                tag, start = heredocs.pop(0)
                j, skip = line, 0  # lines[line] is the line after this newline
                while j < len(lines):
                    skip += len(lines[j]) + 1
                    if lines[j].strip() == tag:
                        break
                    j += 1
                else:
                    raise evidence_error(path, start, 1, f"here-document '{tag}' is never closed")
                i += 1 + skip
                line, col = j + 2, 1
                heredocs.clear()
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
            if escapes:
                while j < n and text[j] != quote:
                    j += 2 if text[j] == "\\" else 1
            else:
                j = text.find(quote, j)
                j = n if j < 0 else j
            if j >= n:
                raise evidence_error(path, line, col, f"unclosed {quote} quote")
            nl = text.count("\n", i, j + 1)
            line += nl
            col = (j + 1 - text.rfind("\n", i, j + 1)) if nl else col + (j + 1 - i)
            i = j + 1
            continue
        run = _ORDINARY.match(text, i + 1)
        step = 1 + (run.end() - i - 1 if run else 0)
        i, col = i + step, col + step


class Logical(NamedTuple):
    """One command with its backslash continuations joined."""

    first: int  # its first physical line
    text: str  # the parts joined with a space
    physical: list[int]  # the physical line of each part
    starts: list[int]  # the offset in ``text`` where each part starts

    def locate(self, offset: int) -> tuple[int, int]:
        """The physical line and column of a character offset in ``text``."""
        k = max(bisect.bisect_right(self.starts, offset) - 1, 0)
        return self.physical[k], offset - self.starts[k] + 1


def logical_lines(text: str) -> list[Logical]:
    """Commands with continuations joined: (first line, text, physical lines, part starts)."""
    out: list[Logical] = []
    buf: list[str] = []
    first, parts, starts, size = 0, list[int](), list[int](), 0
    for lineno, raw in enumerate(text.split("\n"), start=1):
        if not buf:
            first, parts, starts, size = lineno, [], [], 0
        parts.append(lineno)
        starts.append(size)
        stripped = raw.rstrip()
        if stripped.endswith("\\"):
            buf.append(stripped[:-1])
            size += len(stripped)  # the part, then the joining space
            continue
        buf.append(raw)
        out.append(Logical(first, " ".join(buf), parts, starts))
        buf = []
    if buf:
        out.append(Logical(first, " ".join(buf), parts, starts))
    return out


_WS = " \t\r\n"
_PUNCT = ";&|()"
# Pieces of a word outside quotes: a run of plain characters.
_PLAIN = re.compile(r"[^ \t\r\n;&|()'\"\\#]+")
_PUNCT_RUN = re.compile(r"[;&|()]+")
_SPACE = re.compile(r"[ \t\r\n]+")
_DQ_PLAIN = re.compile(r'[^"\\]+')


def _end(pattern: re.Pattern[str], text: str, at: int) -> int:
    """Where ``pattern`` (which matches the character at ``at``) stops matching."""
    m = pattern.match(text, at)
    return m.end() if m else at + 1


def shell_words(command: str) -> list[tuple[str, int, int]]:
    """(word, start, end) of each word of one logical line, split as shlex in POSIX mode
    with ``punctuation_chars=";&|()"``, ``whitespace_split`` and ``#`` comments does,
    in linear time (shlex grows each token one character at a time: quadratic).
    Raises ValueError on an unclosed quote or a trailing backslash, like shlex."""
    out: list[tuple[str, int, int]] = []
    i, n = 0, len(command)
    while i < n:
        c = command[i]
        if c in _WS:
            i = _end(_SPACE, command, i)
            continue
        if c == "#":
            break
        start = i
        if c in _PUNCT:
            i = _end(_PUNCT_RUN, command, i)
            out.append((command[start:i], start, i))
            continue
        parts: list[str] = []
        quoted = False
        while i < n:
            c = command[i]
            if c in _WS or c in _PUNCT:
                break
            if c == "#":  # a comment, even inside a word (as shlex reads it)
                break
            if c == "\\":
                if i + 1 >= n:
                    raise ValueError("No escaped character")
                parts.append(command[i + 1])
                i += 2
                continue
            if c == "'":
                end = command.find("'", i + 1)
                if end < 0:
                    raise ValueError("No closing quotation")
                parts.append(command[i + 1:end])
                quoted = True
                i = end + 1
                continue
            if c == '"':
                quoted = True
                i += 1
                while True:
                    if i >= n:
                        raise ValueError("No closing quotation")
                    m = _DQ_PLAIN.match(command, i)
                    if m:
                        parts.append(m.group())
                        i = m.end()
                        continue
                    c = command[i]
                    if c == '"':
                        i += 1
                        break
                    # a backslash inside double quotes
                    if i + 1 >= n:
                        raise ValueError("No escaped character")
                    nxt = command[i + 1]
                    parts.append(nxt if nxt in '"\\' else "\\" + nxt)
                    i += 2
                continue
            end = _end(_PLAIN, command, i)
            parts.append(command[i:end])
            i = end
        word = "".join(parts)
        if word or quoted:
            out.append((word, start, i))
        if i < n and command[i] == "#":
            break
    return out


Word = tuple[str, int, int]  # a word, and where its raw text starts and ends


def _tokens(command: str) -> list[Word]:
    try:
        return shell_words(command)
    except ValueError:
        return []


_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")
_ASSIGN = re.compile(r"^([A-Za-z_]\w*)=(.*)$", re.S)
_DECLARE = frozenset({"export", "readonly", "local", "declare", "typeset"})


def _expand(word: str, env: dict[str, str]) -> str:
    """``$NAME``/``${NAME}`` replaced by a literal the script assigned earlier; a variable
    with no literal value (``$(…)``, a loop variable) is left as written."""
    return _VARIABLE.sub(lambda m: env.get(m.group(1) or m.group(2), m.group(0)), word)


def _assign(words: list[str], env: dict[str, str]) -> bool:
    """Record ``NAME=literal`` (also after export/readonly/local); True for an assignment."""
    if words and words[0] in _DECLARE:
        words = [w for w in words[1:] if not w.startswith("-")]
    if len(words) != 1 or not (m := _ASSIGN.match(words[0])):
        return False
    name, value = m.groups()
    value = _expand(value, env)
    if "$" in value or "`" in value:
        env.pop(name, None)  # computed at run time: unknown to us
    else:
        env[name] = value
    return True


#: Options whose value we keep, by the name the rule facts use.
_MATCHES = {
    "-p": "proto", "--protocol": "proto",
    "--dport": "dport", "--destination-port": "dport", "--dports": "dport",
    "--sport": "sport", "--source-port": "sport", "--sports": "sport",
    "-d": "dst", "--destination": "dst", "--dst": "dst",
    "-s": "src", "--source": "src", "--src": "src",
    "-o": "out", "--out-interface": "out", "-i": "in", "--in-interface": "in",
    "--state": "state", "--ctstate": "state",
    "--uid-owner": "owner", "--gid-owner": "owner",
}


def _iptables(doc: EvidenceDoc, prog: str, args: list[str], line: int) -> None:
    """A ``policy`` or ``rule`` fact. Rules keep their matches (values negated with ``!``
    start with "!"), ``set_dir`` (``dst``/``src`` of ``--match-set``) and, for ``-I``,
    ``insert``: the 1-based position the rule takes in its chain (the top by default)."""
    table, chain, action, target = "filter", None, None, None
    match: dict[str, Any] = {}
    negate = False
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else ""
        step = 2
        if a == "!":
            negate, i = True, i + 1
            continue
        if a in ("-t", "--table"):
            table = nxt
        elif a in ("-A", "--append", "-I", "--insert", "-P", "--policy"):
            action, chain = a, nxt
            if a in ("-P", "--policy") and i + 2 < len(args):
                target = args[i + 2]
            if a in ("-I", "--insert"):
                position = args[i + 2] if i + 2 < len(args) else ""
                match["insert"] = int(position) if position.isdigit() else 1
                step += position.isdigit()
        elif a in ("-j", "--jump"):
            target = nxt
        elif a in _MATCHES:
            match[_MATCHES[a]] = ("!" if negate else "") + nxt
        elif a == "--match-set":
            match["set"] = ("!" if negate else "") + nxt
            match["set_dir"] = args[i + 2] if i + 2 < len(args) else ""
            step += 1
        else:
            step = 1
        negate = False
        i += step
    if action in ("-P", "--policy") and chain and target:
        doc.add("policy", {"chain": chain, "target": target, "table": table}, line, key=prog)
    elif action and chain and target:
        doc.add("rule", {"chain": chain, "target": target, "table": table, **match}, line,
                key=prog)


_ARRAY = re.compile(r"^\s*(?:declare\s+-a\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=\((.*)$")
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", ";;", "(", ")", "$("})
_PREFIXES = frozenset({"sudo", "exec", "command", "then", "do", "else", "!", "time", "nohup"})


def _segments(command: str) -> list[tuple[str, list[Word]]]:
    """The simple commands of one logical line, each with the operator before it
    (``;``, ``&&``, ``||``, ``|``…; "" for the first), split outside quotes."""
    out: list[tuple[str, list[Word]]] = [("", [])]
    for word in _tokens(command):
        if word[0] in _SEPARATORS:
            out.append((word[0], []))
        else:
            out[-1][1].append(word)
    return [(sep, seg) for sep, seg in out if seg]


_OPEN = frozenset({"if", "case", "for", "while", "until", "select", "{"})
_CLOSE = frozenset({"fi", "esac", "done", "}"})


#: The longest command (backslash continuations joined) read. Real firewall and launch
#: scripts stay far below it (an allowlist of 1,000 hosts on one line is ~25 KB); a
#: longer one is refused with a finding instead of being read.
MAX_COMMAND_CHARS = 256 * 1024


def parse(text: str, display_path: str) -> EvidenceDoc:
    """The facts of a shell script, in time linear in its size (see the module docstring)."""
    check_quotes(text, display_path)
    doc = EvidenceDoc(KIND, display_path, {}, {(): (1, 1)}, text=text)
    array: str | None = None  # name of a multi-line array being read
    heredoc: str | None = None  # terminator of a here-document being skipped
    depth = 0  # nesting of if/for/while/case/{ }: an `exit` at depth 0 ends the script
    env: dict[str, str] = {}  # variables assigned a literal so far (``RESOLVER_IP="10.…"``)
    for logical in logical_lines(text):
        first, command = logical.first, logical.text
        if len(command) > MAX_COMMAND_CHARS:
            raise evidence_error(
                display_path, first, 1,
                f"the command starting on line {first} is {len(command):,} characters long; "
                f"commands are read up to {MAX_COMMAND_CHARS:,} characters, so this script "
                "is not read (split the list over several lines or several commands)")
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
                _domains(doc, _tokens(body.replace(")", " ")), logical)
            if ")" in body:
                array = None
            continue
        opened = _ARRAY.match(command)
        if opened and ")" not in opened.group(2).split("#", 1)[0]:
            array = opened.group(1)
        if opened and re.search(r"(DOMAIN|HOST|ALLOW)", opened.group(1), re.I):
            # blanks keep the offsets: the words are located in ``command``
            rest = " " * opened.start(2) + opened.group(2).split("#", 1)[0].replace(")", " ")
            _domains(doc, _tokens(rest), logical)
            continue
        for sep, spans in _segments(command):
            while spans and spans[0][0] in _PREFIXES:
                spans = spans[1:]
            if not spans:
                continue
            words = [w for w, _, _ in spans]
            if _assign(words, env):
                continue
            prog = words[0].rsplit("/", 1)[-1]
            depth += (prog in _OPEN) - (prog in _CLOSE)
            if prog == "exit" and depth <= 0 and sep not in ("&&", "||", "|"):
                doc.add("exit", words[1:2], first, key="exit")
                return doc
            if prog == "for" and "in" in words:
                _domains(doc, spans[words.index("in") + 1:], logical)
                continue
            if prog in IPTABLES:
                _iptables(doc, prog, [_expand(w, env) for w in words[1:]], first)
            elif prog == "ipset":
                doc.add("ipset", words[1:], first, key="ipset")
            elif prog in _RESOLVERS:
                _domains(doc, spans[1:], logical)
            doc.add("command", (prog, words[1:]), first, key=prog)
    return doc


def _domains(doc: EvidenceDoc, words: list[Word], logical: Logical) -> None:
    """A ``domain`` fact for each word that is a hostname, at the line and column where
    it is written (searched only inside the word's own text: linear in the line)."""
    for word, start, end in words:
        host = word.strip("\"'")
        if not _HOST.match(host):
            continue
        found = logical.text.find(host, start, end)
        line, column = logical.locate(found if found >= 0 else start)
        doc.add("domain", host.lower(), line, column)
