"""Every command that README.md and docs/*.md show, run as a reader would run it,
so that the documents cannot go stale.

A command is a ``referee ...`` line of a code block that lists commands (every
line of it a command or a comment), or a ``$ referee ...`` line of any code
block, whose output is printed under it (up to the next ``$`` line or the end of
the block). It must end with the exit code the document gives, ``(exit code N)``
at the end of its output or in its comment (a comment line ``# ... (exit code N)``
gives it for the commands under it), else 0 or 1 (a verdict, never an error),
and print what the document shows, times aside.

Commands run in-process (click's CliRunner, the judgement cache off as
conftest.py sets it) in a folder of their own where ``transcripts/`` and
``tests/`` are the repository's, and the other files the documents name are
made as the documents describe them: the archive ``games/`` of docs/archives.md
and ``my-luna.toml`` of docs/luna.md. A command that starts a server, needs a
Dask scheduler on the network, or searches for long (``referee compare``'s
search and its replay of every shipped transcript: tests/compare/test_compare.py
runs them) is parsed and then skipped, with the reason: its options, game and
readings must still exist.
"""

from __future__ import annotations

import importlib
import itertools
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.game.readings import load_readings

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LUNA = ROOT / "transcripts" / "luna"

#: The first word of a line in a block that lists commands.
COMMAND_WORDS = ("referee", "python", "python3", "pip", "dask", "#")
EXIT_CODE = re.compile(r"\s*\(exit code (\d+)\)\s*$")  # at the end of the output shown
COMMENTED_EXIT_CODE = re.compile(r"\bexit code (\d+)\)?\s*$")  # at the end of a comment
#: What differs from one run to the next: the seconds a run took.
SECONDS = re.compile(r"\bin [0-9]+(?:\.[0-9]+)? s\b")


@dataclass(frozen=True)
class ShownCommand:
    """A command as a document shows it."""

    document: str
    line: int
    args: tuple[str, ...]
    exit_code: int | None  # None: a verdict, 0 or 1
    output: str | None  # None: the document shows no output

    def __str__(self) -> str:
        return f"{self.document}:{self.line}: referee {shlex.join(self.args)}"


def code_blocks(text: str) -> list[tuple[int, list[str]]]:
    """Each fenced block: the number of its first line and its lines."""
    blocks, current, start = [], None, 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            if current is None:
                current, start = [], number + 1
            else:
                blocks.append((start, current))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def _arguments(command: str) -> tuple[tuple[str, ...], int | None]:
    """The arguments after ``referee`` (the comment and a ``> FILE`` redirection
    left out) and the exit code the comment gives."""
    code = None
    if "#" in command:
        command, _, comment = command.partition("#")
        found = COMMENTED_EXIT_CODE.search(comment)
        code = int(found[1]) if found else None
    words = shlex.split(command)
    if ">" in words:
        words = words[: words.index(">")]
    assert words[0] == "referee", command
    return tuple(words[1:]), code


def shown_commands(path: Path) -> list[ShownCommand]:
    name = path.relative_to(ROOT).as_posix()
    shown = []
    for start, lines in code_blocks(path.read_text(encoding="utf-8")):
        if any(line.startswith("$ ") for line in lines):
            prompts = [i for i, line in enumerate(lines) if line.startswith("$ ")] + [len(lines)]
            for here, following in itertools.pairwise(prompts):
                command = lines[here][2:]
                if not command.startswith("referee "):
                    continue
                output = lines[here + 1:following]
                while output and not output[-1].strip():
                    output.pop()
                args, code = _arguments(command)
                if output and (found := EXIT_CODE.search(output[-1])):
                    code = int(found[1])
                    output[-1] = output[-1][: found.start()]
                    if not output[-1]:
                        output.pop()
                shown.append(ShownCommand(name, start + here, args, code, "\n".join(output)))
        elif all(not line.strip() or line.split()[0] in COMMAND_WORDS for line in lines):
            block_code = None
            for i, line in enumerate(lines):
                if line.startswith("#") and (found := COMMENTED_EXIT_CODE.search(line)):
                    block_code = int(found[1])
                command = line.rpartition("&& ")[2]
                if command.startswith("referee "):
                    args, code = _arguments(command)
                    shown.append(ShownCommand(name, start + i, args, block_code if code is None else code, None))
    return shown


COMMANDS = [command for document in DOCUMENTS for command in shown_commands(document)]


def why_not_run(args: tuple[str, ...]) -> str | None:
    """Why a command is parsed and not run, or None."""
    if args[0] == "serve":
        return "it starts a server"
    if "--cluster" in args:
        return "it needs a Dask scheduler on the network"
    if args[0] == "compare" and "--only" not in args:
        return ("the search takes 7-25 s a pair of readings, the replay of every shipped transcript minutes "
                "(tests/compare/test_compare.py runs both)")
    return None


