"""The command line: ``referee check``, ``referee explain``, ``referee moves``,
``referee board``, ``referee rules``, ``referee compare``.

Exit codes: 0 every move legal, 1 some move illegal, 2 the transcript (or an
option) cannot be used (the error says where and why), 130 interrupted.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path

import click

from referee.ask.options import CheckOptions
from referee.ask.report import dumps, explanation_text, lines_json
from referee.base.errors import FileError, RefereeError
from referee.base.words import counted
from referee.game.registry import default_game

from . import __version__

_common = [
    click.option("--rules", "rules", metavar="NAME", help="The rules reading (default: the transcript's 'rules:' line, else en)."),
    click.option("--board", "board", metavar="FILE", help="A board file instead of the transcript's or the built-in one."),
    click.option("--no-fast-path", is_flag=True, help="Decide every step with the solver, bookkeeping included."),
    click.option("--time-limit", type=click.FloatRange(min=0.1), default=None, metavar="SECONDS",
                 help="Bound on one solver call, in seconds of CPU time (default 10 s): the same record gets the same verdict on a busy machine."),
    click.option("--as", "viewpoint", metavar="PLAYER", default=None,
                 help="Answer as PLAYER sees the game: another player's hidden figures (such as gold behind a screen) are never stated."),
    click.option("--json", "as_json", is_flag=True, help="Print JSON (schema: docs/report.md)."),
    click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
                 help="Write the answer to a new file instead of standard output."),
    click.option("--no-cache", is_flag=True, expose_value=False, callback=lambda ctx, param, value: _no_cache(value),
                 help="Neither read nor write the judgement cache (also: REFEREE_CACHE=off)."),
]


def _epilog(examples: list[str], exit_codes: str) -> str:
    """A command's --help ends with examples (kept as they are: click's \\b) and its exit codes."""
    return "\b\nExamples:\n" + "\n".join(f"  {example}" for example in examples) + f"\n\nExit codes: {exit_codes}"


_ERROR_EXIT = "2 the input or an option cannot be used (the error says where and why), 130 interrupted."


def _no_cache(value: bool) -> None:
    """--no-cache: the judgement cache on disk (referee/store/judgements.py) is off for this
    process and the processes it starts."""
    if value:
        os.environ["REFEREE_CACHE"] = "off"


def common_options(func):
    """The options every question takes; the command gets those of the check as one
    value, ``options`` (referee/ask/options.py)."""

    @functools.wraps(func)
    def command(*args, rules, board, no_fast_path, time_limit, viewpoint, **kwargs):
        options = CheckOptions(rules=rules, data_file=board, fast_path=not no_fast_path, time_limit=time_limit,
                               viewpoint=viewpoint)
        return func(*args, options=options, **kwargs)

    for option in reversed(_common):
        command = option(command)
    return command


def _session(transcript: str, options: CheckOptions):
    from referee.ask.session import (
        Session,  # here, not at the top: `check` of an archive never loads the solver in this process
    )

    return Session(transcript, options)


def _emit(text: str, output: Path | None, transcript: str | None) -> None:
    """Print, or write to a new file: never over the transcript, never half-written."""
    if output is None:
        click.echo(text, nl=False)
        return
    target = output.resolve()
    if target.is_dir():
        raise FileError(f"{output} is a folder; give the name of a new file")
    if not target.parent.is_dir():
        raise FileError(f"cannot write {output}: there is no folder {output.parent}")
    if transcript is not None and target == Path(transcript).resolve():
        raise FileError(f"refusing to write the answer over the transcript {transcript}")
    if target.exists():
        raise FileError(f"{output} exists already; the referee writes only new files")
    import tempfile  # here: most commands print, and the import costs a fresh process 6 ms

    handle, temp = tempfile.mkstemp(prefix=".referee-", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.link(temp, target)  # fails if the file appeared meanwhile: nothing is overwritten
    finally:
        os.unlink(temp)


def _fail(error: RefereeError, as_json: bool) -> None:
    if as_json:
        click.echo(dumps({"error": error.to_json()}), nl=False)
    click.echo(str(error), err=True)
    sys.exit(2)


class _Commands(click.Group):
    """The command group; Ctrl-C ends any command with exit code 130 and nothing
    written (answers go to a file only once they are complete)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("interrupted: nothing was written", err=True)
            ctx.exit(130)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]}, epilog=_epilog(
    ["referee check GAME.txt",
     "referee explain GAME.txt --move 7",
     "referee COMMAND --help"],
    "0 all legal (or done), 1 something illegal (or readings that disagree), " + _ERROR_EXIT))
