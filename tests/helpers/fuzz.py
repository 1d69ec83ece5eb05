"""Fuzz the notation and the whole referee: broken inputs must end in a report
or in a typed error, never in a traceback or a hang.

Every input is read (``parse_transcript``, or ``read_transcript`` from a file
for the byte-level cases) and checked (``Session(...).check()``); some reports
are also asked ``explain`` and ``moves``. An outcome is one of:

- a report (every move legal, or with problems);
- a typed error (a ``RefereeError``, counted by its code); one that comes from
  reading the transcript (notation, sequence) must carry a position inside the
  text, and no error's text may hold a Python traceback;
- a crash: any other exception (the first ``--keep`` inputs of each kind of
  failure are saved, with the traceback, to ``--save DIR``);
- a contract breach: a typed error or a report without a position inside the
  text, or with a traceback in its text (saved the same way);
- a hang: the input took longer than ``--timeout`` seconds (each input runs in
  a worker process, which is killed and replaced; the input is saved).

    python bench/fuzz.py --count 10000 --seed 1 --jobs 2
    python bench/fuzz.py --only 4711 --seed 1      # rerun one input here, show it

A seed gives the same inputs on every run (input N is made from its own
generator state, so it can be rerun alone). The counts can still move by a few
dozen between runs while the referee's outcome depends on PYTHONHASHSEED (see
test_known_outcome_depends_on_the_hash_seed_... in tests/text/test_fuzz.py).

This file is also the one copy of the input generators: tests/text/test_fuzz.py
imports it and drives the same generators with hypothesis. A generator takes a
*draw* (``RandomDraw`` here, a hypothesis adapter in the test) and returns a
:class:`Case`.

The inputs:

- ``grammar``: transcripts built from the notation's shape (header lines,
  ``cycle N``, ``creatures:``, ``gods:``, offerings, action lines) with names,
  ids and numbers drawn from pools of valid and invalid words;
- ``mutation``: the shipped transcripts (transcripts/cyclades/*.txt) with lines
  cut, deleted, duplicated, swapped; tokens swapped or replaced; unicode (CJK,
  combining marks, right-to-left, emoji, NUL and control characters) inserted;
  very long names and lines (10^5 characters); huge numbers; deep brackets;
  binary junk decoded with errors='replace'; CRLF and lone CR line ends;
- ``bytes``: files written as bytes and read with ``read_transcript``: a BOM,
  CRLF, CR, UTF-16, Latin-1, invalid UTF-8, a multi-byte character cut, junk;
- ``special``: a fixed list of named edge cases (empty file, a 10^5-character
  line, ...), the first inputs of every run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parents[2]

from referee.ask.options import CheckOptions  # noqa: E402
from referee.ask.report import Report  # noqa: E402
from referee.ask.session import Session  # noqa: E402
from referee.base.errors import NotationError, RefereeError, SequenceError  # noqa: E402
from referee.game.notation import parse_transcript, read_transcript  # noqa: E402

#: The name under which text inputs are read (positions in errors name it).
SOURCE = "fuzz.txt"
#: The shipped transcripts the mutations start from (not the expected reports).
TRANSCRIPTS = sorted(p for p in (ROOT / "transcripts" / "cyclades").glob("*.txt")
                     if not p.name.endswith(".report.txt"))
LONG = 100_000  # "very long": 10^5 characters
#: The error codes counted (docs: referee/base/errors.py), shown even when none occurred.
ERROR_CODES = ("notation", "sequence", "board", "solver-limit", "data", "illegal", "file", "reading", "option")


# =============================================================== draws ==

class RandomDraw:
    """The choices a generator makes, from a seeded ``random.Random``."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def int(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, seq: Sequence):
        return seq[self.rng.randrange(len(seq))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def bytes(self, n: int) -> bytes:
        return self.rng.randbytes(n)


def sample(d, pool: Sequence, n: int) -> list:
    """``n`` different entries of ``pool`` (fewer if the pool is smaller)."""
    rest = list(pool)
    out = []
    for _ in range(min(n, len(rest))):
        out.append(rest.pop(d.int(0, len(rest) - 1)))
    return out


# =============================================================== pools ==

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Pat", "Quinn", "小明", "Mary-Jo", "O'Neil",
         "Temple", "Pass", "Zeus", "Ann2", "Ψυχή", "Zoë", "ANN"]
BAD_NAMES = ["chance", "cycle", "Gods", "game", "players", "2Bob", "_x", "", "Bob Bob", "a->b",
             'x. #include "/etc/passwd".', "A" * 65, "e\u0301\u0301\u0301", "\u202eevil", "😀",
             "x\x00y", "İstanbul", "Straße", "ﬁn", "Ａｎｎ", "ǅemal", "ש\u05b8לוֹם", "عربي"]
COLOURS = ["red", "blue", "green", "yellow", "black"]
BAD_COLOURS = ["purple", "RED", "", "红", "re d", "blue,"]
GODS = ["Zeus", "Athena", "Poseidon", "Ares"]
GOD_ALIASES = ["宙斯", "雅典娜", "波塞冬", "战神", "阿瑞斯", "ZEUS", "athena"]
BAD_GODS = ["Zues", "Hades", "", "Apollo", "阿波罗", "Zeus Zeus", "-", "Athena/"]
CREATURES = ["Sylph", "Pegasus", "Harpy", "Griffon", "Giant", "Siren", "Cyclops", "Chimera", "Sphinx",
             "The Fates", "Satyr", "Dryad", "Kraken", "Minotaur", "Chiron", "Medusa", "Polyphemus",
             "飞马", "海怪", "独眼巨人"]
TRACK = CREATURES + ["-"]  # '-' is an empty slot of the creature track
BAD_CREATURES = ["Dragon", "The", "Fates The", "Pegasus Pegasus", "", "--", "Pegasu", "Hydra"]
UNITS = ["priest", "priests", "philosopher", "philosophers", "troop", "troops", "fleet", "fleets",
         "祭司", "军队", "舰队", "哲学家"]
BUILDINGS = ["temple", "temples", "port", "ports", "fortress", "fortresses", "university",
             "universities", "港口", "神庙", "学院", "要塞"]
