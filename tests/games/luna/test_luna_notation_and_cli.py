"""Luna's notation (referee/games/luna/grammar.lark, referee/games/luna/reading.py),
its data file, its catalogue and the command line for Luna."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.luna import transcript

from referee.base.errors import DataError, NotationError
from referee.base.terms import fn
from referee.cli import main
from referee.game.catalogue import load_catalogue
from referee.game.notation import parse_transcript
from referee.game.registry import known_games
from referee.games.luna.fluents import FigureStart, StartTile

REPO = Path(__file__).resolve().parents[3]
SEED = REPO.parent / "shared" / "seeds" / "002_e8ed60f3a9b41215.txt"


def moves(body: str, players: int = 2):
    return [p.move for p in parse_transcript(transcript("round 1\n" + body, players), "t.luna").plays]


def test_luna_is_a_game_of_its_folder():
    assert {"cyclades", "luna"} <= set(known_games())


def test_every_action_reads_as_its_move():
    assert moves("""Ann: favour on 3
        Bob: recruit on island 5 with substitute
        Ann: shrine on 4
        Bob: herbs 2 on 5
        Ann: travel 2 from 1 to 3, 1 from 4 to 5
        Bob: waves 1 inactive from 2 to 3, 2 from jetty to 4
        Ann: sailboat 2 from jetty to 5
        Bob: occupy 12 from 3 with bribe
        Ann: enter 12 with bribe
        Bob: book 3 -> 9
        Ann: council 2 from 3
        Bob: banish 2 with substitute
        Ann: meditate""") == [
        fn("favour", 3, 0), fn("recruit", 5, 1), fn("shrine", 4, 0), fn("herbs", 5, 2),
        fn("travel", 1, 3, 2), fn("travel", 4, 5, 1),
        fn("waves", 2, fn("inactive"), 3, 1), fn("waves", fn("jetty"), fn("inactive"), 4, 2),
        fn("sailboat", fn("jetty"), 5, 2), fn("occupy", 3, 12, 1, 0), fn("enter", 12, 1), fn("book", 3, 9),
        fn("council", 3, 2, 0), fn("banish", 2, 1), fn("meditate")]


def test_chinese_action_words_of_seed_002():
    assert moves("Ann: 特权 on 3\nBob: 冥想") == [fn("favour", 3, 0), fn("meditate")]


def disputed(body: str) -> list[tuple[str, bool]]:
    """(move, disputed) of each play of a round-1 body."""
    return [(str(p.move), p.disputed) for p in parse_transcript(transcript("round 1\n" + body), "t.luna").plays]


def test_a_disputed_mark_after_a_group_marks_that_group_only():
    """'??' after one group of a travel or waves line disputes that move; at the end of the line it
    disputes the whole line, as on any action; the moves' text leaves the marks out."""
    assert disputed("Ann: travel 1 from 2 to 6 ??, 1 from 3 to 7") == [("travel(2,6,1)", True),
                                                                        ("travel(3,7,1)", False)]
    assert disputed("Ann: waves 1 from 2 to 6, 1 inactive from 3 to 7 ？？， 1 from 4 to 1") == [
        ("waves(2,active,6,1)", False), ("waves(3,inactive,7,1)", True), ("waves(4,active,1,1)", False)]
    assert disputed("Ann: travel 1 from 2 to 6, 1 from 3 to 7 ??  # both") == [("travel(2,6,1)", True),
                                                                                ("travel(3,7,1)", True)]
    assert disputed("Ann: sailboat 1 from 2 to 6 ??") == [("sailboat(2,6,1)", True)]
    assert disputed("Ann: favour on 1 with substitute ??") == [("favour(1,1)", True)]
    plays = parse_transcript(transcript("round 1\nAnn: travel 1 from 2 to 6 ??, 1 from 3 to 7 ??"), "t.luna").plays
    assert {p.text for p in plays} == {"travel 1 from 2 to 6, 1 from 3 to 7"}
    assert (plays[0].span.column, plays[0].span.end_column) == (6, 44)