@click.version_option(__version__, prog_name="referee")
def main() -> None:
    """A rules referee for board games: checks recorded games move by move."""


@main.command(epilog=_epilog(
    ["referee check GAME.txt",
     "referee check GAME.txt --strict --json",
     "referee check games/ --jobs 2 -o reports.jsonl"],
    "0 every move legal, 1 some move illegal, " + _ERROR_EXIT + " An archive's is its worst record's."))
@click.argument("paths", nargs=-1, required=True, type=click.Path(), metavar="PATH...")
@click.option("--strict", is_flag=True, help="Stop at the first illegal move.")
@common_options
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Archives: check N records at once, in worker processes (default: every core).")
@click.option("--cluster", metavar="tcp://HOST:8786", default=None,
              help="Archives: check the records on a running Dask scheduler's workers "
                   "(the 'cluster' extra on every machine: docs/archives.md).")
@click.option("--record-time-limit", type=click.FloatRange(min=0.1), default=None, metavar="SECONDS",
              help="Archives: bound on one record, whole; past it the record is reported not judged "
                   "(default 120 s).")  # archive.RECORD_TIME_LIMIT (not imported here: a single check stays lean)
def check(paths, strict, options, as_json, output, jobs, cluster, record_time_limit):
    """Check every move of a transcript; report each illegal move and explain the disputed ones (??).

    Given folders or several files (an archive), check every record (each *.txt transcript in a folder,
    recursively; docs/archives.md): one line per record, then a summary; the exit code is the worst record's.
    With -o REPORT the reports go to an archive report (JSON Lines) that the same command resumes."""
    if jobs is not None and cluster is not None:
        raise click.UsageError("give --jobs N or --cluster ADDRESS, not both: the cluster's workers decide")
    options = options.but(strict=strict)
    if len(paths) > 1 or os.path.isdir(paths[0]) or cluster is not None:
        from referee.run.archive import run_archive
        from referee.run.worker import RECORD_TIME_LIMIT

        try:
            code = run_archive(list(paths), options, jobs=jobs, cluster=cluster,
                               bound=record_time_limit or RECORD_TIME_LIMIT, as_json=as_json, output=output)
        except RefereeError as error:
            _fail(error, as_json)
        sys.exit(code)
    transcript = paths[0]
    try:
        # --json: a record that cannot be read still gets the report's shape, with
        # the error and the moves judged before it (one code path for scripts)
        try:
            report = _session(transcript, options).check(
                alternatives=True, tolerant=as_json)  # explain of an illegal or the last move: at once
        except RefereeError as error:
            if not as_json:
                raise
            from referee.ask.session import unreadable_report  # the text cannot be read: no run
            report = unreadable_report(error, path=transcript, options=options)
        if report.error is not None:
            click.echo(str(report.error), err=True)
        _emit(dumps(report.to_json()) if as_json else report.to_text(), output, transcript)
    except RefereeError as error:
        _fail(error, as_json)
    sys.exit(report.exit_code)


_PLACE = re.compile(r"^(?P<file>.+?):(?P<line>[0-9]+)(?::(?P<column>[0-9]+))?$")


def _place(transcript: str) -> tuple[str, int | None, int | None]:
    """``GAME.txt:14`` or ``GAME.txt:14:6`` (a place as the reports and compilers
    print it): the file, the line and the column; a plain file name as it is."""
    match = _PLACE.match(transcript)
    if match is None or Path(transcript).exists() or not Path(match["file"]).exists():
        return transcript, None, None
    column = int(match["column"]) if match["column"] else None
    return match["file"], int(match["line"]), column


@main.command(epilog=_epilog(
    ["referee explain GAME.txt --move 7 --rules READING",
     "referee explain GAME.txt:15"],
    "0 the move is legal, 1 it is illegal, " + _ERROR_EXIT))
@click.argument("transcript", type=click.Path(dir_okay=False), metavar="TRANSCRIPT[:LINE[:COLUMN]]")
@click.option("--move", "move", type=click.IntRange(min=1), help="The move's number (1 = the first move).")
@click.option("--line", "line", type=click.IntRange(min=1),
              help="The moves on this line that break a rule or are disputed (else its first move).")