BAD_THINGS = ["castle", "tro op", "", "priestess", "metropolis", "troops troops", "9"]
ISLANDS = [f"IS{i}" for i in range(1, 14)]
SEAS = [f"{r}{c}" for r in "ABCDEFGHIJK" for c in range(1, 8)]
BAD_PLACES = ["IS0", "IS99", "IS" + "9" * 12, "X1", "IS", "4IS", "", "is3", "I S3", "IS-1", "Z9"]
NUMBERS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
BAD_NUMBERS = ["11", "99", "100", "999999999", "1000000000", "2147483648", "9" * 30, "-1", "007",
               "1e3", "٣", "¹", "3.5", "0x10"]
COUNTS = ["", "", "", "1 ", "2 ", "3 ", "4 ", "99 "]
BAD_COUNTS = ["0 ", "100 ", "999999999 ", "9" * 20 + " ", "-2 "]
READINGS = ["en", "zh-000", "zh-001", "zh-003", "EN"]
BAD_READINGS = ["xx", "zh-999", "-", "a" * 1000, "", "en en", "zh_003"]
BOARDS = ["2p", "3p", "4p", "5p"]
BAD_BOARDS = ["6p", "", "nonexistent.toml", "/dev/null", "/etc/hostname", "transcripts/cyclades/game-2p.txt",
              "referee/games/cyclades/boards/3p.toml", "../" * 50, "bench", "2p 3p", "C:\\boards\\x.toml"]
NOTES = ["2 troops IS12 -> IS8", "on IS2", "Bob", "(" * 1000, "?", "a ?? b", "", "->", "小明 的", "[" * 5000]
COMMENTS = ["# a comment", "#", "# ??", "# 中文注释", "#" + "x" * 200, "# \u202e rtl"]
UNICODE = ["小明", "宙斯", "\u0301", "e\u0301\u0301\u0301", "שלום", "عربي", "\u202e", "\u200f", "\u200b",
           "😀", "👨\u200d👩\u200d👧", "\x00", "\x01", "\x1b[31m", "\x7f", "\x0b", "\x0c", "\x1c", "\x85",
           "\u2028", "\u2029", "\ufeff", "\uffff", "\U0010ffff", "\u3000", "：", "，", "；", "？？", "→",
           "Ａｎｎ", "İ", "ß", "ﬁ", "Ⅻ", "٣", "¹", "\t", "\r", "\n", "\r\n", "\ud800", "\udfff"]
BRACKETS = ["(", "[", "{", "<", "（", "【"]
FULLWIDTH = {":": "：", ",": "，", ";": "；", "??": "？？", "->": "→"}


# ======================================================== the inputs ==

@dataclass(frozen=True)
class Case:
    """One input: text (read with parse_transcript) or bytes (a file read with
    read_transcript), and how to run it."""

    kind: str  # 'grammar', 'mutation', 'bytes', 'special'
    label: str  # what was done, for a person
    text: str | None = None
    data: bytes | None = None
    extras: bool = False  # also explain a reported problem and list the moves
    strict: bool = False
    fast_path: bool = True

    def __repr__(self) -> str:
        shown = self.text if self.text is not None else self.data
        return (f"Case({self.kind!r}, {self.label[:200]!r}, {'text' if self.text is not None else 'data'}="
                f"{shown[:300]!r}{'...' if len(shown) > 300 else ''} ({len(shown)} long), extras={self.extras}, "
                f"strict={self.strict}, fast_path={self.fast_path})")

    def content(self) -> bytes:
        """The input as a file's bytes (how it is saved)."""
        if self.data is not None:
            return self.data
        return self.text.encode("utf-8", "surrogatepass")


def _bad(d, noise: float) -> bool:
    """Whether this word is drawn from the invalid pool (``noise`` is the case's rate)."""
    return noise > 0 and d.chance(noise)


def word(d, valid: Sequence, invalid: Sequence, noise: float):
    return d.choice(invalid) if _bad(d, noise) else d.choice(valid)


def _decorate(d, line: str, noise: float) -> str:
    """Notebook noise on one line: '??', comments, full-width punctuation, case, spaces."""
    if d.chance(0.05):
        line += " ??"
    if d.chance(0.05):
        line += "  " + d.choice(COMMENTS)
    if d.chance(0.05):
        for ascii_, wide in FULLWIDTH.items():
            line = line.replace(ascii_, wide)
    if d.chance(0.04):
        line = line.upper() if d.chance(0.5) else line.lower()
    if d.chance(0.04):
        line = d.choice([" ", "\t", "\u3000", "  \t "]) + line
    if _bad(d, noise / 3):
        line = line.replace(" ", "")
    return line


def _place(d, noise: float, kinds: Sequence[str] = ("island", "sea")) -> str:
    kind = d.choice(kinds)
    return word(d, ISLANDS if kind == "island" else SEAS, BAD_PLACES, noise)


def _on(d) -> str:
    return "on " if d.chance(0.7) else ""


def _piece(d, noise: float) -> str:
    """One piece of an action line: '2 troops on IS4', 'buy Harpy: ...', ..."""
    kinds = ["unit", "unit", "building", "building", "buy", "replace", "discard", "metropolis",
             "demolish", "prosperity", "pass"]
    kind = "junk" if _bad(d, noise / 3) else d.choice(kinds)
    if kind == "unit":
        unit = word(d, UNITS, BAD_THINGS, noise)
        count = word(d, COUNTS, BAD_COUNTS, noise)
        needs_place = unit.startswith(("troop", "fleet", "军", "舰")) != _bad(d, noise)
        where = " " + _on(d) + _place(d, noise, ("sea",) if unit.startswith(("fleet", "舰")) else ("island",))
        return f"{count}{unit}{where if needs_place else ''}"
    if kind == "building":
        where = "" if _bad(d, noise) else " " + _on(d) + _place(d, noise, ("island",))
        return f"{word(d, COUNTS, BAD_COUNTS, noise) if d.chance(0.2) else ''}{word(d, BUILDINGS, BAD_THINGS, noise)}{where}"
    if kind == "buy":
        note = f": {d.choice(NOTES)}" if d.chance(0.4) else ""
        return f"buy {word(d, CREATURES, BAD_CREATURES, noise)}{note}"
    if kind == "replace":
        return f"replace {word(d, CREATURES, BAD_CREATURES, noise)} -> {word(d, CREATURES, BAD_CREATURES, noise)}"
    if kind == "discard":
        return f"discard {word(d, BUILDINGS, BAD_THINGS, noise)} {_on(d)}{_place(d, noise, ('island',))}"
    if kind == "metropolis":
        return f"metropolis {_on(d)}{_place(d, noise, ('island',))}"
    if kind == "demolish":
        return f"demolish {word(d, BUILDINGS, BAD_THINGS, noise)}"
    if kind == "prosperity":
        return f"prosperity {_on(d)}{_place(d, noise, ('island',))}"
    if kind == "pass":
        return "pass"
    return d.choice(["", "???", "on IS4", "2", "buy", "replace Harpy", "discard", "->", "; ;", "temple on on IS1"])


