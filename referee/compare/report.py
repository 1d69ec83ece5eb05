"""The translation report of ``referee compare`` (docs/translations.md): what a
rules editor reads.

The search's disagreements (referee/compare/search.py, settled by referee/compare/witnesses.py)
grouped by topic (the ``topic`` of each variant in the game's readings.toml),
each said in plain words: what the two readings say (the translations' own
sentences, with their English renderings, and the English rule), what differs
on the witness's move, and the witness transcript to check. Three forms: text
(the command's output), HTML and Markdown (``--report FILE.html|FILE.md``, with
a picture of each witness's position). Rule and variant ids appear only in
a short "id:" trailer. The output depends on the result alone: no time of day,
a stable order.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from referee.base.errors import RefereeError
from referee.game.catalogue import ENGLISH
from referee.game.parts import part_class
from referee.game.parts.scenarios import Scenarios
from referee.game.readings import Readings, Variant, load_readings
from referee.game.registry import game_class
from referee.judge.values import Verdict


@dataclass
class Said:
    """What one reading says about a variant's rule."""

    reading: str
    label: str  # "seed 001's sentence", "the English rule"...
    text: str  # the sentence, in its own language ("" when the translation is silent)
    english: str  # its English rendering ("" for the English rule)
    rule: str  # the reading of the rule in plain English


@dataclass
class Entry:
    """One disagreement as the report shows it."""

    topic: str
    titles: tuple[str, ...]
    said_a: list[Said]
    said_b: list[Said]
    english: tuple[str, ...]  # the English rule(s), from the catalogue
    what: str  # what differs, in words
    transcript: str
    check: str  # the commands that reproduce it
    ids: str  # the trailer
    picture: str = ""  # SVG of the witness's position
    picture_title: str = ""
    move: str = ""
    extra: dict = field(default_factory=dict)


_ID_ASIDE = re.compile(r"\s*\((?:[^()]*?\b[a-z]+_[a-z0-9_]+\b[^()]*)\)")


def plain(text: str) -> str:
    """A catalogue or readings text without its asides naming rule or variant
    ids ("(rule some_rule_id)"): the ids go to the 'id:' trailer."""
    return _ID_ASIDE.sub("", text)


def _seed(reading: str) -> str:
    return reading.removeprefix("zh-")


def sentences(readings: Readings, catalogue, reading: str, variant: Variant) -> list[Said]:
    """What ``reading`` says on the rules ``variant`` changes: for the reading
    that has the variant, its seed sentences; for another translation, the
    catalogue's sentences of those rules; for 'en', the English rule."""
    if reading == ENGLISH:
        return [Said(reading, "the English rule", "", "", variant.default)]
    if variant.id in readings.active(reading):
        own = [s for s in variant.sources if s.seed == _seed(reading)] or list(variant.sources)
        return [Said(reading, f"seed {s.seed} ({s.file})", " ".join(s.zh.split()), s.en, variant.reading)
                for s in own]
    out = []
    for rule in variant.rules:
        try:
            text = catalogue.rule(rule).sentence(reading)
        except Exception:  # a reading the catalogue has no sentences for
            text = ""
        if text:
            out.append(Said(reading, f"its sentence on {catalogue.rule(rule).title.lower()}", " ".join(text.split()),
                            "", variant.default))
    return out or [Said(reading, "", "", "", f"(says nothing against the English rule) {variant.default}")]


def entries(result, readings: Readings | None = None, pictures: bool = False) -> list[Entry]:
    """The disagreements of a search result as report entries, ordered by topic."""
    from referee.game.catalogue import load_catalogue

    readings = readings or load_readings(result.game)
    catalogue = load_catalogue(result.game)
    a, b = result.reading_a, result.reading_b
    order = {v: i for i, v in enumerate(readings.variants)}
    topics = part_class(game_class(result.game), Scenarios).topics
    out = []
    for d in result.disagreements:
        variants = [readings.variants[v] for v in d.variants if v in readings.variants]
        if not variants:
            continue
        topic = variants[0].topic
        said_a = [s for v in variants for s in sentences(readings, catalogue, a, v)]
        said_b = [s for v in variants for s in sentences(readings, catalogue, b, v)]
        english = tuple(dict.fromkeys(plain(catalogue.rule(r).en) for v in variants for r in v.rules if r in catalogue))
        for said in said_a + said_b:
            said.rule = plain(said.rule)
        entry = Entry(topic, tuple(v.title for v in variants), said_a, said_b, english, d.said or d.replay,
                      d.transcript,
                      f"referee check --rules {a} witness.txt; referee check --rules {b} witness.txt",
                      f"{', '.join(d.variants)} (scenario {d.scenario}"
                      f"{'; rules ' + ', '.join(dict.fromkeys(r for v in variants for r in v.rules))})",
                      move=d.move)
        entry.extra["rank"] = (_topic_rank(topic, topics), min(order.get(v, 99) for v in d.variants))
        if pictures:
            entry.picture, entry.picture_title = picture(result, d, readings)
        out.append(entry)
    out.sort(key=lambda e: e.extra["rank"])
    return out