@click.option("--all", "everything", is_flag=True, help="List every alternative, not a bounded summary.")
@common_options
def explain(transcript, move, line, everything, options, as_json, output):
    """Is one move of TRANSCRIPT legal, which rules it breaks, and what could be done instead.

    The move is --move N, --line L, or the place as a report prints it: GAME.txt:14 (the moves of
    line 14 that break a rule or are disputed, each explained; a line without any, its first move)
    or GAME.txt:14:6 (the move written at column 6 of line 14). --json prints one verdict, or a list
    of them when a line has several to explain."""
    transcript, at_line, column = _place(transcript)
    if at_line is not None:
        if move is not None or line is not None:
            raise click.UsageError(f"{transcript}:{at_line} names the move already: leave out --move and --line")
        line = at_line
    if (move is None) == (line is None):
        raise click.UsageError("give exactly one of --move N, --line L or TRANSCRIPT:LINE")
    try:
        session = _session(transcript, options)
        if line is not None and column is None:
            verdicts = session.explain_line(line, everything=everything)
        else:
            verdicts = [session.explain(move=move, line=line, everything=everything, column=column)]
        if as_json:
            from referee.ask.report import verdict_json
            shown = [verdict_json(verdict) for verdict in verdicts]
            text = dumps(shown[0] if len(shown) == 1 else shown)
        else:
            text = "\n".join(explanation_text(verdict) + "\n" for verdict in verdicts)
        _emit(text, output, transcript)
    except RefereeError as error:
        _fail(error, as_json)
    sys.exit(max(verdict.verdict.exit_code for verdict in verdicts))


@main.command(epilog=_epilog(
    ["referee moves GAME.txt --after 6",
     "referee moves GAME.txt --all --json"],
    "0 the moves are listed, " + _ERROR_EXIT))
@click.argument("transcript", type=click.Path(dir_okay=False))
@click.option("--after", type=click.IntRange(min=0), default=None, help="After move N (default: the last move).")
@click.option("--all", "everything", is_flag=True, help="List every move, not a bounded summary.")
@common_options
def moves(transcript, after, everything, options, as_json, output):
    """What the player in control may do next in TRANSCRIPT."""
    try:
        session = _session(transcript, options)
        who, groups, total, number, complete, lines = session.moves_with_lines(after=after, everything=everything)
        if as_json:
            text = dumps({"after_move": number, "control": who, "moves": groups, "total": total,
                          "complete": complete, **({} if lines is None else {"alternative_lines": lines_json(*lines)})})
        else:
            count = "" if total is None else f" ({total} legal move{'s' if total != 1 else ''})"
            plays = session.transcript.plays
            line = f" (line {plays[number - 1].span.line})" if number else ""
            head = f"after move {number}{line}: {who} to decide{count}"
            more = [] if complete else ["  (a summary; --all lists every move)"]
            text = "\n".join([head] + [f"  - {g}" for g in groups] + more) + "\n"
        _emit(text, output, transcript)
    except RefereeError as error:
        _fail(error, as_json)


@main.command("rules", epilog=_epilog(["referee rules", "referee rules GAME --json"],
                                      "0 the readings are listed, " + _ERROR_EXIT))
@click.argument("game", required=False, default=default_game)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rules_command(game, as_json):
    """List GAME's rules readings (default: the first game known): each translation's variants and where they come from."""
    from referee.game.readings import load_readings, readings_json, readings_text
    from referee.game.registry import check_game

    try:
        readings = load_readings(check_game(game))
        click.echo(dumps(readings_json(readings)) if as_json else readings_text(readings), nl=False)
    except RefereeError as error:
        _fail(error, as_json)


@main.command("compare", epilog=_epilog(
    ["referee compare GAME --rules en --rules READING",
     "referee compare GAME --rules en --rules READING --report en-READING.html",
     "referee compare GAME --rules en --rules READING --transcripts"],
    "0 the readings agree (within the bounds searched), 1 they disagree somewhere, " + _ERROR_EXIT))
@click.argument("game")
@click.option("--rules", "rules", multiple=True, metavar="NAME", required=True,
              help="A reading; give it twice (--rules en --rules zh-003).")
@click.option("--transcripts", "replay", is_flag=True,
              help="Replay the shipped transcripts under both readings instead of searching.")
@click.option("--only", "only", multiple=True, type=click.Path(dir_okay=False), metavar="TRANSCRIPT",
              help="With --transcripts: only these transcripts (repeatable).")