def test_a_disputed_group_is_explained_in_the_check_report(tmp_path):
    game = tmp_path / "g.txt"
    game.write_text(transcript("round 1\nAnn: travel 1 from 2 to 6 ??, 1 from 3 to 7\nBob: meditate"),
                    encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(game)])
    assert result.exit_code == 0, result.output
    assert "move 1, round 1, Ann: 'travel 1 from 2 to 6, 1 from 3 to 7'\n  LEGAL: travel: 1 novice from island 2" \
        in result.output
    assert "move 2," not in result.output and "1 disputed move explained" in result.output


def test_preparation_pairs_on_one_line():
    text = transcript("preparation\nAnn: shrine on 1\nBob: shrine on 4\nAnn: novices on 2, 3, 5, 6", 2, "normal")
    plays = parse_transcript(text, "t.luna").plays
    assert [p.move for p in plays[2:]] == [fn("novices", i) for i in (2, 3, 5, 6)]


@pytest.mark.parametrize("body, line, column, words", [
    ("round 1\nAnn: favour on 8", 5, 16, "an island is 1 to 7"),
    ("round 1\nAnn: dance", 5, 6, "an action (favour on 3"),
    ("round 2", 4, 1, "expected 'round 1'"),
    ("round 1\nZed: meditate", 5, 1, "'Zed' is not a player"),
    ("round 1\nAnn: enter 5 with substitute", 5, 19, "a substitute novice replaces one novice"),
    ("round 1\nAnn: recruit on 3 with bribe", 5, 24, "a bribe is used to occupy"),
    ("round 1\nAnn: travel 1 inactive from 2 to 3", 5, 15, "only the waves favour moves inactive"),
    ("round 1\nAnn: travel 1 from 2 to 6 ?? 1 from 3 to 7", 5, 30, "expected ',' or the end of the line"),
    ("preparation", 4, 1, "the introductory layout has no preparation round"),
])
def test_notation_errors_say_where_and_what(body, line, column, words):
    with pytest.raises(NotationError) as info:
        parse_transcript(transcript(body), "t.luna")
    error = info.value
    assert (error.position.line, error.position.column) == (line, column), str(error)
    assert words in str(error)


@pytest.mark.parametrize("written, meant", [
    ("Ann: take a favour on 3", "Ann: favour on 3"),
    ("Ann: build a shrine on 4", "Ann: shrine on 4"),
    ("Ann: recruit 2 novices on 2", "Ann: recruit on 2"),
    ("Ann: banish the Apostate 2 ??", "Ann: banish 2 ??"),
    ("Ann: banish novice 2", "Ann: banish 2"),
    ("Ann: move 2 novices from 1 to 3", "Ann: travel 2 from 1 to 3"),
    ("Ann: travel with 2 novices from 1 to 3", "Ann: travel 2 from 1 to 3"),
    ("Ann: sail 2 novices from 1 to 3", "Ann: sailboat 2 from 1 to 3"),
    ("Ann: go to the council with 2 from 3", "Ann: council 2 from 3"),
    ("Ann: occupy temple 12 from island 3", "Ann: occupy 12 from 3"),
    ("Ann: enter temple 12", "Ann: enter 12"),
])
def test_a_move_written_in_everyday_words_is_answered_with_its_form_in_the_notation(written, meant):
    """Issue 30: an action in plain English gets the nearest line of the notation,
    one the grammar reads, not only what the parser expected."""
    with pytest.raises(NotationError) as info:
        parse_transcript(transcript("round 1\n" + written), "t.luna")
    assert f"(did you mean '{meant}'?)" in str(info.value)


def test_players_two_to_four():
    with pytest.raises(NotationError, match="2 to 4 players"):
        parse_transcript("game: luna\nplayers: Ann red, Bob blue, Cy green, Dee yellow, Eve black\n", "t")


def test_a_data_file_overrides_printed_values(tmp_path):
    """Printed values are data: a transcript's 'board:' file overrides them."""
    data = tmp_path / "mine.toml"
    data.write_text('builder = 2\npriestess = { "6" = [9, 4, 1], "5" = [7, 2] }\n'
                    '[sources]\nbuilder = "my copy of the game"\n', encoding="utf-8")
    game = tmp_path / "g.txt"
    game.write_text(transcript("round 1\nAnn: meditate", header="board: mine.toml"), encoding="utf-8")
    from referee.ask.session import Session
    rules = Session(str(game)).rules
    assert fn("builder_step", 2) in rules.static and fn("priestess_value", 1, 7) in rules.static
    assert rules.data.source("builder") == "my copy of the game"
    assert "unverified" in rules.data.source("council")