def _topic_rank(topic: str, topics: tuple[str, ...]) -> tuple:
    return (topics.index(topic), "") if topic in topics else (len(topics), topic)


def grouped(items: list[Entry]) -> list[tuple[str, list[Entry]]]:
    groups: dict[str, list[Entry]] = {}
    for e in items:
        groups.setdefault(e.topic, []).append(e)
    return list(groups.items())


def picture(result, d, readings: Readings) -> tuple[str, str]:
    """The SVG of the witness's position: after its set-up moves, before the
    move found (both readings agree there: the set-up is legal under both and
    the move found is the first where they part)."""
    from referee.ask.session import picture_of
    from referee.compare.play import referee_under
    from referee.game.notation import parse_transcript

    # the reading that read the witness to its end (both, but for a move one cannot read)
    outcome, reading = next(((o, r) for o, r in ((d.outcome_a, (result.reading_a, result.variants_a)),
                                                  (d.outcome_b, (result.reading_b, result.variants_b)))
                             if o is not None and o.before and not o.error), (None, None))
    if outcome is None:
        return "", ""
    transcript = parse_transcript(d.transcript, source="<witness>")
    referee = referee_under(transcript, reading, readings)
    if d.move.startswith("("):  # a step the referee makes when the transcript ends: after the last move
        state, title = outcome.after_last, "the position after the witness's moves"
    else:
        index = len(outcome.before) - 1 - len(d.follow)
        state = outcome.before[index]
        move = d.transcript.splitlines()[-1 - len(d.follow)]
        title = f"the position before \"{move}\" (under both readings)"
    try:
        svg = picture_of(result.game).position(
            referee.rules, state, [(p.name, p.colour) for p in transcript.header.players], title, True)
    except RefereeError:
        return "", title
    if svg.startswith("<?xml"):  # inside HTML the SVG element alone
        svg = svg.split("?>", 1)[1].lstrip()
    return svg, title


# -- text --------------------------------------------------------------------------------


def _head(result, readings: Readings) -> list[str]:
    a, b = (readings.readings.get(n) for n in (result.reading_a, result.reading_b))
    s = result.searched
    count = len(result.disagreements)
    lines = [f"{result.game.capitalize()}: the readings {result.reading_a} and {result.reading_b} compared",
             f"  {result.reading_a}: {a.title if a else ''}",
             f"  {result.reading_b}: {b.title if b else ''}"]
    if result.agree:
        lines.append(f"They agree everywhere the search looked ({len(s.get('scenarios', []))} situations, "
                     f"positions of at most {s.get('max free facts')} extra pieces, "
                     f"{s.get('seconds per scenario')} s of solving each).")
    else:
        lines.append(f"{count} difference{'s' if count != 1 else ''} of the rules, each shown by a small game "
                     f"(the witness) that the two readings judge differently; searched "
                     f"{len(s.get('scenarios', []))} situations, positions of at most {s.get('max free facts')} "
                     f"extra pieces, {s.get('seconds per scenario')} s of solving each.")
    missing = s.get("variants without a scenario") or []
    if missing:
        titles = [readings.variants[v].title if v in readings.variants else v for v in missing]
        lines.append(f"Not searched (no situation to try them in): {'; '.join(titles)}.")
    return lines