@click.option("--max-size", type=click.IntRange(min=1, max=12), default=None, metavar="N",
              help="Search: at most N free facts in a position (default 8).")
@click.option("--seconds", type=click.FloatRange(min=0.5), default=None, metavar="S",
              help="Search: time bound per scenario (default 20 s).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--report", "report", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE", help="Search: also write the translation report to a new FILE.html or FILE.md.")
def compare_command(game, rules, replay, only, max_size, seconds, as_json, report):
    """Where do two rules readings of GAME disagree? A solver search for small positions, or --transcripts."""
    from referee.compare.report import to_text as compare_text
    from referee.compare.transcripts import compare_transcripts

    try:
        if len(rules) != 2:
            raise RefereeError(f"give two readings: --rules A --rules B (got {len(rules)})")
        if report is not None:
            _check_new_file(report, (".html", ".htm", ".md"))
            if replay:
                raise RefereeError("--report goes with the search, not --transcripts")
        if replay:
            result = compare_transcripts(game.casefold(), rules[0], rules[1],
                                         [Path(p) for p in only] if only else None)
        else:
            if only:
                raise RefereeError("--only goes with --transcripts")
            from referee.compare.search import compare_search
            options = {k: v for k, v in (("max_size", max_size), ("seconds", seconds)) if v is not None}
            if sys.stderr.isatty():
                options["progress"] = _progress
            try:
                result = compare_search(game.casefold(), rules[0], rules[1], **options)
            finally:
                if "progress" in options:
                    click.echo("\r\033[K", nl=False, err=True)
        if report is not None:
            from referee.compare.report import write_report
            _emit(write_report(result, report), report, None)
            click.echo(f"the report is in {report}", err=True)
        click.echo(dumps(result.to_json()) if as_json else compare_text(result), nl=False)
    except RefereeError as error:
        _fail(error, as_json)
    sys.exit(0 if result.agree else 1)


def _check_new_file(path: Path, suffixes: tuple[str, ...]) -> None:
    """Before a long computation: the answer's file must be new, in a folder that exists, of a known kind."""
    if path.suffix.lower() not in suffixes:
        raise RefereeError(f"{path}: give a file name ending in {' or '.join(suffixes)}")
    if path.exists():
        raise FileError(f"{path} exists already; the referee writes only new files")
    if not path.resolve().parent.is_dir():
        raise FileError(f"cannot write {path}: there is no folder {path.parent}")


def _progress(done: int, total: int, found: int, seconds_left: float) -> None:
    """The search's progress line on a terminal (standard error)."""
    minutes, secs = divmod(int(seconds_left), 60)
    click.echo(f"\r\033[Ksearching: {done} of {total} searches done (each tries the positions of one situation), "
               f"{found} difference{'s' if found != 1 else ''} found, at most {minutes}m{secs:02d}s left",
               nl=False, err=True)


def board_picture(game: str, players: int | None = None, board_file: str | None = None,
                  transcript: str | None = None, after: int | None = None, svg: bool = False) -> str:
    """The text or SVG ``referee board`` prints: a board, or the position after a
    move of a transcript. A RefereeError for anything the user asked that cannot be done."""
    from referee.ask.session import Session, picture_of
    from referee.game.notation import read_transcript

    picture = picture_of(game)
    if transcript is None:
        if after is not None:
            raise RefereeError("--after N needs --transcript T: the position after move N of a transcript")
        return picture.blank(players, board_file, svg)
    record = read_transcript(transcript)
    if record.header.game != game.casefold():
        raise RefereeError(f"{transcript} is a game of {record.header.game}, not {game}")
    declared = record.header.players
    if players is not None and players != len(declared):
        raise RefereeError(f"{transcript} is a game for {counted(len(declared), 'player')}, not {players} (--players)")
    total = len(record.plays)
    if after is not None and not 0 <= after <= total:
        raise RefereeError(f"there is no move {after}: the transcript has {total} moves (--after 0 to {total})")
    return Session(record, CheckOptions(data_file=board_file)).picture(after, svg=svg)


@main.command("board", epilog=_epilog(
    ["referee board GAME --players 3",
     "referee board GAME --transcript GAME.txt --after 40 --svg after-40.svg"],
    "0 the board is drawn, " + _ERROR_EXIT))
@click.argument("game")
@click.option("--players", type=click.IntRange(min=1), default=None, metavar="N",
              help="Draw the shipped board for N players.")
@click.option("--board", "board_file", metavar="FILE", help="Draw a board file (docs/boards.md) instead.")
@click.option("--transcript", type=click.Path(dir_okay=False), default=None, metavar="T",
              help="Draw the position of this transcript.")
@click.option("--after", type=click.IntRange(min=0), default=None, metavar="N",
              help="The position after move N of the transcript (default: its end).")
@click.option("--svg", "svg", metavar="FILE|-", default=None,
              help="Write an SVG picture to a new FILE (- for standard output) instead of text.")
def board_command(game, players, board_file, transcript, after, svg):
    """Draw GAME's board (a game with a board picture), or a position of a transcript: text, or SVG with --svg."""
    try:
        text = board_picture(game, players, board_file, transcript, after, svg=svg is not None)
        output = None if svg in (None, "-") else Path(svg)
        _emit(text, output, transcript)
    except RefereeError as error:
        _fail(error, False)


def _public_url(value: str | None) -> str | None:
    """``--public-url``: an http(s) address with a host, nothing after its path."""
    if value is None:
        return None
    import urllib.parse

    parts = urllib.parse.urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise click.BadParameter(f"'{value}' is not an address the phones can open, such as "
                                 "http://192.168.1.20:8000", param_hint="--public-url")
    return value


@main.command(epilog=_epilog(
    ["referee serve",
     "referee serve --port 8080 --workers 2",
     "referee serve --host 0.0.0.0 --data ~/club-tables"],
    "0 the service stopped (Ctrl-C or SIGTERM), 2 an option cannot be used, 3 it could not start "
    "(the port is taken)."))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on. Beyond loopback (0.0.0.0: a club's network) a warning is printed "
                   "and transcripts are answered only through tables' links.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port.")
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=None, metavar="DIR",
              help="The folder of the tables' database (default: the user's data folder).")