def test_the_documents_show_commands():
    documents = {command.document for command in COMMANDS}
    assert {"README.md", "docs/archives.md", "docs/boards.md", "docs/luna.md", "docs/translations.md",
            "docs/adding-a-game.md", "docs/service.md"} <= documents
    assert any(command.output for command in COMMANDS if command.document == "README.md")


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A folder where the documents' commands run: the repository's transcripts
    and tests, and the files the documents describe."""
    for shared in ("transcripts", "tests"):
        (tmp_path / shared).symlink_to(ROOT / shared)
    games = tmp_path / "games"  # docs/archives.md, "What is printed"
    (games / "2024").mkdir(parents=True)
    shutil.copy(LUNA / "illegal-out-of-turn.txt", games / "a.txt")
    shutil.copy(LUNA / "illegal-out-of-turn.report.txt", games / "a.report.txt")
    (games / "a.en.report.txt").write_text("a reading's expected report\n", encoding="utf-8")
    shutil.copy(LUNA / "disputed-occupy-tile.txt", games / "2024" / "b.txt")
    (games / "2024" / "c.txt").write_text("game: luna\nplayers: Ann\n", encoding="utf-8")
    (games / "README.txt").write_text("Our club's games.\n", encoding="utf-8")
    luna_data = next(lines for _, lines in code_blocks((ROOT / "docs" / "luna.md").read_text(encoding="utf-8"))
                     if lines and lines[0].startswith("priestess"))  # docs/luna.md: "Example, `my-luna.toml`"
    (tmp_path / "my-luna.toml").write_text("\n".join(luna_data) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _parse_only(args: tuple[str, ...], readings_known: bool = True) -> None:
    """The command line is accepted: the command, its options, and for compare the game's readings
    (``readings_known``: the line names a game and its readings, not GAME and READING)."""
    name, *rest = args
    context = click.Context(main, info_name="referee")
    command = main.get_command(context, name)
    assert command is not None, name
    sub = command.make_context(name, rest, parent=context)
    if name == "compare" and readings_known:
        readings = load_readings(sub.params["game"]).readings
        assert set(sub.params["rules"]) <= set(readings), sub.params["rules"]


@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_a_shown_command_does_what_the_document_says(command, sandbox, request):
    reason = why_not_run(command.args)
    if reason is not None:
        _parse_only(command.args)
        pytest.skip(f"parsed, not run: {reason}")
    if any("example_game" in arg or arg == "nim" for arg in command.args):
        request.getfixturevalue("registered_nim")
    result = CliRunner().invoke(main, list(command.args))
    if command.exit_code is None:
        assert result.exit_code in (0, 1), f"{command}\n{result.output}"
    else:
        assert result.exit_code == command.exit_code, f"{command}\n{result.output}"
    assert "Traceback" not in result.output and "Usage:" not in result.output, f"{command}\n{result.output}"
    if command.output is not None:
        assert SECONDS.sub("in N s", result.output.rstrip("\n")) == SECONDS.sub("in N s", command.output), \
            f"{command}"


@pytest.fixture
def registered_nim(tmp_path_factory):
    """The example game of docs/adding-a-game.md, registered as tests/game/test_example_game.py does."""
    from referee.game.registry import forget_games

    site = tmp_path_factory.mktemp("site")
    info = site / "referee_example_nim-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: referee-example-nim\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[referee.games]\nnim = example_game.game:NimRules\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(ROOT / "tests"))
        patch.syspath_prepend(str(site))
        forget_games()
        yield
    forget_games()


@pytest.mark.parametrize("name", sorted(main.commands))
def test_the_examples_of_every_help_are_command_lines_the_referee_accepts(name):
    help_text = CliRunner().invoke(main, [name, "--help"]).output
    examples = help_text.split("Examples:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    for example in examples:
        _parse_only(tuple(shlex.split(example)[1:]), readings_known=False)  # GAME, READING: no game is named


#: A module, class or function the documents name: `referee.text.syntax`, `referee.base.terms.Fn`.
NAMED = re.compile(r"`(referee(?:\.[A-Za-z_]+)+)`")


def _resolves(name: str) -> bool:
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for part in parts[end:]:
            found = getattr(found, part, None)
        return found is not None
    return False


def test_every_module_and_name_the_documents_give_exists():
    named = {(path.relative_to(ROOT).as_posix(), name) for path in DOCUMENTS
             for name in NAMED.findall(path.read_text(encoding="utf-8"))}
    assert named
    assert [f"{document}: {name}" for document, name in sorted(named) if not _resolves(name)] == []


def test_the_table_of_error_kinds_has_every_kind_the_referee_raises():
    from referee.base import errors
    from referee.game.registry import UnknownGameError

    raised = {kind.code for kind in [*vars(errors).values(), UnknownGameError]
              if isinstance(kind, type) and issubclass(kind, errors.RefereeError)}
    raised.discard(errors.IllegalMoveError.code)  # never raised: --strict stops with a report and exit code 1
    report = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    table = report.split("\n## Errors\n", 1)[1]
    assert raised <= set(re.findall(r"^\| `([a-z-]+)` \|", table, re.MULTILINE))