def test_a_bad_data_file_is_an_error_with_its_line(tmp_path):
    data = tmp_path / "bad.toml"
    data.write_text('builder = 2\ncouncil = "many"\n', encoding="utf-8")
    game = tmp_path / "g.txt"
    game.write_text(transcript("round 1", header="board: bad.toml"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(game)])
    assert result.exit_code == 2
    assert "bad.toml:2" in result.output and "council must be" in result.output


def test_every_shipped_value_has_a_source():
    from referee.games.luna import data
    values = data.load()
    for key in ("islands", "tile_symbols", "temple_parts", "guard_tiles", "priestess", "builder", "council",
                "novices_per_player", "shrines_per_player", "intro_figures", "intro_shrines", "parts_used",
                "influence", "temple_tiles", "favour_tokens", "priestess_figures", "council_start"):
        assert values.source(key), key
    # the values public sources give (issue 18: rules-facts.md) are marked verified, with the source
    for key in ("novices_per_player", "shrines_per_player", "guard_tiles", "influence", "temple_tiles",
                "favour_tokens", "priestess_figures", "council_start"):
        assert values.source(key).startswith("verified: ") and not values.unverified(key), key
    assert values.novices_per_player == 13 and values.shrines_per_player == 6
    for key in ("islands", "tile_symbols", "temple_parts", "priestess", "builder", "council", "intro_figures",
                "intro_shrines"):
        assert values.unverified(key), key


def test_catalogue_documents_every_rule_of_the_programs_and_quotes_seed_002():
    catalogue = load_catalogue("luna")
    ids = set()
    for path in (REPO / "referee" / "games" / "luna" / "rules").glob("*.lp"):
        code = re.sub(r"%[^\n]*", "", path.read_text(encoding="utf-8"))
        ids |= set(re.findall(r"\bviolation\(\s*([a-z][a-z0-9_]*)\s*,", code))
        ids |= set(re.findall(r"%[\s\-]*Rule ([a-z][a-z0-9_]*)", path.read_text(encoding="utf-8")))
    assert ids <= set(catalogue)
    for rule_id in ids:
        assert catalogue.rule(rule_id).en
    if SEED.is_file():
        seed = SEED.read_text(encoding="utf-8")
        for rule_id in catalogue:
            for part in catalogue.rule(rule_id).sentence("zh-002").split(" … "):
                assert part in seed, (rule_id, part)


GAME = transcript("round 1\nAnn: favour on 3\nBob: shrine on 4\nAnn: recruit on 2")