@click.option("--name", "names", multiple=True, metavar="NAME",
              help="Another name the service is reached by (a Host header it accepts); repeatable.")
@click.option("--max-bytes", type=click.IntRange(min=1), default=None, metavar="BYTES",
              help="The largest transcript a request may hold (default 262144).")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=None, metavar="SECONDS",
              help="Bound on the solver time of one request (default 20 s).")
@click.option("--workers", type=click.IntRange(1, 64), default=None, metavar="N",
              help="Worker processes judging requests at once (default 2).")
@click.option("--queue", type=click.IntRange(0, 100_000), default=None, metavar="N",
              help="Requests that may wait for a worker; more are answered 429 (default 16 per worker).")
@click.option("--compare-time-limit", type=click.FloatRange(min=1), default=None, metavar="SECONDS",
              help="Bound on one comparison of two readings, /api/compare (default 120 s).")
@click.option("--body-timeout", type=click.FloatRange(min=0.1), default=None, metavar="SECONDS",
              help="Bound on the time a request's body takes to arrive (default 10 s).")
@click.option("--head-timeout", type=click.FloatRange(min=0.1), default=None, metavar="SECONDS",
              help="Bound on the time a request's line and headers take to arrive (default 10 s).")
@click.option("--public-url", default=None, metavar="URL", callback=lambda ctx, param, value: _public_url(value),
              help="Where the players' phones reach the service (http://192.168.1.20:8000, a name the club's "
                   "network knows): the tables' links start with it (default: this computer's address on the "
                   "network it listens on). Its name is accepted in the Host header.")
def serve(host, port, data, names, max_bytes, time_limit, workers, queue, compare_time_limit, body_timeout,
          head_timeout, public_url):
    """Serve the referee over HTTP: the JSON API, the tables and the page (docs/service.md)."""
    from referee.service.limits import (
        BODY_TIMEOUT,
        COMPARE_TIME_LIMIT,
        HEAD_TIMEOUT,
        MAX_TRANSCRIPT_BYTES,
        TIME_LIMIT,
        WORKERS,
        Limits,
    )
    from referee.service.server import serve as run

    click.echo(f"referee: the page is at http://{host}:{port}/ (Ctrl-C stops the service)", err=True)
    run(host, port, Limits(max_bytes or MAX_TRANSCRIPT_BYTES, time_limit or TIME_LIMIT, workers or WORKERS,
                           compare_time_limit or COMPARE_TIME_LIMIT, queue, body_timeout or BODY_TIMEOUT,
                           head_timeout or HEAD_TIMEOUT),
        names=names, data=data, public_url=public_url)


if __name__ == "__main__":
    main()