_ACTIONS = {
    "Zeus": lambda d: d.choice(["priest", f"temple on {d.choice(ISLANDS)}", "pass",
                                f"buy {d.choice(CREATURES)}", f"replace {d.choice(CREATURES)} -> {d.choice(CREATURES)}"]),
    "Athena": lambda d: d.choice(["philosopher", f"university on {d.choice(ISLANDS)}", "pass"]),
    "Ares": lambda d: d.choice([f"troop on {d.choice(ISLANDS)}", f"fortress on {d.choice(ISLANDS)}",
                                f"metropolis on {d.choice(ISLANDS)}"]),
    "Poseidon": lambda d: d.choice([f"fleet on {d.choice(SEAS)}", f"port on {d.choice(ISLANDS)}"]),
    "Apollo": lambda d: f"prosperity on {d.choice(ISLANDS)}",
}


def _plausible_cycle(d, markers: list[str], up: list[str]) -> list[str]:
    """A cycle's bidding and turns as a table would write them: each marker on
    its own god (or Apollo) in turn order, then each god's turn with a few actions."""
    targets = sample(d, [g for g in up if g in GODS], len(markers))
    targets += ["Apollo"] * (len(markers) - len(targets))
    lines, won = [], []
    for name, god in zip(markers, targets):
        lines.append(f"{name}: Apollo" if god == "Apollo" else f"{name}: {d.int(1, 3)} on {god}")
        won.append((name, god))
    for name, god in sorted(won, key=lambda w: (w[1] == "Apollo", up.index(w[1]) if w[1] in up else 0)):
        pieces = [_ACTIONS[god](d) for _ in range(d.int(1, 3 if god != "Apollo" else 1))]
        lines.append(f"{name}/{god}: " + "; ".join(pieces))
    return lines


def grammar_case(d) -> Case:
    """A transcript built from the notation's shape.

    The case draws a noise rate: at 0 every word is valid (names declared, gods
    and ids that exist), so the transcript reaches the referee and what is
    judged is the game; above 0 that share of words comes from the invalid pools."""
    noise = d.choice([0.0, 0.0, 0.0, 0.01, 0.03, 0.1, 0.3])
    lines: list[str] = []
    if d.chance(0.2):
        lines.append(d.choice(COMMENTS))
    lines.append(word(d, ["game: cyclades", "Game: Cyclades", "game：cyclades", "GAME:cyclades"],
                      ["game: luna", "game: chess", "game:", "gam: cyclades", "cyclades", "game: cyclades cyclades"],
                      noise / 3))
    count = d.choice([0, 1, 6, 7]) if _bad(d, noise / 2) else d.choice([2, 3, 4, 5])
    if _bad(d, noise):
        players = [word(d, NAMES, BAD_NAMES, 0.2) for _ in range(count)]
    else:
        players = sample(d, NAMES[:10] if d.chance(0.7) else NAMES, count)
    if _bad(d, noise):
        colours = [word(d, COLOURS, BAD_COLOURS, 0.3) for _ in range(count)]
    else:
        colours = sample(d, COLOURS, count)
    colours += [d.choice(COLOURS) for _ in range(count - len(colours))]
    header = []
    order = players
    if not _bad(d, noise / 3):
        header.append("players: " + ", ".join(f"{n} {c}" for n, c in zip(players, colours)))
    if d.chance(0.3) and players:
        order = ([word(d, players, BAD_NAMES, 0.3) for _ in range(d.int(0, 6))] if _bad(d, noise)
                 else sample(d, players, len(players)))
        header.append("order: " + ", ".join(order + order[::-1] if len(order) == 2 else order))
    if d.chance(0.3):
        header.append("rules: " + word(d, READINGS, BAD_READINGS, noise))
    if d.chance(0.3):
        header.append("board: " + (word(d, BOARDS, BAD_BOARDS, 0.8) if _bad(d, noise) else f"{count}p"))
    if _bad(d, noise) and len(header) > 1:
        i, j = d.int(0, len(header) - 1), d.int(0, len(header) - 1)
        header[i], header[j] = header[j], header[i]
    if _bad(d, noise / 3) and header:
        header.append(d.choice(header))
    lines += header
    who = players or ["Ann"]
    markers = order + order[::-1] if len(order) == 2 else order  # two markers each with 2 players
    plausible = noise == 0 and d.chance(0.6)  # one offering per marker, each god's turn played
    for cycle in range(1, d.int(0, 4) + 1):
        lines.append("")
        lines.append(f"cycle {word(d, NUMBERS, BAD_NUMBERS, 0.3) if _bad(d, noise / 3) else cycle}")
        gods, cut = GODS[:3], 3
        if not _bad(d, noise):
            size = d.choice([0, 4, 5]) if _bad(d, noise) else d.choice([1, 1, 2, 3, 3])
            lines.append(_decorate(d, "creatures: " + ", ".join(word(d, TRACK, BAD_CREATURES, noise)
                                                                  for _ in range(size)), noise))
        if not _bad(d, noise):
            if _bad(d, noise):
                gods = [word(d, GODS + GOD_ALIASES, BAD_GODS, 0.4) for _ in range(d.int(0, 6))]
            else:
                gods = sample(d, GODS, 4)
                if d.chance(0.1) and not plausible:
                    gods = [d.choice(GOD_ALIASES) if d.chance(0.5) else g for g in gods]
            cut = d.int(0, len(gods)) if _bad(d, noise) else d.int(min(1, len(gods)), len(gods))
            if plausible:
                cut = min(len(gods), max(1, len(players) - 1 if len(players) > 2 else 3))
            text = ", ".join(gods[:cut]) + (" / " + ", ".join(gods[cut:]) if cut < len(gods) else "")
            lines.append(_decorate(d, "gods: " + text, noise))
        if plausible and markers:
            lines += _plausible_cycle(d, markers, gods[:cut])
            continue
        for _ in range(d.int(0, len(who) * 2 + 1)):
            name = word(d, who, BAD_NAMES + NAMES, noise)
            if d.chance(0.2):
                bid = word(d, ["Apollo", "阿波罗", "apollo"], ["5 on Apollo", "Apollo Apollo", "on Apollo"], noise)
            else:
                god = word(d, GODS + GOD_ALIASES, BAD_GODS, noise)
                bid = f"{word(d, NUMBERS, BAD_NUMBERS, noise)} {_on(d)}{god}"
            lines.append(_decorate(d, f"{name}: {bid}", noise))
        for _ in range(d.int(0, len(who) + 1)):
            name = word(d, who, BAD_NAMES + NAMES, noise)
            god = word(d, GODS + ["Apollo"], BAD_GODS, noise)
            pieces = [_piece(d, noise) for _ in range(d.choice([0, 6]) if _bad(d, noise) else d.choice([1, 1, 2, 2, 3]))]
            lines.append(_decorate(d, f"{name}/{god}: " + "; ".join(pieces) + (";" if d.chance(0.05) else ""), noise))
        if _bad(d, noise):
            lines.append(d.choice(header + ["cycle", "creatures:", "gods:", ":", "/", "Ann/", "Ann:"]
                                  if header else ["?"]))
    text = "\n".join(lines) + ("\n" if d.chance(0.9) else "")
    return Case("grammar", f"grammar: {count} players, noise {noise:g}", text=text, extras=d.chance(0.25),
                strict=d.chance(0.1), fast_path=d.chance(0.9))