def _transcripts_text(result) -> str:
    """The replay of records under both readings, as ``referee compare --transcripts`` prints it."""
    a, b = result.reading_a, result.reading_b
    lines = [f"{result.game}: {a} ({', '.join(result.variants_a) or 'no variants'}) against "
             f"{b} ({', '.join(result.variants_b) or 'no variants'})",
             f"variants in one reading only: {', '.join(result.differing) or 'none'}"]
    lines.append(f"replayed {len(result.transcripts)} transcripts under both readings "
                 f"({sum(t.moves for t in result.transcripts)} moves, {result.seconds:.1f} s)")
    parted = [t for t in result.transcripts if not t.agree]
    for t in parted:
        lines.append(f"{t.path}:")
        if t.error_a != t.error_b:
            lines.append(f"  under {a}: {t.error_a or 'read to the end'}")
            lines.append(f"  under {b}: {t.error_b or 'read to the end'}")
        for p in t.parts:
            verdicts = f"{a}: {Verdict.in_words(p.verdict_a)}; {b}: {Verdict.in_words(p.verdict_b)}"
            if p.what == "verdict":
                lines.append(f"  line {p.line}, move {p.number} '{p.text}': verdicts part ({verdicts})")
            else:
                diff = ", ".join([f"{a} only {x}" for x in p.state_only_a[:3]]
                                 + [f"{b} only {x}" for x in p.state_only_b[:3]])
                lines.append(f"  line {p.line}, move {p.number} '{p.text}': states part ({diff}); "
                             f"later moves are judged in different positions")
    lines.append("the readings agree on every transcript" if not parted else
                 f"{len(parted)} of {len(result.transcripts)} transcripts part")
    return "\n".join(lines) + "\n"


def to_text(result, readings: Readings | None = None) -> str:
    """The answer of ``referee compare`` as it prints it: the records replayed,
    or the search's places grouped by topic."""
    if result.mode == "transcripts":
        return _transcripts_text(result)
    readings = readings or load_readings(result.game)
    lines = _head(result, readings)
    n = 0
    for topic, group in grouped(entries(result, readings)):
        lines += ["", topic.capitalize()]
        for e in group:
            n += 1
            lines.append(f"  {n}. {' / '.join(e.titles)}")
            for side in (e.said_a, e.said_b):
                for s in side:
                    lines.append(f"     {s.reading}: {s.rule}")
                    if s.text:
                        lines.append(f"       {s.label}: {s.text}")
                        if s.english:
                            lines.append(f"       \"{s.english}\"")
            for rule in e.english:
                lines.append(f"     the English rule: {rule}")
            lines.append(f"     what differs: {e.what}")
            lines.append("     the witness (check it with referee check --rules NAME FILE):")
            lines += ["       " + line for line in e.transcript.splitlines()]
            lines.append(f"     id: {e.ids}")
    if result.dropped:
        lines += ["", f"({len(result.dropped)} witness{'es' if len(result.dropped) != 1 else ''} of the search "
                  "left out: a set-up move one reading refuses, or an effect no following move shows)"]
    return "\n".join(lines) + "\n"


# -- Markdown ---------------------------------------------------------------------------


def to_markdown(result, readings: Readings | None = None) -> str:
    readings = readings or load_readings(result.game)
    head = _head(result, readings)
    out = [f"# {head[0]}", "", f"- {head[1].strip()}", f"- {head[2].strip()}", "", *head[3:]]
    n = 0
    for topic, group in grouped(entries(result, readings, pictures=True)):
        out += ["", f"## {topic.capitalize()}"]
        for e in group:
            n += 1
            out += ["", f"### {n}. {' / '.join(e.titles)}", "",
                    f"| {result.reading_a} | {result.reading_b} |", "| --- | --- |",
                    f"| {_md_cell(e.said_a)} | {_md_cell(e.said_b)} |", ""]
            for rule in e.english:
                out += [f"**The English rule:** {rule}", ""]
            out += [f"**What differs:** {e.what}", "", "The witness:", "", "```", *e.transcript.splitlines(),
                    "```", ""]
            if e.picture:
                out += [f"<details><summary>{html.escape(e.picture_title)}</summary>", "", e.picture.strip(), "",
                        "</details>", ""]
            out.append(f"<sub>id: {e.ids}</sub>")
    return "\n".join(out) + "\n"


def _md_cell(said: list[Said]) -> str:
    parts = []
    for s in said:
        part = f"*{s.rule}*"
        if s.text:
            part += f"<br>{s.label}: {s.text}" + (f"<br>“{s.english}”" if s.english else "")
        parts.append(part.replace("|", "\\|"))
    return "<br><br>".join(parts)