def test_cli_check_and_explain_for_luna(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(GAME, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert "g.txt:6:6: move 2, round 1, Bob: 'shrine on 4': shrine_builder_island: the Builder is on island 3" \
        in result.output
    result = CliRunner().invoke(main, ["explain", str(path), "--move", "2", "--rules", "zh-002"])
    assert "rule (zh-002): 建筑师：允许玩家在此岛屿上修建神殿。" in result.output
    assert "take a favour on island 4 (sailboat) with 2 of your 2 active novices" in result.output


def test_cli_moves_for_luna_grouped(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(transcript("round 1\nAnn: favour on 3"), encoding="utf-8")
    result = CliRunner().invoke(main, ["moves", str(path), "--all"])
    assert result.exit_code == 0
    assert "Bob to decide" in result.output
    assert "take a favour on island 4 (sailboat) with 2 of your 2 active novices" in result.output
    assert "meditate" in result.output


def test_cli_json_report_for_luna_follows_the_schema():
    import json
    from importlib import resources

    import jsonschema
    result = CliRunner().invoke(main, ["check", "--json", "transcripts/luna/illegal-tile-beyond-guard.txt"])
    report = json.loads(result.output)
    schema = json.loads(resources.files("referee").joinpath("ask/schema/report.schema.json").read_text())
    jsonschema.validate(report, schema)
    assert report["game"] == "luna" and report["problems"][0]["breaches"][0]["rule"] == "tile_available"


def test_figures_line_places_the_figures_in_the_normal_layout():
    """Rule setup_figures: in the normal layout the players place the figures."""
    from referee.ask.session import Session
    text = transcript("figures: priestess on 2, 建筑师 on island 5\npreparation", layout="normal")
    rules = Session(parse_transcript(text, "t.luna")).rules
    placed = {f.figure.name: f.island for f in FigureStart.of(rules.static)}
    assert placed["priestess"] == 2 and placed["builder"] == 5
    with pytest.raises(NotationError, match="goes with 'layout: normal'"):
        parse_transcript(transcript("figures: priestess on 2\nround 1"), "t.luna")
    with pytest.raises(NotationError, match="unknown figure"):
        parse_transcript(transcript("figures: guard on 2\npreparation", layout="normal"), "t.luna")


def test_a_data_file_deals_the_temple_tiles(tmp_path):
    """Rule setup_temple: the tiles 1-4 are dealt at random; a data file says who got which."""
    (tmp_path / "deal.toml").write_text("start_tiles = [2, 1]\n", encoding="utf-8")
    game = tmp_path / "g.txt"
    game.write_text(transcript("round 1", header="board: deal.toml"), encoding="utf-8")
    from referee.ask.session import Session
    rules = Session(str(game)).rules
    assert {(f.player, f.tile) for f in StartTile.of(rules.static)} == {("Ann", 2), ("Bob", 1)}
    (tmp_path / "deal.toml").write_text("start_tiles = [3, 1]\n", encoding="utf-8")
    with pytest.raises(DataError, match="start_tiles must deal the tiles"):
        Session(str(game))


def test_a_round_heading_before_the_round_ended_is_set_aside_and_said():
    """Rule meditate_last: only the last time marker ends the action phase. A
    'round 2' written before it is set aside (the report says so, at its line),
    and the moves after it are judged in round 1."""
    from referee.ask.session import Session
    text = transcript("round 1\nAnn: meditate\nround 2\nBob: meditate")
    report = Session(parse_transcript(text, "t.luna")).check()
    assert not report.problems
    (assumed,) = report.assumptions
    assert (assumed.line, assumed.column) == (6, 1)
    assert assumed.text.startswith("'round 2' is written while round 1 goes on (Bob to decide)")


def test_check_says_once_which_unverified_values_the_rules_read(tmp_path):
    """`referee check` on a Luna game names, once, the unverified values of data.toml that the rules read
    in that game (LunaValues.values_read): a complete game reads the priestess's values, the Builder's step,
    the council's seats, the tiles' symbols; a single meditation only the start position's (the
    introductory layout, the favours it hands out); verified values (13 novices, 6 shrines) never; a value a
    data file overrides with its own source is no longer unverified."""
    result = CliRunner().invoke(main, ["check", str(REPO / "transcripts" / "luna" / "game-4p.txt")])
    assert result.exit_code == 0
    lines = [line for line in result.output.splitlines() if "unverified" in line]
    assert len(lines) == 1 and lines[0].startswith("Depends on unverified printed values")
    for key in ("priestess", "builder", "council", "tile_symbols", "temple_parts", "islands", "intro_figures"):
        assert f"({key})" in lines[0], key
    assert "novices_per_player" not in lines[0] and "shrines_per_player" not in lines[0]
    assert "intro_shrines" not in lines[0]  # the normal layout: the players placed their shrines

    game = tmp_path / "g.txt"
    game.write_text(transcript("round 1\nAnn: meditate"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--json", str(game)])
    assert result.exit_code == 0
    import json
    assert json.loads(result.output)["unverified"] == [
        "which island carries which favour kind (islands)", "the introductory layout's figures (intro_figures)",
        "the introductory layout's shrines and novices (intro_shrines)"]

    mine = tmp_path / "mine.toml"
    mine.write_text('intro_figures = { priestess = 1, builder = 3, apostate = 5 }\nintro_shrines = [1, 3, 5, 7]\n'
                    'islands = ["shrine", "herbs", "book", "sailboat", "bribe", "waves", "substitute"]\n'
                    '[sources]\nislands = "my copy of the game"\n', encoding="utf-8")
    game.write_text(transcript("round 1\nAnn: meditate", header="board: mine.toml"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(game)])
    assert result.exit_code == 0 and "unverified" not in result.output
    result = CliRunner().invoke(main, ["check", "--json", str(game)])
    assert json.loads(result.output)["unverified"] == []