# ------------------------------------------------------------ mutations --

_TEXTS: dict[Path, str] = {}


def shipped(path: Path) -> str:
    if path not in _TEXTS:
        _TEXTS[path] = path.read_text(encoding="utf-8")
    return _TEXTS[path]


def _tokens(text: str) -> list[re.Match]:
    return list(re.finditer(r"[^\s:;,/#]+", text))


def _junk_text(d, n: int) -> str:
    return d.bytes(n).decode("utf-8", errors="replace")


def _lines_op(name: str) -> Callable:
    def op(d, text: str) -> tuple[str, str]:
        lines = text.split("\n")
        i, j = d.int(0, len(lines) - 1), d.int(0, len(lines) - 1)
        if name == "delete":
            del lines[i]
        elif name == "duplicate":
            lines.insert(j, lines[i])
        elif name == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif name == "move":
            lines.insert(j, lines.pop(i))
        elif name == "cut-lines":  # keep the first i lines
            lines = lines[:i]
        return "\n".join(lines), f"{name} line {i + 1}" + (f"/{j + 1}" if name in ("duplicate", "swap", "move") else "")
    return op


def _cut(d, text):
    at = d.int(0, len(text))
    return text[:at], f"cut at {at}"


def _swap_tokens(d, text):
    toks = _tokens(text)
    if len(toks) < 2:
        return text, "swap tokens (none)"
    a, b = sorted((d.choice(toks), d.choice(toks)), key=lambda m: m.start())
    if a.end() > b.start():
        return text, "swap tokens (same)"
    return (text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():],
            f"swap {a.group()!r} and {b.group()!r}")


def _replace_token(d, text):
    toks = _tokens(text)
    if not toks:
        return text, "replace token (none)"
    t = d.choice(toks)
    pool = d.choice([[m.group() for m in toks], NAMES + BAD_NAMES, GODS + BAD_GODS, CREATURES + BAD_CREATURES,
                     UNITS + BUILDINGS + BAD_THINGS, ISLANDS + SEAS + BAD_PLACES, NUMBERS + BAD_NUMBERS,
                     UNICODE, ["", "??", "#", ":", "/", ";", "->", "cycle", "game: cyclades", "players:"]])
    new = d.choice(pool)
    return text[:t.start()] + new + text[t.end():], f"replace {t.group()!r} by {new!r}"


def _insert(d, text, what: str, label: str):
    at = d.int(0, len(text))
    return text[:at] + what + text[at:], f"{label} at {at}"


def _unicode(d, text):
    bits = "".join(d.choice(UNICODE) for _ in range(d.int(1, 4)))
    return _insert(d, text, bits, f"insert {bits!r}")