# -- HTML -------------------------------------------------------------------------------

_STYLE = """
body { font-family: sans-serif; max-width: 70em; margin: 1em auto; padding: 0 1em; line-height: 1.4; }
table.sides { border-collapse: collapse; width: 100%; }
table.sides td, table.sides th { border: 1px solid #bbb; padding: .4em; vertical-align: top; width: 50%; }
.zh { font-size: 1.05em; font-family: "Noto Sans CJK SC", "Noto Sans CJK TC", "Source Han Sans", "WenQuanYi Micro Hei", sans-serif; }
.rule { font-style: italic; }
pre { background: #f4f4f4; padding: .5em; overflow-x: auto; }
figure { margin: .5em 0; } figure svg { max-width: 100%; height: auto; }
.ids { color: #777; font-size: .8em; }
section.witness { border-top: 1px solid #ddd; margin-top: 1.5em; }
"""


def to_html(result, readings: Readings | None = None) -> str:
    readings = readings or load_readings(result.game)
    e_ = html.escape
    head = _head(result, readings)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{e_(head[0])}</title>", f"<style>{_STYLE}</style>", "</head>", "<body>",
           f"<h1>{e_(head[0])}</h1>", "<ul>", f"<li>{e_(head[1].strip())}</li>", f"<li>{e_(head[2].strip())}</li>",
           "</ul>", *(f"<p>{e_(line)}</p>" for line in head[3:])]
    groups = grouped(entries(result, readings, pictures=True))
    if groups:
        out.append("<nav><ul>")
        out += [f'<li><a href="#topic-{i}">{e_(t.capitalize())}</a> ({len(g)})</li>' for i, (t, g) in enumerate(groups)]
        out.append("</ul></nav>")
    n = 0
    for i, (topic, group) in enumerate(groups):
        out.append(f'<h2 id="topic-{i}">{e_(topic.capitalize())}</h2>')
        for e in group:
            n += 1
            out += [f'<section class="witness" id="witness-{n}">', f"<h3>{n}. {e_(' / '.join(e.titles))}</h3>",
                    '<table class="sides"><tr>', f"<th>{e_(result.reading_a)}</th><th>{e_(result.reading_b)}</th>",
                    "</tr><tr>", f"<td>{_html_cell(e.said_a)}</td><td>{_html_cell(e.said_b)}</td>", "</tr></table>"]
            out += [f"<p><strong>The English rule:</strong> {e_(rule)}</p>" for rule in e.english]
            out += [f'<p class="what"><strong>What differs:</strong> {e_(e.what)}</p>',
                    "<p>The witness (save it and check it with <code>referee check --rules NAME FILE</code>):</p>",
                    f'<pre class="transcript">{e_(e.transcript)}</pre>']
            if e.picture:
                out += ['<figure class="position">', e.picture.strip(),
                        f"<figcaption>{e_(e.picture_title)}</figcaption>", "</figure>"]
            out += [f'<p class="ids">id: {e_(e.ids)}</p>', "</section>"]
    if result.dropped:
        out.append(f"<p>{len(result.dropped)} witness(es) of the search left out: a set-up move one reading "
                   "refuses, or an effect no following move shows.</p>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _html_cell(said: list[Said]) -> str:
    e_ = html.escape
    parts = []
    for s in said:
        part = f'<p class="rule">{e_(s.rule)}</p>'
        if s.text:
            lang = "en" if s.reading == ENGLISH else "zh"
            part += (f'<p>{e_(s.label)}:<br><span class="zh" lang="{lang}">{e_(s.text)}</span>'
                     + (f"<br>“{e_(s.english)}”" if s.english else "") + "</p>")
        parts.append(part)
    return "".join(parts)


def write_report(result, path, readings: Readings | None = None) -> str:
    """The report for ``path``'s suffix (.html, .htm or .md) as a string."""
    suffix = str(path).rsplit(".", 1)[-1].lower() if "." in str(path) else ""
    if suffix in ("html", "htm"):
        return to_html(result, readings)
    if suffix == "md":
        return to_markdown(result, readings)
    raise RefereeError(f"--report {path}: give a file name ending in .html or .md")