def _long_name(d, text):
    toks = [m for m in _tokens(text) if m.group()[0].isalpha()]
    if not toks:
        return text, "long name (none)"
    old = d.choice(toks).group()
    new = d.choice(["A", "小", "é", "x'", "Ab-"]) * (LONG // 3) + d.choice(["", "Z"])
    return re.sub(rf"(?<![\w']){re.escape(old)}(?![\w'])", new[:LONG], text), f"rename {old!r} to {len(new)} chars"


def _long_line(d, text):
    kind = d.choice(["comment", "name", "number", "priests", "note", "word", "spaces"])
    line = {
        "comment": "# " + "x" * LONG,
        "name": "A" * LONG + ": 3 on Zeus",
        "number": "Ann: " + "9" * LONG + " on Zeus",
        "priests": "Ann/Zeus: " + "priest; " * (LONG // 8),
        "note": "Ann/Zeus: buy Harpy: " + "x" * LONG,
        "word": "z" * LONG,
        "spaces": " " * LONG + "cycle 2",
    }[kind]
    lines = text.split("\n")
    at = d.int(0, len(lines))
    lines.insert(at, line)
    return "\n".join(lines), f"long line ({kind}) at line {at + 1}"


def _huge_number(d, text):
    nums = list(re.finditer(r"\d+", text))
    if not nums:
        return text, "huge number (none)"
    m = d.choice(nums)
    new = d.choice(["9" * 10, "9" * 30, "9" * LONG, "2147483648", "999999999", "4294967296", "0" * 50 + "1"])
    return text[:m.start()] + new + text[m.end():], f"number {m.group()} -> {len(new)} digits"


def _nesting(d, text):
    b = d.choice(BRACKETS)
    depth = d.choice([100, 1000, 10_000, LONG])
    close = {"(": ")", "[": "]", "{": "}", "<": ">", "（": "）", "【": "】"}[b]
    return _insert(d, text, b * depth + close * (depth if d.chance(0.5) else 0), f"{depth} x {b!r}")


def _line_ends(d, text):
    kind = d.choice(["crlf", "cr", "mixed", "nel", "ls"])
    if kind == "crlf":
        return text.replace("\n", "\r\n"), "CRLF"
    if kind == "cr":
        return text.replace("\n", "\r"), "lone CR"
    if kind == "mixed":
        return "".join(c if c != "\n" else d.choice(["\n", "\r\n", "\r", "\n\r"]) for c in text), "mixed line ends"
    return text.replace("\n", "\x85" if kind == "nel" else "\u2028"), f"line ends {kind}"


def _junk(d, text):
    junk = _junk_text(d, d.int(1, 400))
    if d.chance(0.2):
        return junk, "all junk"
    return _insert(d, text, junk, f"insert {len(junk)} junk chars")


def _blank(d, text):
    new = d.choice(["", " ", "\n", "\n\n\n", "\ufeff", "# only a comment\n", "\t\f\v\n", "\x00", "game: cyclades"])
    return new, f"replace all by {new!r}"


def _case(d, text):
    return (text.upper(), "upper case") if d.chance(0.5) else (text.swapcase(), "swapped case")


def _bom(d, text):
    return "\ufeff" * d.int(1, 2) + text, "BOM"


def _retoken(d, text):
    """A word replaced by another of its kind (a god by a god, an island by an island,
    a player by a player...): the line still reads, the game changes."""
    header = re.search(r"^players\s*[:：](.*)$", text, re.MULTILINE | re.IGNORECASE)
    players = [p.split()[0] for p in re.split(r"[,，、]", header.group(1).split("#")[0]) if p.split()] if header else []
    kinds = [players, GODS, ISLANDS, SEAS, NUMBERS, CREATURES, UNITS, BUILDINGS, COLOURS]
    index = {w.casefold(): kind for kind in kinds for w in kind}
    toks = [m for m in _tokens(text) if m.group().casefold() in index]
    if not toks:
        return text, "retoken (none)"
    t = d.choice(toks)
    new = d.choice(index[t.group().casefold()])
    return text[:t.start()] + new + text[t.end():], f"retoken {t.group()!r} -> {new!r} at {t.start()}"


MUTATIONS: list[tuple[Callable, int]] = [
    (_retoken, 16), (_cut, 3), (_lines_op("delete"), 6), (_lines_op("duplicate"), 5), (_lines_op("swap"), 4),
    (_lines_op("move"), 3), (_lines_op("cut-lines"), 2), (_swap_tokens, 3), (_replace_token, 6),
    (_unicode, 4), (_long_name, 1), (_long_line, 1), (_huge_number, 2), (_nesting, 1), (_line_ends, 2),
    (_junk, 2), (_blank, 1), (_case, 1), (_bom, 1),
]
_MUTATION_TABLE = [op for op, weight in MUTATIONS for _ in range(weight)]


def mutation_case(d) -> Case:
    """A shipped transcript, broken in 1 to 4 ways."""
    path = d.choice(TRANSCRIPTS)
    text = shipped(path)
    done = []
    for _ in range(d.choice([1, 1, 1, 2, 2, 3, 4])):
        text, what = d.choice(_MUTATION_TABLE)(d, text)
        done.append(what)
    return Case("mutation", f"{path.name}: {'; '.join(done)}", text=text, extras=d.chance(0.15),
                strict=d.chance(0.1), fast_path=d.chance(0.9))


def bytes_case(d) -> Case:
    """A file as bytes: encodings, BOMs, line ends, invalid UTF-8, junk."""
    base = mutation_case(d) if d.chance(0.5) else Case("", "", text=shipped(d.choice(TRANSCRIPTS)))
    text = base.text
    kind = d.choice(["bom", "bom-crlf", "crlf", "cr", "utf16", "utf16-le", "latin1", "raw", "cut-char", "junk",
                     "empty", "double-bom"])
    if kind == "bom":
        data = b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")
    elif kind == "bom-crlf":
        data = b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8", "surrogatepass")
    elif kind == "crlf":
        data = text.replace("\n", "\r\n").encode("utf-8", "surrogatepass")
    elif kind == "cr":
        data = text.replace("\n", "\r").encode("utf-8", "surrogatepass")
    elif kind == "utf16":
        data = text.encode("utf-16", "surrogatepass")
    elif kind == "utf16-le":
        data = text.encode("utf-16-le", "surrogatepass")
    elif kind == "latin1":
        data = text.encode("latin-1", "replace")
    elif kind == "raw":
        data = bytearray(text.encode("utf-8", "surrogatepass"))
        for _ in range(d.int(1, 5)):
            data.insert(d.int(0, len(data)), d.int(0x80, 0xff))
        data = bytes(data)
    elif kind == "cut-char":
        data = ("小明宙斯\n" + text + "飞马").encode("utf-8", "surrogatepass")
        data = data[:d.int(0, len(data))]
    elif kind == "junk":
        data = d.bytes(d.int(0, 2000))
        if d.chance(0.5):
            data = b"game: cyclades\n" + data
    elif kind == "double-bom":
        data = b"\xef\xbb\xbf\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")
    else:
        data = d.choice([b"", b"\xef\xbb\xbf", b"\r\n\r\n", b"\x00" * 100, b"\xff\xfe", b"\r"])
    return Case("bytes", f"{kind} of ({base.label or 'a shipped transcript'})", data=data,
                extras=d.chance(0.1), strict=d.chance(0.1), fast_path=d.chance(0.9))


def _head(players: str = "Ann red, Bob blue") -> str:
    return f"game: cyclades\nplayers: {players}\ncycle 1\ncreatures: Pegasus\ngods: Zeus, Athena, Ares / Poseidon\n"


def special_cases() -> list[Case]:
    """Named edge cases: the first inputs of every run, and one test each."""
    game2 = shipped(ROOT / "transcripts" / "cyclades" / "game-2p.txt")
    s = [
        Case("special", "empty text", text=""),
        Case("special", "empty file", data=b""),
        Case("special", "BOM only", data=b"\xef\xbb\xbf"),
        Case("special", "NUL bytes", data=b"\x00" * 64),
        Case("special", "spaces and blank lines", text=" \n\t\n\n   \n"),
        Case("special", "only the game line", text="game: cyclades"),
        Case("special", "no players", text="game: cyclades\ncycle 1\n"),
        Case("special", "game-2p with CRLF and a BOM", data=b"\xef\xbb\xbf" + game2.replace("\n", "\r\n").encode()),
        Case("special", "game-2p with lone CR", text=game2.replace("\n", "\r")),
        Case("special", "game-2p in UTF-16", data=game2.encode("utf-16")),
        Case("special", "a 10^5-character comment line", text=_head() + "# " + "x" * LONG + "\n"),
        Case("special", "a 10^5-character player name",
             text=_head(f"{'A' * LONG} red, Bob blue").replace("cycle 1", f"cycle 1\n{'A' * LONG}: 2 on Zeus")),
        Case("special", "a 10^5-digit offering", text=_head() + "Ann: " + "9" * LONG + " on Zeus\n"),
        Case("special", "a 10^5-character word", text=_head() + "z" * LONG + "\n"),
        Case("special", "a 10^5-character creature note", text=_head() + "Ann: Apollo\nBob: 1 on Zeus\n"
             "Bob/Zeus: buy Pegasus: " + "(" * LONG + "\n", extras=True),
        Case("special", "12,500 priests on one line", text=_head() + "Ann: 1 on Zeus\nBob: Apollo\n"
             "Ann/Zeus: " + "priest; " * (LONG // 8) + "\n"),
        Case("special", "99 x 99 troops", text=_head() + "Ann: 1 on Ares\nBob: Apollo\n"
             "Ann/Ares: " + "; ".join(["99 troops on IS1"] * 99) + "\n"),
        Case("special", "deep brackets", text=_head() + "(" * LONG + ")" * LONG + "\n"),
        Case("special", "a huge cycle number", text=_head() + "cycle 999999999\n"),
        Case("special", "binary junk", text=bytes(range(256)).decode("utf-8", errors="replace") * 4),
        Case("special", "unicode names", text="game: cyclades\nplayers: 小明 red, שלום blue, Zoë green\n"
             "cycle 1\ncreatures: 飞马\ngods: 宙斯, 雅典娜 / 战神, 波塞冬\n小明: 3 on 宙斯\nשלום: Apollo\nZoë: 1 on 雅典娜\n"
             "小明/宙斯: 祭司; 神庙 on IS1 ??\n", extras=True),
        Case("special", "a right-to-left override in a name", text=_head("\u202eevil red, Bob blue")),
        Case("special", "control characters", text=_head() + "Ann\x00: 2 on Zeus\n\x1b[31mBob: Apollo\x07\n"),
        Case("special", "lone surrogate", text=_head() + "Ann: 2 on Zeus \ud800\n"),
        Case("special", "an injected name", text='game: cyclades\nplayers: x. #include "/etc/passwd". red, Bob blue\n'),
        Case("special", "a board that is not a board", text=_head().replace("cycle 1", "board: /etc/hostname\ncycle 1")),
        Case("special", "a board that is a directory", text=_head().replace("cycle 1", "board: bench\ncycle 1")),
        Case("special", "the board /dev/null", text=_head().replace("cycle 1", "board: /dev/null\ncycle 1")),
        Case("special", "a transcript as its own board",
             text=_head().replace("cycle 1", "board: transcripts/cyclades/game-2p.txt\ncycle 1")),
    ]
    return s


SPECIALS = special_cases()


def generate(d) -> Case:
    """One random input (of any kind but 'special')."""
    roll = d.int(0, 99)
    if roll < 35:
        return grammar_case(d)
    if roll < 80:
        return mutation_case(d)
    return bytes_case(d)


def case_number(seed: int, index: int) -> Case:
    """Input number ``index`` of a run with ``seed``: the special cases first,
    then random ones, each from its own generator state (so one can be rerun alone)."""
    if index < len(SPECIALS):
        return SPECIALS[index]
    return generate(RandomDraw(random.Random(f"fuzz-{seed}-{index}")))


# ============================================================ running ==

@dataclass
class Outcome:
    """What became of one input."""

    category: str  # 'legal', 'problems', 'error', 'crash', 'contract' ('hang' is decided by the caller)
    code: str = ""  # the error's code, or the exception's type for a crash
    detail: str = ""  # the traceback (crash), or what broke the contract
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    kind: str = ""  # the input's kind (grammar, mutation, bytes, special)

    @property
    def ok(self) -> bool:
        return self.category in ("legal", "problems", "error")


def normalised(text: str) -> str:
    """The text as the notation reads it (BOM dropped, CRLF and CR read as LF)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def position_problem(line: int | None, column: int | None, text: str) -> str | None:
    """Why (line, column) is not a place in ``text`` (None if it is)."""
    lines = normalised(text).split("\n")
    if line is None or column is None:
        return "no position"
    if not 1 <= line <= len(lines):
        return f"line {line} is not in the text ({len(lines)} lines)"
    if not 1 <= column <= len(lines[line - 1]) + 1:
        return f"column {column} is not in line {line} ({len(lines[line - 1])} characters)"
    return None


def error_problems(error: RefereeError, text: str, source: str) -> list[str]:
    """How a typed error breaks the contract (an empty list if it does not)."""
    problems = []
    try:
        shown = str(error)
        json.dumps(error.to_json(), ensure_ascii=False)
    except Exception as e:  # noqa: BLE001 - the error cannot even be shown
        return [f"the error cannot be shown: {type(e).__name__}: {e}"]
    if "Traceback" in shown:
        problems.append("the error's text holds a traceback")
    from_transcript = isinstance(error, (NotationError, SequenceError))
    pos = error.position
    if from_transcript and pos is None:
        problems.append(f"{error.code} error without a position")
    if pos is not None and (from_transcript or pos.file == source):
        if pos.file != source:
            problems.append(f"the position names {pos.file!r}, not {source!r}")
        else:
            why = position_problem(pos.line, pos.column, text)
            if why:
                problems.append(f"{error.code} error at {pos.line}:{pos.column}: {why}")
    return problems


def report_problems(report: Report, text: str) -> list[str]:
    """How a report breaks the contract: it cannot be shown, or a verdict has no place in the text."""
    try:
        shown = report.to_text()
        json.dumps(report.to_json(), ensure_ascii=False)
    except Exception as e:  # noqa: BLE001
        return [f"the report cannot be shown: {type(e).__name__}: {e}"]
    problems = ["the report's text holds a traceback"] if "Traceback" in shown else []
    for verdict in report.problems + report.disputes + report.warnings:
        why = position_problem(verdict.line, verdict.column, text)
        if why:
            problems.append(f"verdict on move {verdict.number} at {verdict.line}:{verdict.column}: {why}")
            break
    return problems


def check_case(case: Case, workdir: str | None = None) -> Outcome:
    """Run one input through the referee: read, check, perhaps explain and list moves."""
    start = time.perf_counter()
    outcome = _check(case, workdir)
    outcome.seconds = time.perf_counter() - start
    outcome.kind = case.kind
    return outcome


def _check(case: Case, workdir: str | None) -> Outcome:
    if case.data is not None:
        if workdir is None:
            with tempfile.TemporaryDirectory(prefix="referee-fuzz-") as folder:
                return _check(case, folder)
        path = os.path.join(workdir, SOURCE)
        with open(path, "wb") as f:
            f.write(case.data)
        source, text = path, case.data.decode("utf-8-sig", errors="replace")
    else:
        path, source, text = None, SOURCE, case.text
    notes: list[str] = []
    try:
        transcript = read_transcript(path) if path else parse_transcript(text, SOURCE)
        session = Session(transcript, CheckOptions(strict=case.strict, fast_path=case.fast_path))
        report = session.check()
        if not isinstance(report, Report):
            return Outcome("contract", type(report).__name__, f"check() returned {report!r:.200}")
        broken = report_problems(report, text)
        if broken:
            return Outcome("contract", "report", "; ".join(broken))
        if case.extras:
            notes += _extras(session, report, text)
            broken = [n for n in notes if n.startswith("CONTRACT")]
            if broken:
                return Outcome("contract", "explain", "; ".join(broken), notes=notes)
        return Outcome("problems" if report.problems else "legal", notes=notes)
    except RefereeError as error:
        broken = error_problems(error, text, source)
        if broken:
            return Outcome("contract", error.code, "; ".join(broken) + "\n" + _safe_str(error))
        return Outcome("error", error.code, notes=notes)
    except RecursionError as e:
        return Outcome("crash", signature(e), traceback.format_exc(limit=-8))
    except Exception as e:  # noqa: BLE001 - that is what we look for
        return Outcome("crash", signature(e), traceback.format_exc())


def signature(error: BaseException) -> str:
    """A crash's kind: the exception's type and the innermost frame in the referee package."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "referee" in Path(f.filename).parts]
    where = f" in {Path(frames[-1].filename).name}:{frames[-1].name}" if frames else ""
    return f"{type(error).__name__}{where}"


def _extras(session: Session, report: Report, text: str) -> list[str]:
    """explain() a reported problem (or the first move) and moves(); typed errors are fine."""
    notes = []
    numbers = [v.number for v in report.problems if v.number is not None][:1] or \
        ([1] if session.transcript.plays else [])
    for number in numbers:
        try:
            verdict = session.explain(move=number)
            why = position_problem(verdict.line, verdict.column, text)
            notes.append(f"explained move {number}" if not why else f"CONTRACT explain {number}: {why}")
        except RefereeError as error:
            broken = error_problems(error, text, session.transcript.source)
            notes.append(f"explain {number}: {error.code}" if not broken else f"CONTRACT explain: {broken}")
    try:
        who, groups, count, after, complete = session.moves()
        notes.append(f"moves: {count} for {who}")
    except RefereeError as error:
        broken = error_problems(error, text, session.transcript.source)
        notes.append(f"moves: {error.code}" if not broken else f"CONTRACT moves: {broken}")
    return notes


def _safe_str(error: BaseException) -> str:
    try:
        return str(error)
    except Exception as e:  # noqa: BLE001
        return f"<str() failed: {e!r}>"


# ============================================================ the bench ==

def _worker(conn, seed: int, scratch: str) -> None:
    """A worker process: receives input numbers, sends back outcomes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    workdir = tempfile.mkdtemp(dir=scratch)
    while True:
        index = conn.recv()
        if index is None:
            return
        try:
            case = case_number(seed, index)
            outcome = check_case(case, workdir)
        except Exception:  # noqa: BLE001 - a generator bug: show it, do not count it as the referee's
            outcome = Outcome("generator", "generator", traceback.format_exc())
        conn.send((index, outcome))


class _Slot:
    """One worker process and the input it is working on."""

    def __init__(self, ctx, seed: int, scratch: str):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker, args=(child, seed, scratch), daemon=True)
        self.process.start()
        child.close()
        self.index: int | None = None
        self.started = 0.0

    def give(self, index: int) -> None:
        self.index, self.started = index, time.perf_counter()
        self.conn.send(index)

    def kill(self) -> None:
        self.process.kill()  # only this worker, which this script started
        self.process.join()
        self.conn.close()


def save(folder: Path, kind: str, index: int, case: Case, detail: str) -> Path:
    """Write an input that failed (as the file's bytes) and what became of it."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / f"{kind}-{index}"
    (stem.with_suffix(".txt" if case.data is None else ".bin")).write_bytes(case.content())
    (folder / f"{kind}-{index}.about.txt").write_text(
        f"input {index} ({case.kind}): {case.label}\nstrict={case.strict} fast_path={case.fast_path} "
        f"extras={case.extras}\nread with {'read_transcript(file)' if case.data is not None else 'parse_transcript(text)'}"
        f"\n\n{detail}\n", encoding="utf-8")
    return stem


def failure_kind(outcome: Outcome) -> str:
    """Failures of one kind share this: the category and the crash's signature
    (or the contract breach's words, numbers left out)."""
    if outcome.category == "contract":
        return f"contract: {outcome.code}: {re.sub(r'[0-9]+', 'N', outcome.detail.split(chr(10))[0])[:100]}"
    return f"{outcome.category}: {outcome.code}"


def run(count: int, seed: int, jobs: int, timeout: float, folder: Path, keep: int) -> dict:
    """Run inputs 0..count-1 in ``jobs`` worker processes, each bounded by ``timeout``."""
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    scratch = tempfile.TemporaryDirectory(prefix="referee-fuzz-")
    slots = [_Slot(ctx, seed, scratch.name) for _ in range(max(1, jobs))]
    todo = iter(range(count))
    outcomes: Counter = Counter()
    codes: Counter = Counter()
    by_kind: dict[str, Counter] = {k: Counter() for k in ("grammar", "mutation", "bytes", "special")}
    per_input: list[float] = []
    failures: dict[str, list[int]] = {}
    started = time.perf_counter()
    busy = done = 0

    def feed(slot: _Slot) -> bool:
        index = next(todo, None)
        if index is None:
            slot.index = None
            return False
        slot.give(index)
        return True

    for slot in slots:
        busy += feed(slot)
    while busy:
        ready = wait([s.conn for s in slots if s.index is not None], timeout=0.5)
        now = time.perf_counter()
        for number, slot in enumerate(slots):
            if slot.index is None:
                continue
            if slot.conn in ready:
                try:
                    index, outcome = slot.conn.recv()
                except EOFError:  # the worker died (a segfault, out of memory)
                    index, outcome = slot.index, Outcome("crash", "worker died",
                                                         f"exit code {slot.process.exitcode}")
                    slot.kill()
                    slots[number] = slot = _Slot(ctx, seed, scratch.name)
                per_input.append(outcome.seconds or now - slot.started)
            elif now - slot.started > timeout:  # a hang: replace the worker
                index, outcome = slot.index, Outcome("hang", "hang", f"no answer after {timeout:g} s")
                per_input.append(now - slot.started)
                slot.kill()
                slots[number] = slot = _Slot(ctx, seed, scratch.name)
            else:
                continue
            done += 1
            kind = outcome.category
            outcomes[kind] += 1
            by_kind[outcome.kind or case_number(seed, index).kind][_column(kind)] += 1
            if kind == "error":
                codes[outcome.code] += 1
            if not outcome.ok:
                same = failures.setdefault(failure_kind(outcome), [])
                same.append(index)
                if len(same) <= keep:
                    save(folder, kind, index, case_number(seed, index), outcome.detail)
            if done % 500 == 0:
                print(f"  {done}/{count} inputs, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
            if not feed(slot):
                busy -= 1
    for slot in slots:
        if slot.process.is_alive():
            slot.conn.send(None)
            slot.process.join(timeout=5)
            if slot.process.is_alive():
                slot.kill()
    scratch.cleanup()
    return {"outcomes": outcomes, "codes": codes, "by_kind": by_kind, "per_input": per_input, "failures": failures,
            "seconds": time.perf_counter() - started}


def _column(category: str) -> str:
    return {"legal": "reports", "problems": "reports", "error": "errors"}.get(category, "failures")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="inputs to try (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds before an input counts as a hang")
    parser.add_argument("--save", type=Path, default=None, help="folder for reproducers (default: a temp folder)")
    parser.add_argument("--keep", type=int, default=5, help="reproducers saved per kind of failure (default 5)")
    parser.add_argument("--only", type=int, default=None, help="run input number N here and show what became of it")
    args = parser.parse_args(argv)

    if args.only is not None:
        case = case_number(args.seed, args.only)
        print(f"input {args.only} ({case.kind}): {case.label[:300]}")
        print(f"strict={case.strict} fast_path={case.fast_path} extras={case.extras}")
        shown = case.text if case.text is not None else repr(case.data)
        print(shown[:2000] + ("…" if len(shown) > 2000 else ""))
        outcome = check_case(case)
        print(f"-> {outcome.category} {outcome.code} in {outcome.seconds:.3f} s {outcome.notes}\n{outcome.detail}")
        return 0 if outcome.ok else 1

    # made only when there is something to save
    folder = args.save or Path(tempfile.gettempdir()) / f"referee-fuzz-failures-{args.seed}-{os.getpid()}"
    print(f"python bench/fuzz.py --count {args.count} --seed {args.seed} --jobs {args.jobs} "
          f"--timeout {args.timeout:g}   ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores)")
    result = run(args.count, args.seed, args.jobs, args.timeout, folder, args.keep)
    out, codes, times = result["outcomes"], result["codes"], result["per_input"]
    reports = out["legal"] + out["problems"]
    errors = out["error"]
    print(f"inputs tried      {sum(out.values())}")
    print(f"reports           {reports}  (all legal {out['legal']}, with problems {out['problems']})")
    shown_codes = {c: codes[c] for c in ERROR_CODES} | dict(codes.most_common())
    print(f"typed errors      {errors}  (" + ", ".join(f"{c} {n}" for c, n in shown_codes.items()) + ")")
    print(f"crashes           {out['crash']}")
    print(f"contract breaches {out['contract']}  (an error or verdict without a place in the text, ...)")
    print(f"hangs (> {args.timeout:g} s)    {out['hang']}")
    if out["generator"]:
        print(f"generator bugs    {out['generator']}")
    print("by input kind     " + "; ".join(
        f"{k} {sum(c.values())}: {c['reports']} reports, {c['errors']} errors, {c['failures']} failures"
        for k, c in result["by_kind"].items() if c))
    if times:
        ordered = sorted(times)
        print(f"time              {result['seconds']:.0f} s wall, {args.jobs} jobs; per input: "
              f"mean {statistics.mean(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms, "
              f"p99 {ordered[int(0.99 * (len(ordered) - 1))] * 1000:.0f} ms, max {ordered[-1]:.1f} s")
    if result["failures"]:
        print(f"failures by kind (rerun one with --only N --seed {args.seed}; the first {args.keep} of each "
              f"saved in {folder}):")
        for what, indices in sorted(result["failures"].items(), key=lambda f: -len(f[1])):
            print(f"  {len(indices):5d}  {what}   inputs {', '.join(map(str, indices[:5]))}"
                  f"{', ...' if len(indices) > 5 else ''}")
    return 1 if out["crash"] or out["hang"] or out["contract"] else 0


if __name__ == "__main__":
    sys.exit(main())
