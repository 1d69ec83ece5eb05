"""The Cyclades transcript notation (docs/notation.md): text in, Transcript out."""

from __future__ import annotations

import dataclasses
import random
import tomllib
from importlib import resources

import pytest

from referee.base.errors import NotationError
from referee.base.terms import fn
from referee.game.notation import parse_transcript, read_transcript
from referee.games.cyclades.fluents import GodTile, Use
from referee.text.transcript import Header, PeriodStart, Play, PlayerDecl, Span, Transcript

HEAD = "game: cyclades\nplayers: Ann red, Bob blue, Cy green\ncycle 1\n"


def parse(body: str = "", head: str = HEAD) -> Transcript:
    return parse_transcript(head + body, "t.cyc")


def plays(body: str, head: str = HEAD) -> list[Play]:
    return list(parse(body, head).plays)


def moves(body: str, head: str = HEAD) -> list[tuple[str, str | None, object]]:
    return [(p.role, p.group, p.move) for p in plays(body, head)]


def error(text: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        parse_transcript(text, "t.cyc")
    return info.value


# ------------------------------------------------------ the whole example --

EXAMPLE = """\
# comment to end of line; blank lines ignored; keywords case-insensitive
game: cyclades
players: Ann red, Bob blue, Cy green        # seat order
order: Cy, Ann, Bob
rules: en
board: 5p

cycle 1
creatures: Pegasus
gods: Zeus, Athena, Ares / Poseidon
Ann: 5 on Zeus
Bob: Apollo
Cy/Zeus: priest; temple on IS4; buy Pegasus: 2 troops IS12 -> IS8
Ann/Athena: 2 philosophers; university on IS2
Bob/Poseidon: fleet on F5; 2 fleets on E6; port on IS3; replace Harpy -> Kraken
Cy/Ares: troop on IS4; 3 troops on IS8; fortress on IS4
Ann/Zeus: discard port IS2; metropolis on IS4; demolish temple
Bob/Apollo: prosperity on IS1
Cy/Ares: pass
Ann: 4 on Zeus ??
"""


def test_the_example_reads_move_by_move():
    t = parse_transcript(EXAMPLE, "friday.cyc")
    assert t.source == "friday.cyc"
    assert t.header == Header(
        game="cyclades",
        players=(
            PlayerDecl("Ann", "red", Span(3, 10, 3, 17)),
            PlayerDecl("Bob", "blue", Span(3, 19, 3, 27)),
            PlayerDecl("Cy", "green", Span(3, 29, 3, 37)),
        ),
        order=("Cy", "Ann", "Bob"),
        rules="en",
        data_file="5p",
        spans={
            "game": Span(2, 1, 2, 15),
            "players": Span(3, 1, 3, 37),
            "order": Span(4, 1, 4, 20),
            "rules": Span(5, 1, 5, 10),
            "board": Span(6, 1, 6, 10),
        },
    )
    assert t.events[0] == PeriodStart(1, Span(8, 1, 8, 8))
    got = [(p.role, p.group, p.move) for p in t.plays]
    assert got == [
        ("chance", None, fn("track", 4, fn("pegasus"))),
        ("chance", None, fn("god", 1, fn("zeus"), fn("up"))),
        ("chance", None, fn("god", 2, fn("athena"), fn("up"))),
        ("chance", None, fn("god", 3, fn("ares"), fn("up"))),
        ("chance", None, fn("god", 4, fn("poseidon"), fn("down"))),
        ("Ann", None, fn("offer", fn("zeus"), 5)),
        ("Bob", None, fn("apollo")),
        ("Cy", "zeus", fn("recruit", fn("priest"))),
        ("Cy", "zeus", fn("build", fn("temple"), "IS4")),
        ("Cy", "zeus", fn("buy", fn("pegasus"))),
        ("Cy", "zeus", fn("use", fn("pegasus"), fn("march", "IS12", 2, "IS8"))),
        ("Ann", "athena", fn("recruit", fn("philosopher"))),
        ("Ann", "athena", fn("recruit", fn("philosopher"))),
        ("Ann", "athena", fn("build", fn("university"), "IS2")),
        ("Bob", "poseidon", fn("recruit", fn("fleet"), "F5")),
        ("Bob", "poseidon", fn("recruit", fn("fleet"), "E6")),
        ("Bob", "poseidon", fn("recruit", fn("fleet"), "E6")),
        ("Bob", "poseidon", fn("build", fn("port"), "IS3")),
        ("Bob", "poseidon", fn("replace", fn("harpy"))),
        ("chance", None, fn("track", 0, fn("kraken"))),
        ("Cy", "ares", fn("recruit", fn("troop"), "IS4")),
        ("Cy", "ares", fn("recruit", fn("troop"), "IS8")),
        ("Cy", "ares", fn("recruit", fn("troop"), "IS8")),
        ("Cy", "ares", fn("recruit", fn("troop"), "IS8")),
        ("Cy", "ares", fn("build", fn("fortress"), "IS4")),
        ("Ann", "zeus", fn("discard", fn("port"), "IS2")),
        ("Ann", "zeus", fn("metropolis", "IS4")),
        ("Ann", "zeus", fn("demolish", fn("temple"))),
        ("Bob", "apollo", fn("prosperity", "IS1")),
        ("Cy", "ares", fn("pass")),
        ("Ann", None, fn("offer", fn("zeus"), 4)),
    ]
    assert [p.disputed for p in t.plays].count(True) == 1 and t.plays[-1].disputed
    buy, use = t.plays[9:11]
    assert buy.text == "buy Pegasus" and use.text == "2 troops IS12 -> IS8"
    assert buy.line_text == "Cy/Zeus: priest; temple on IS4; buy Pegasus: 2 troops IS12 -> IS8"


def test_values_are_plain_python_and_frozen():
    t = parse_transcript(EXAMPLE)

    def walk(value):
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                yield from walk(getattr(value, f.name))
        elif isinstance(value, (tuple, list)):
            for v in value:
                yield from walk(v)
        elif isinstance(value, dict) or hasattr(value, "items"):
            for k, v in value.items():
                yield from walk(k)
                yield from walk(v)
        else:
            yield value

    for value in walk(t):
        assert type(value) in (str, int, bool, type(None)), (type(value), value)
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.plays[0].role = "Bob"  # type: ignore[misc]
    with pytest.raises(TypeError):
        t.header.spans["game"] = Span(1, 1, 1, 1)  # type: ignore[index]
    assert hash(t) == hash(parse_transcript(EXAMPLE))
    assert parse_transcript(EXAMPLE) == t


# ------------------------------------------------------------------ header --


def test_header_defaults():
    t = parse("")
    assert t.header.order is None
    assert t.header.rules == "en"
    assert t.header.data_file is None
    assert set(t.header.spans) == {"game", "players"}
    assert t.events == (PeriodStart(1, Span(3, 1, 3, 8)),)


def test_header_values():
    head = (
        "game: cyclades\nplayers: Ann red, Bob blue\norder: Ann, Bob, Bob, Ann\n"
        "rules: ZH-003\nboard: boards/my board.json   # a file\ncycle 1\n"
    )
    t = parse("", head)
    assert t.header.order == ("Ann", "Bob", "Bob", "Ann")
    assert t.header.rules == "zh-003"
    assert t.header.data_file == "boards/my board.json"
    assert t.header.spans["board"].line == 5


def test_player_names_and_colours_are_case_insensitive_but_kept_as_declared():
    head = "GAME: Cyclades\nPlayers: ANN Red, bob BLUE, Mary-Jo yellow, O'Neil black, 小明 green\nCycle 1\n"
    t = parse("ann: 5 on zeus\nMARY-JO/ZEUS: PRIEST\n小明: apollo\n", head)
    assert [(p.name, p.colour) for p in t.header.players] == [
        ("ANN", "red"), ("bob", "blue"), ("Mary-Jo", "yellow"), ("O'Neil", "black"), ("小明", "green"),
    ]
    assert [(p.role, p.group, p.move) for p in t.plays] == [
        ("ANN", None, fn("offer", fn("zeus"), 5)),
        ("Mary-Jo", "zeus", fn("recruit", fn("priest"))),
        ("小明", None, fn("apollo")),
    ]


# ------------------------------------------------------------ chance lines --


def test_creatures_fill_the_track_from_the_4_gp_slot_down():
    assert moves("creatures: Harpy, -, The Fates\n") == [
        ("chance", None, fn("track", 4, fn("harpy"))),
        ("chance", None, fn("track", 2, fn("fates"))),
    ]
    assert moves("creatures: -, Fates, kraken\n") == [
        ("chance", None, fn("track", 3, fn("fates"))),
        ("chance", None, fn("track", 2, fn("kraken"))),
    ]
    assert moves("creatures: -\n") == []


def test_creature_entries_carry_their_own_span():
    p = plays("creatures: Harpy, The  Fates\n")
    assert [(x.text, x.span) for x in p] == [
        ("Harpy", Span(4, 12, 4, 17)),
        ("The  Fates", Span(4, 19, 4, 29)),
    ]


def test_gods_line_gives_position_and_face():
    assert moves("gods: Zeus, Athena / Ares, Poseidon\n") == [
        ("chance", None, fn("god", 1, fn("zeus"), fn("up"))),
        ("chance", None, fn("god", 2, fn("athena"), fn("up"))),
        ("chance", None, fn("god", 3, fn("ares"), fn("down"))),
        ("chance", None, fn("god", 4, fn("poseidon"), fn("down"))),
    ]
    p = plays("gods: Zeus, Athena / Ares, Poseidon\n")
    assert [x.span.column for x in p] == [7, 13, 22, 28]


# ----------------------------------------------------------------- bidding --


def test_offerings():
    assert moves("Ann: 5 on Zeus\nBob: 0 on Ares\nCy: 12 Poseidon\nAnn: Apollo\n") == [
        ("Ann", None, fn("offer", fn("zeus"), 5)),
        ("Bob", None, fn("offer", fn("ares"), 0)),
        ("Cy", None, fn("offer", fn("poseidon"), 12)),
        ("Ann", None, fn("apollo")),
    ]
    (p,) = plays("Ann:   5 on  Zeus   # outbids Bob\n")
    assert p.text == "5 on  Zeus"
    assert p.span == Span(4, 8, 4, 18)
    assert p.group is None and not p.disputed


# ----------------------------------------------------------- a god's turn --


@pytest.mark.parametrize(
    "piece, expected",
    [
        ("priest", [fn("recruit", fn("priest"))]),
        ("2 priests", [fn("recruit", fn("priest"))] * 2),
        ("philosopher", [fn("recruit", fn("philosopher"))]),
        ("2 philosophers", [fn("recruit", fn("philosopher"))] * 2),
        ("troop on IS4", [fn("recruit", fn("troop"), "IS4")]),
        ("3 troops on IS4", [fn("recruit", fn("troop"), "IS4")] * 3),
        ("2 troops IS4", [fn("recruit", fn("troop"), "IS4")] * 2),
        ("fleet on F5", [fn("recruit", fn("fleet"), "F5")]),
        ("2 fleets f5", [fn("recruit", fn("fleet"), "F5")] * 2),
        ("temple on IS4", [fn("build", fn("temple"), "IS4")]),
        ("2 temples on IS4", [fn("build", fn("temple"), "IS4")] * 2),
        ("port on is3", [fn("build", fn("port"), "IS3")]),
        ("2 ports on IS3", [fn("build", fn("port"), "IS3")] * 2),
        ("fortress IS4", [fn("build", fn("fortress"), "IS4")]),
        ("2 fortresses on IS4", [fn("build", fn("fortress"), "IS4")] * 2),
        ("university on IS2", [fn("build", fn("university"), "IS2")]),
        ("2 universities on IS2", [fn("build", fn("university"), "IS2")] * 2),
        ("buy Harpy", [fn("buy", fn("harpy"))]),
        ("buy The Fates", [fn("buy", fn("fates"))]),
        ("buy Kraken", [fn("buy", fn("kraken"))]),
        ("discard port IS2", [fn("discard", fn("port"), "IS2")]),
        ("discard port on IS2", [fn("discard", fn("port"), "IS2")]),
        ("metropolis on IS4", [fn("metropolis", "IS4")]),
        ("metropolis IS4", [fn("metropolis", "IS4")]),
        ("demolish temple", [fn("demolish", fn("temple"))]),
        ("prosperity on IS1", [fn("prosperity", "IS1")]),
        ("pass", [fn("pass")]),
    ],
)
def test_each_piece_makes_its_terms(piece, expected):
    p = plays(f"Ann/Zeus: {piece}\n")
    assert [x.move for x in p] == expected
    assert all(x.role == "Ann" and x.group == "zeus" for x in p)
    assert all(x.text == piece and x.span == Span(4, 11, 4, 11 + len(piece)) for x in p)


@pytest.mark.parametrize(
    "piece, use",
    [
        ("buy Griffon: Bob", fn("use", fn("griffon"), "Bob")),
        ("buy Harpy: troop IS4", fn("use", fn("harpy"), fn("troop", "IS4"))),
        ("buy Harpy: troop on is4", fn("use", fn("harpy"), fn("troop", "IS4"))),
        ("buy Giant: temple IS2", fn("use", fn("giant"), fn("building", fn("temple"), "IS2"))),
        ("buy Giant: metropolis IS2", fn("use", fn("giant"), fn("metropolis", "IS2"))),
        ("buy Satyr: bob", fn("use", fn("satyr"), "Bob")),
        ("buy Dryad: Cy", fn("use", fn("dryad"), "Cy")),
        ("buy Cyclops: temple IS2 -> port", fn("use", fn("cyclops"), fn("change", fn("temple"), "IS2", fn("port")))),
        ("buy Cyclops: temple on IS2 -> port", fn("use", fn("cyclops"), fn("change", fn("temple"), "IS2", fn("port")))),
        ("buy Pegasus: 2 troops IS12 -> IS8", fn("use", fn("pegasus"), fn("march", "IS12", 2, "IS8"))),
        ("buy Pegasus: troop IS1 -> IS8", fn("use", fn("pegasus"), fn("march", "IS1", 1, "IS8"))),
        ("buy Siren: f5", fn("use", fn("siren"), fn("fleet", "F5"))),
        ("buy Siren: F5 from K1", fn("use", fn("siren"), fn("fleet", "F5", "K1"))),
        ("buy Sylph: 2 fleets D4 -> D5 +1 -> E6", fn("use", fn("sylph"), fn("sail", "D4", 2, fn(
            "via", "D5", 1, fn("via", "E6", 0, fn("end")))))),
        ("buy Sylph: fleet k1 → K2", fn("use", fn("sylph"), fn("sail", "K1", 1, fn("via", "K2", 0, fn("end"))))),
        ("buy Chimera: The Fates", fn("use", fn("chimera"), fn("fates"))),
    ],
)
def test_a_creature_use_follows_its_purchase(piece, use):
    """docs/notation.md, Creatures: 'buy X: <use>' is the purchase, then the use."""
    buy, used = plays(f"Ann/Zeus: {piece}\n")
    creature, rest = piece[4:].split(": ")
    assert buy.move == fn("buy", Use.read(use).card) and used.move == use
    assert buy.text == f"buy {creature}" and buy.span == Span(4, 11, 4, 15 + len(creature))
    assert used.text == rest and used.span == Span(4, 11 + len(piece) - len(rest), 4, 11 + len(piece))
    assert used.role == "Ann" and used.group == "zeus"


@pytest.mark.parametrize(
    "piece, column, message",
    [
        ("buy Harpy: temple IS4", 22, "the Harpy's use is written 'troop IS4' after 'buy Harpy:', found 'temple'"),
        ("buy Harpy: troop", 22, "the Harpy's use is written 'troop IS4' after 'buy Harpy:', found 'troop'"),
        ("buy Harpy: troop Bob", 28, "expected an island id (such as IS4) after 'troop', found 'Bob'"),
        ("buy Giant: troop IS4", 22, "the Giant destroys a building: expected a building"),
        ("buy Griffon: Bob Cy", 28, "the Griffon's use names one player, as in 'buy Griffon: Bob', found 'Bob Cy'"),
        ("buy Griffon: Zed", 24, "'Zed' is not a player"),
        ("buy Cyclops: temple IS2", 24, "the Cyclops's use is written 'temple IS4 -> port' after 'buy Cyclops:'"),
        ("buy Cyclops: temple IS2 -> priest", 38, "only a building can be built by the Cyclops"),
        ("buy Cyclops: troop IS2 -> port", 24, "only a building can be changed by the Cyclops"),
        ("buy Pegasus: 2 troops IS12", 24, "the Pegasus's use is written '2 troops IS4 -> IS7' after 'buy Pegasus:'"),
        ("buy Pegasus: 2 troops IS12 -> F5x", 41, "expected an island id (such as IS4), found 'F5x'"),
        ("buy Siren: F5 K1", 25, "the Siren's use is written 'F5' (or 'F5 from F7' when the reserve is empty)"),
        ("buy Siren: Bob", 22, "expected a sea id (such as F5), found 'Bob'"),
        ("buy The Fates: Bob", 26, "The Fates has a single use, made with the purchase: write 'buy The Fates'"),
        ("buy Giant: 1 port on IS2", 22, "the Giant's use is written 'temple IS4' after 'buy Giant:', found '1 port on IS2'"),
    ],
)
def test_a_creature_use_in_the_wrong_form_is_an_error_at_its_word(piece, column, message):
    with pytest.raises(NotationError) as err:
        plays(f"Ann/Zeus: {piece}\n")
    assert message in err.value.message
    assert (err.value.position.line, err.value.position.column) == (4, column)


def test_the_chimera_names_a_card_then_its_use_in_that_cards_form():
    """docs/notation.md, Creatures: 'buy Chimera: Harpy: troop IS4' is the purchase, the card taken
    from the discard pile, then that card's use (read by the card's own grammar rule)."""
    buy, pick, used = plays("Ann/Zeus: buy Chimera: Harpy: troop on IS4\n")
    assert [buy.move, pick.move, used.move] == [fn("buy", fn("chimera")), fn("use", fn("chimera"), fn("harpy")),
                                               fn("use", fn("harpy"), fn("troop", "IS4"))]
    assert (pick.text, pick.span) == ("Harpy", Span(4, 24, 4, 29))
    assert (used.text, used.span) == ("troop on IS4", Span(4, 31, 4, 43))
    p = plays("Ann/Zeus: buy Chimera: Sphinx: 2 troops IS4, priest\n")
    assert [x.move for x in p[1:]] == [fn("use", fn("chimera"), fn("sphinx"))] + [
        fn("use", fn("sphinx"), fn("troop", "IS4"))] * 2 + [fn("use", fn("sphinx"), fn("priest"))]
    (pick,) = plays("Ann/Zeus: use Chimera: Kraken\n")
    assert pick.move == fn("use", fn("chimera"), fn("kraken"))


@pytest.mark.parametrize(
    "piece, column, message",
    [
        ("buy Chimera: Harpy troop IS4", 29, "expected ':' after 'Harpy', then its use, as in 'buy Chimera: Harpy: ...'"),
        ("buy Chimera: Chimera", 24, "the Chimera takes another card of the discard pile, not itself"),
        ("buy Chimera: Harpy: temple IS4", 31, "the Harpy's use is written 'troop IS4' after 'buy Harpy:', found 'temple'"),
        ("buy Chimera: The Fates: Bob", 35, "write 'buy Chimera: The Fates' with nothing after it"),
        ("buy Chimera: Harpi", 24, "unknown creature 'Harpi' (did you mean Harpy?)"),
        ("buy Sylph: 2 troops D4 -> D5", 22, "the Sylph's use is written '2 fleets D4 -> D5 -> E6' after 'buy Sylph:'"),
        ("buy Sylph: fleet D4", 22, "the Sylph's use is written '2 fleets D4 -> D5 -> E6' after 'buy Sylph:'"),
        ("buy Sylph: fleet D4 -> D5 +1", 37, "nothing is picked up or left there"),
    ],
)
def test_the_sylph_and_chimera_in_the_wrong_form(piece, column, message):
    with pytest.raises(NotationError) as err:
        plays(f"Ann/Zeus: {piece}\n")
    assert message in err.value.message
    assert (err.value.position.line, err.value.position.column) == (4, column)


def test_replace_is_followed_by_the_chance_draw():
    a, b = plays("Bob/Zeus: priest; replace Harpy -> The Kraken ??\n")[1:]
    assert (a.role, a.group, a.move) == ("Bob", "zeus", fn("replace", fn("harpy")))
    assert a.text == "replace Harpy -> The Kraken" and a.span == Span(4, 19, 4, 46)
    assert (b.role, b.group, b.move) == ("chance", None, fn("track", 0, fn("kraken")))
    assert b.text == "The Kraken" and b.span == Span(4, 36, 4, 46)
    assert a.disputed and b.disputed
    assert [p.move for p in plays("Bob/Zeus: replace Fates→Sylph\n")] == [
        fn("replace", fn("fates")),
        fn("track", 0, fn("sylph")),
    ]


def test_semicolons_split_pieces_and_spans_point_at_each():
    line = "Cy/Zeus:priest ;temple on IS4;  buy Pegasus ;pass;"
    p = plays(line + "\n")
    assert [(x.text, x.span.column, x.span.end_column) for x in p] == [
        ("priest", 9, 15),
        ("temple on IS4", 17, 30),
        ("buy Pegasus", 33, 44),
        ("pass", 46, 50),
    ]
    for x in p:
        assert x.line_text == line
        assert line[x.span.column - 1 : x.span.end_column - 1] == x.text
        assert x.span.line == x.span.end_line == 4


def test_counts_expand_to_identical_plays():
    p = plays("Ann/Ares: 4 troops on IS4; 99 fleets on F5\n")
    assert len(p) == 103
    assert len({(x.text, x.span) for x in p[:4]}) == 1
    assert p[0].text == "4 troops on IS4" and p[4].text == "99 fleets on F5"


def test_a_creature_use_runs_to_the_next_semicolon_comment_or_disputed_mark():
    buy, placed, moved, passed = plays("Ann/Zeus: buy Kraken: F5 -> F6 ; pass\n")
    assert (buy.text, placed.text, moved.text, passed.text) == ("buy Kraken", "F5", "-> F6", "pass")
    assert moved.move == fn("use", fn("kraken"), fn("step", "F6"))
    buy, placed = plays("Ann/Zeus: buy Kraken: F5 # he had 7\n")
    assert placed.text == "F5" and not placed.disputed
    buy, placed = plays("Ann/Zeus: buy Kraken: F5 ??\n")
    assert placed.text == "F5" and buy.disputed and placed.disputed
    (p,) = plays("Ann/Zeus: buy Harpy:\n")
    assert p.text == "buy Harpy:"
    (p,) = plays("Ann/Zeus: buy Harpy\n")
    assert p.move == fn("buy", fn("harpy"))


def test_a_disputed_mark_inside_a_creature_use_marks_the_part_before_it():
    buy, troop, fleet, passed = plays("Ann/Zeus: buy Sphinx: troop IS1 ??, fleet G5; pass\n")
    assert (troop.text, fleet.text) == ("troop IS1", "fleet G5")
    assert troop.disputed and not (buy.disputed or fleet.disputed or passed.disputed)
    buy, troop, fleet = plays("Ann/Zeus: buy Sphinx: troop IS1, fleet G5 ？？ , priest\n")[:3]
    assert fleet.disputed and not (buy.disputed or troop.disputed)
    buy, placed, moved, back = plays("Ann/Zeus: buy Kraken: F5 -> F6 ?? -> F5\n")
    assert moved.disputed and not (placed.disputed or back.disputed)


def test_disputed_mark_on_every_kind_of_line():
    p = plays("creatures: Harpy ??\ngods: Zeus ？？\nAnn: 3 on Zeus??\nBob: Apollo  ?? # why\nCy/Zeus: pass ??\n")
    assert all(x.disputed for x in p) and len(p) == 5
    assert not any(x.disputed for x in plays("Cy/Zeus: pass\n"))


# ------------------------------------------------------ layout and input --


def test_comments_and_blank_lines_anywhere():
    text = (
        "\n  # a friday game\n\ngame: cyclades # the game\n# players next\n"
        "players: Ann red, Bob blue\n\n\n   \ncycle 1   # first\n  \t\n"
        "# bids\nAnn: 5 on Zeus#tight\n   Bob: Apollo\n"
    )
    t = parse_transcript(text)
    assert [p.move for p in t.plays] == [fn("offer", fn("zeus"), 5), fn("apollo")]
    assert t.plays[0].span == Span(13, 6, 13, 15)
    assert t.plays[1].span == Span(14, 9, 14, 15)


def test_no_final_newline():
    assert [p.move for p in parse_transcript(HEAD + "Ann: Apollo").plays] == [fn("apollo")]


def test_crlf_bom_and_lone_cr(tmp_path):
    expected = [(p.role, p.move, p.span) for p in parse_transcript(EXAMPLE).plays]
    for text in (EXAMPLE.replace("\n", "\r\n"), "\ufeff" + EXAMPLE, EXAMPLE.replace("\n", "\r")):
        assert [(p.role, p.move, p.span) for p in parse_transcript(text).plays] == expected
    path = tmp_path / "game.cyc"
    path.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.replace("\n", "\r\n").encode("utf-8"))
    t = read_transcript(path)
    assert t.source == str(path)
    assert [(p.role, p.move, p.span) for p in t.plays] == expected
    assert "\r" not in t.plays[0].line_text


def test_read_transcript_refuses_non_utf8(tmp_path):
    path = tmp_path / "big5.cyc"
    path.write_bytes(b"game: cyclades\nplayers: Ann red, Bob blue\ncycle 1\nAnn: 5 on \xa9\xbe\xb4\xb5\n")
    with pytest.raises(NotationError) as info:
        read_transcript(path)
    e = info.value
    assert (e.position.line, e.position.column) == (4, 11)
    assert "not UTF-8" in e.message


def test_keywords_are_case_insensitive():
    text = "GAME: CYCLADES\nPLAYERS: Ann RED, Bob Blue\nRULES: EN\nCYCLE 1\nCREATURES: HARPY\nGODS: ZEUS / ARES\nANN/ZEUS: BUY HARPY: TROOP ON is4; 2 TEMPLES ON is4; PASS\nBob: APOLLO\n"
    t = parse_transcript(text)
    assert [p.move for p in t.plays] == [
        fn("track", 4, fn("harpy")),
        fn("god", 1, fn("zeus"), fn("up")),
        fn("god", 2, fn("ares"), fn("down")),
        fn("buy", fn("harpy")),
        fn("use", fn("harpy"), fn("troop", "IS4")),
        fn("build", fn("temple"), "IS4"),
        fn("build", fn("temple"), "IS4"),
        fn("pass"),
        fn("apollo"),
    ]


def test_a_player_may_be_called_like_a_keyword_or_a_thing():
    head = "game: cyclades\nplayers: Temple red, Pass blue, Buy green, On black\ncycle 1\n"
    assert moves("Temple/Zeus: temple on IS4\nPass: 3 on Zeus\nBuy/Zeus: buy Harpy\nOn/Ares: 2 troops on IS4\n", head) == [
        ("Temple", "zeus", fn("build", fn("temple"), "IS4")),
        ("Pass", None, fn("offer", fn("zeus"), 3)),
        ("Buy", "zeus", fn("buy", fn("harpy"))),
        ("On", "ares", fn("recruit", fn("troop"), "IS4")),
        ("On", "ares", fn("recruit", fn("troop"), "IS4")),
    ]


def test_cycles_count_up():
    t = parse("Ann: Apollo\ncycle 2\nBob: Apollo\ncycle 3\n")
    assert [e.number for e in t.events if isinstance(e, PeriodStart)] == [1, 2, 3]
    assert [type(e).__name__ for e in t.events] == ["PeriodStart", "Play", "PeriodStart", "Play", "PeriodStart"]


# ------------------------------------------------------- Chinese aliases --


def _aliases():
    path = resources.files("referee").joinpath("games", "cyclades", "names.toml")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for kind, entries in data.items():
        for ident, entry in entries.items():
            for alias in entry.get("aliases", []):
                assert alias["source"], alias
                yield kind, ident, alias["name"]
            for name in entry.get("english", []):
                yield kind, ident, name


@pytest.mark.parametrize("kind, ident, name", list(_aliases()))
def test_every_name_in_names_toml_is_understood(kind, ident, name):
    if kind == "gods":
        line = f"Ann/{name}: pass\n" if ident == "apollo" else f"Ann: 3 on {name}\n"
        (p,) = plays(line)
        assert p.move == (fn("pass") if ident == "apollo" else fn("offer", fn(ident), 3))
        assert p.group == ("apollo" if ident == "apollo" else None)
    elif kind == "creatures":
        assert [p.move for p in plays(f"Ann/Zeus: buy {name}\n")] == [fn("buy", fn(ident))]
        assert [p.move for p in plays(f"creatures: {name}\n")] == [fn("track", 4, fn(ident))]
    elif kind == "buildings":
        assert [p.move for p in plays(f"Ann/Zeus: 2 {name} on IS4\n")] == [fn("build", fn(ident), "IS4")] * 2
        assert [p.move for p in plays(f"Ann/Zeus: demolish {name}\n")] == [fn("demolish", fn(ident))]
    elif kind == "units":
        place = " on IS4" if ident in ("troop", "fleet") else ""
        expected = fn("recruit", fn(ident), "IS4") if place else fn("recruit", fn(ident))
        assert [p.move for p in plays(f"Ann/Zeus: {name}{place}\n")] == [expected]
    elif kind == "colours":
        other = "red" if ident != "red" else "blue"
        t = parse("", f"game: cyclades\nplayers: Ann {name}, Bob {other}\ncycle 1\n")
        assert t.header.players[0].colour == ident
    else:  # pragma: no cover
        pytest.fail(f"unknown kind {kind}")


def test_chinese_names_from_the_seeds():
    assert moves("Ann: 5 on 宙斯\nBob: 阿波罗\nCy: 2 on 波赛顿\nAnn/战神: 2 軍隊 on IS4; 要塞 on IS4\n"
                 "Cy/雅典娜: 哲人; 學院 on IS2; buy 命運三女神; replace 鹰身女妖 -> 海怪\n") == [
        ("Ann", None, fn("offer", fn("zeus"), 5)),
        ("Bob", None, fn("apollo")),
        ("Cy", None, fn("offer", fn("poseidon"), 2)),
        ("Ann", "ares", fn("recruit", fn("troop"), "IS4")),
        ("Ann", "ares", fn("recruit", fn("troop"), "IS4")),
        ("Ann", "ares", fn("build", fn("fortress"), "IS4")),
        ("Cy", "athena", fn("recruit", fn("philosopher"))),
        ("Cy", "athena", fn("build", fn("university"), "IS2")),
        ("Cy", "athena", fn("buy", fn("fates"))),
        ("Cy", "athena", fn("replace", fn("harpy"))),
        ("chance", None, fn("track", 0, fn("kraken"))),
    ]


def test_full_width_punctuation_from_a_chinese_input_method():
    p = plays("Ann/宙斯：祭司；神庙 on IS4；buy 海怪：F5 ？？\ngods：宙斯，雅典娜、战神 / 波塞冬\n")
    assert [x.move for x in p[:4]] == [
        fn("recruit", fn("priest")), fn("build", fn("temple"), "IS4"), fn("buy", fn("kraken")),
        fn("use", fn("kraken"), fn("sea", "F5")),
    ]
    assert p[3].text == "F5" and p[3].disputed
    assert [GodTile.read(x.move).god for x in p[4:]] == [fn("zeus"), fn("athena"), fn("ares"), fn("poseidon")]


def test_full_width_digits_and_letters_read_as_their_ascii_forms_at_the_same_columns():
    """An East Asian keyboard types ３ and ＩＳ４: read as 3 and IS4, one character for
    one, so every position a message gives is where the player typed."""
    written = plays("Ann: ３ on Zeus\nAnn/Zeus: 神庙 on ＩＳ４；２ troops ＩＳ４ -> ＩＳ７\n")
    plain = plays("Ann: 3 on Zeus\nAnn/Zeus: 神庙 on IS4；2 troops IS4 -> IS7\n")
    assert [(x.move, x.span) for x in written] == [(x.move, x.span) for x in plain]
    assert written[0].move == fn("offer", fn("zeus"), 3)


@pytest.mark.parametrize("written, meant", [
    ("Ann/Ares: recruit troop on IS2", "Ann/Ares: troop on IS2"),
    ("Ann/Zeus: build temple on IS1", "Ann/Zeus: temple on IS1"),
    ("Ann/Ares: move troop IS5 to IS4", "Ann/Ares: troop IS5 -> IS4"),
    ("Ann/Ares: move 2 troops from IS5 to IS4", "Ann/Ares: 2 troops IS5 -> IS4"),
    ("Ann/Poseidon: recruit a fleet at C2 ??", "Ann/Poseidon: fleet on C2 ??"),
    ("Ann: offer 5 GP to Zeus", "Ann: 5 on Zeus"),
    ("Ann/Ares: troop on IS2; build a fortress on IS2", "Ann/Ares: troop on IS2; fortress on IS2"),
    ("Ann/Zeus: replace the Harpy with Kraken", "Ann/Zeus: replace Harpy -> Kraken"),
])
def test_a_move_written_in_everyday_words_is_answered_with_its_form_in_the_notation(written, meant):
    """Issue 30: 'recruit troop on IS2' was answered "expected 'on', an island or sea id
    ..., found 'troop'"; the error now offers the nearest line of the notation, one the
    grammar reads."""
    assert f"(did you mean '{meant}'?)" in str(error(HEAD + written + "\n"))


# ------------------------------------------------------------------ errors --

ERRORS = [
    # (name, text, line, column, words the message must contain)
    ("empty file", "", 1, 1, ["empty", "'game: cyclades'"]),
    ("only comments", "# nothing\n\n", 1, 1, ["empty", "'game: cyclades'"]),
    ("no game line", "players: Ann red, Bob blue\n", 1, 1, ["expected 'game: cyclades'", "found 'players: Ann red"]),
    ("another game", "game: chess\nplayers: Ann, Bob\n", 1, 7, ["expected 'game: cyclades'", "found 'chess'"]),
    ("game without name", "game:\n", 1, 6, ["expected 'game: cyclades'", "found nothing"]),
    ("no players line", "game: cyclades\nrules: en\ncycle 1\n", 3, 1, ["no 'players:' line"]),
    ("no players at all", "game: cyclades\n", 1, 1, ["no 'players:' line"]),
    ("colour missing", "game: cyclades\nplayers: Ann, Bob blue\n", 2, 13, ["expected a colour (red, blue, green, yellow, black)", "found ','"]),
    ("unknown colour", "game: cyclades\nplayers: Ann red, Bob purple\n", 2, 23, ["unknown colour 'purple'", "red, blue, green, yellow, black"]),
    ("duplicate player", "game: cyclades\nplayers: Ann red, ANN blue\n", 2, 19, ["'ANN' is declared twice", "'Ann'"]),
    ("duplicate colour", "game: cyclades\nplayers: Ann red, Bob blue, Cy red\n", 2, 32, ["red is already Ann's colour"]),
    ("one player", "game: cyclades\nplayers: Ann red\n", 2, 1, ["2 to 5 players, found 1"]),
    ("six players", "game: cyclades\nplayers: A red, B blue, C green, D yellow, E black, F red\n", 2, 55, ["red is already A's colour"]),
    ("reserved name", "game: cyclades\nplayers: Ann red, Chance blue\n", 2, 19, ["'Chance' cannot be a player's name"]),
    ("long name", "game: cyclades\nplayers: " + "N" * 65 + " red, Bob blue\n", 2, 10, ["at most 64 characters"]),
    ("order names a stranger", "game: cyclades\nplayers: Ann red, Bob blue\norder: Bob, Dan\n", 3, 13, ["'Dan' is not a player", "Ann and Bob"]),
    ("header twice", HEAD.replace("cycle 1\n", "rules: en\nRules: zh-001\ncycle 1\n"), 4, 1, ["a second 'rules:' line", "line 3"]),
    ("header after moves", HEAD + "board: 5p\n", 4, 1, ["header lines come before 'cycle 1'"]),
    ("bad reading name", "game: cyclades\nrules: zh_003\n", 2, 10, ["expected the end of the line", "found '_003'"]),
    ("header after a move without cycle 1", "game: cyclades\nplayers: Ann red, Bob blue\nAnn: 5 on Zeus\nboard: 5p\n",
     4, 1, ["header lines come before 'cycle 1'"]),
    ("cycle 1 after a move without it", "game: cyclades\nplayers: Ann red, Bob blue\nAnn: 5 on Zeus\ncycle 2\ncycle 1\n",
     5, 1, ["expected 'cycle 2' or later", "found 'cycle 1'"]),
    ("cycle 2 first", "game: cyclades\nplayers: Ann red, Bob blue\ncycle 2\n", 3, 1, ["expected 'cycle 1'", "found 'cycle 2'"]),
    ("cycle going back", HEAD + "cycle 2\ncycle 3\ncycle 2\n", 6, 1, ["expected 'cycle 3' or later", "found 'cycle 2'"]),
    ("cycle without number", HEAD + "cycle\n", 4, 6, ["expected a number", "found the end of the line"]),
    ("undeclared player", HEAD + "Dan: 5 on Zeus\n", 4, 1, ["'Dan' is not a player", "Ann, Bob and Cy"]),
    ("undeclared player's turn", HEAD + "Bob: Apollo\nDee/Apollo: pass\n", 5, 1, ["'Dee' is not a player", "Ann, Bob and Cy"]),
    ("unknown god in a bid", HEAD + "Ann: 5 on Zues\n", 4, 11, ["unknown god 'Zues'", "did you mean Zeus?", "a god (Zeus, Athena, Poseidon, Ares, Apollo)"]),
    ("unknown god in a turn", HEAD + "Ann/Hermes: pass\n", 4, 5, ["unknown god 'Hermes'", "a god (Zeus, Athena, Poseidon, Ares, Apollo)"]),
    ("unknown god tile", HEAD + "gods: Zeus, Hera\n", 4, 13, ["unknown god 'Hera'"]),
    ("Apollo as a tile", HEAD + "gods: Zeus, Apollo\n", 4, 13, ["Apollo is always there", "leave it out"]),
    ("Apollo with an offering", HEAD + "Ann: 3 on Apollo\n", 4, 6, ["Apollo takes no offering"]),
    ("god without an offering", HEAD + "Ann: Zeus\n", 4, 6, ["needs an amount", "expected a number before Zeus"]),
    ("action in a bid", HEAD + "Ann: priest\n", 4, 6, ["unknown god 'priest'", "'Ann/Zeus: priest'"]),
    ("actions in a bid", HEAD + "Ann: priest; temple on IS4\n", 4, 12, ["expected '??' or the end of the line", "found ';'", "'Ann/Zeus: priest; temple on IS4'"]),
    ("bid junk", HEAD + "Ann: 5 on Zeus!\n", 4, 15, ["expected '??' or the end of the line", "found '!'"]),
    ("bid without a god", HEAD + "Ann: 5 on\n", 4, 10, ["expected a god (Zeus", "found the end of the line"]),
    ("nothing after the colon", HEAD + "Ann:\n", 4, 5, ["expected an offering ('5 on Zeus'), 'Apollo', or in a battle 'retreat to IS4' or 'stay'", "found the end of the line"]),
    ("turn without god", HEAD + "Ann/: priest\n", 4, 5, ["expected a god (Zeus", "found ':'"]),
    ("empty turn", HEAD + "Ann/Zeus:\n", 4, 10, ["expected a move (priest, 2 troops on IS4", "found the end of the line"]),
    ("empty piece", HEAD + "Ann/Zeus: pass;; pass\n", 4, 16, ["expected a move", "found ';'"]),
    ("unknown creature", HEAD + "Ann/Zeus: buy Pegasis\n", 4, 15, ["unknown creature 'Pegasis'", "did you mean Pegasus?", "Sylph, Pegasus"]),
    ("unknown creature on the track", HEAD + "creatures: Harpy, Hydra\n", 4, 19, ["unknown creature 'Hydra'"]),
    ("unknown new creature", HEAD + "Ann/Zeus: replace Harpy -> Hydra\n", 4, 28, ["unknown creature 'Hydra'"]),
    ("replace without arrow", HEAD + "Ann/Zeus: replace Harpy Kraken Kraken\n", 4, 38, ["expected", "'->'", "found the end of the line"]),
    ("four creatures", HEAD + "creatures: Harpy, Kraken, Sylph, Giant\n", 4, 34, ["3 slots", "found a 4th"]),
    ("empty track line", HEAD + "creatures:\n", 4, 11, ["expected a creature (Sylph", "'-' (an empty slot)"]),
    ("unknown building", HEAD + "Ann/Zeus: tempel on IS4\n", 4, 11, ["unknown unit or building 'tempel'", "did you mean temple?", "priest, philosopher, troop, fleet, port, fortress, temple, university"]),
    ("a creature as a thing", HEAD + "Ann/Zeus: Pegasus\n", 4, 11, ["unknown unit or building 'Pegasus'", "write 'buy Pegasus'"]),
    ("a god as a thing", HEAD + "Ann/Zeus: Ares\n", 4, 11, ["unknown unit or building 'Ares'", "'Ann/Ares:'"]),
    ("building without place", HEAD + "Ann/Zeus: temple\n", 4, 17, ["expected an island id after 'temple'", "'temple on IS4'"]),
    ("troops without place", HEAD + "Ann/Ares: 2 troops\n", 4, 19, ["expected an island id after 'troops'"]),
    ("fleet without place", HEAD + "Ann/Poseidon: fleet; pass\n", 4, 20, ["expected a sea id after 'fleet'", "'fleet on F5'"]),
    ("priest with a place", HEAD + "Ann/Zeus: priest on IS4\n", 4, 21, ["a priest is not put on the board", "found 'IS4'"]),
    ("on without place", HEAD + "Ann/Ares: troop on\n", 4, 19, ["expected an island or sea id (e.g. IS4, F5)", "found the end of the line"]),
    ("place is not an id", HEAD + "Ann/Ares: troop on Naxos\n", 4, 20, ["expected an island or sea id", "found 'Naxos'"]),
    ("count too large", HEAD + "Ann/Ares: 100 troops on IS4\n", 4, 11, ["too many", "1 to 99"]),
    ("count zero", HEAD + "Ann/Ares: 0 troops on IS4\n", 4, 11, ["a count is 1 to 99", "found 0"]),
    ("count alone", HEAD + "Ann/Ares: 3\n", 4, 12, ["expected a unit or building", "found the end of the line"]),
    ("huge offering", HEAD + "Ann: 12345678901234567890 on Zeus\n", 4, 6, ["too large"]),
    ("discard a unit", HEAD + "Ann/Zeus: discard troop IS2\n", 4, 19, ["only a building can be discarded", "port, fortress, temple, university"]),
    ("demolish a unit", HEAD + "Ann/Zeus: demolish priest\n", 4, 20, ["only a building can be demolished"]),
    ("metropolis without place", HEAD + "Ann/Zeus: metropolis\n", 4, 21, ["expected 'on' or an island or sea id", "found the end of the line"]),
    ("a typo in a keyword", HEAD + "cylce 2\n", 4, 7, ["expected ':' or '/'", "found '2'", "a player's"]),
    ("a stray sign at the start", HEAD + "; pass\n", 4, 1, ["expected a new line", "'cycle N'", "found ';'"]),
    ("a tab then junk", HEAD + "\t%\n", 4, 2, ["expected a new line", "found '%'"]),
    ("gods line ends in a slash", HEAD + "gods: Zeus /\n", 4, 13, ["expected a god", "found the end of the line"]),
    ("double disputed", HEAD + "Ann: 3 on Zeus ?? ??\n", 4, 19, ["expected the end of the line", "found '??'"]),
]


@pytest.mark.parametrize("name, text, line, column, words", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_say_where_and_what_was_expected(name, text, line, column, words):
    e = error(text)
    assert (e.position.file, e.position.line, e.position.column) == ("t.cyc", line, column), str(e)
    for word in words:
        assert word in e.message, (word, str(e))
    # the context is the source line with a caret under the column
    source_line = text.replace("\r", "").split("\n")[line - 1]
    shown, caret = e.context.split("\n")
    assert shown == source_line.replace("\t", "\t")
    assert caret == "".join("\t" if c == "\t" else " " for c in source_line[: column - 1]) + "^"
    # no grammar jargon leaks into what a person reads
    for jargon in ("_NL", "PLAYER", "THING", "$END", "Token", "Tree", "lark"):
        assert jargon not in e.message, (jargon, e.message)
    assert str(e).startswith(f"t.cyc:{line}:{column}: error[notation]: ")


def test_error_caret_counts_wide_characters_twice():
    e = error(HEAD + "Ann/宙斯: buy 飞马马\n")
    assert (e.position.line, e.position.column) == (4, 13)
    assert e.context.split("\n")[1] == " " * 4 + "  " * 2 + " " * 6 + "^"


def test_error_on_a_very_long_line_shows_a_window():
    line = "Ann/Zeus: " + "priest; " * 600 + "5 priests on IS4"
    e = error(HEAD + line + "\n")
    shown, caret = e.context.split("\n")
    assert len(shown) < 200 and shown.startswith("…")
    assert shown[len(caret) - 1] == "I"  # the caret is under IS4
    assert e.position.column == line.index("IS4") + 1


# ---------------------------------------------------------- junk in, error out


def _junk():
    rng = random.Random(1)
    yield ""
    yield "\n\n\n"
    yield bytes(rng.randrange(256) for _ in range(4000)).decode("utf-8", errors="replace")
    yield "game: cyclades\n" + bytes(rng.randrange(256) for _ in range(4000)).decode("utf-8", errors="replace")
    yield "game: cyclades\nplayers: " + "A" * 10_000 + " red, Bob blue\ncycle 1\n"
    yield "game: cyclades\nplayers: Ann red, Bob blue\ncycle 1\n" + "Ann/Zeus: buy " + "Harpy " * 2000 + "\n"
    yield "game: cyclades\nplayers: Ann red, Bob blue\ncycle 1\nAnn: " + "9" * 10_000 + " on Zeus\n"
    yield "game: cyclades\nplayers: Ann red, Bob blue\ncycle " + "9" * 5000 + "\n"
    yield "game: cyclades\n" + "x" * 10_000
    yield "\x00\x01\x02game: cyclades"
    yield "game: cyclades\x00\n"
    yield "game: cyclades\nplayers: Ann red, Bob blue\ncycle 1\n\u2028Ann: Apollo\n"
    yield "game: cyclades\nplayers: \ud800 red, Bob blue\ncycle 1\n"
    yield "game: cyclades\nplayers: Ann red, Bob blue\ncycle 1\nAnn/Zeus: buy 🐙\n"
    yield "game: cyclades\nplayers: Ann red, Bob blue\ncycle 1\n" + "Ann/Zeus: pass;" * 3000 + "?\n"
    yield "game: cyclades\nplayers: Ann red, Bob blue\ncycle 1\n" + "((((" * 1000 + "\n"
    yield "game: cyclades\n" * 3
    yield "game: cyclades\nplayers: Ann red, Bob blue\ncycle 1\nAnn/Zeus: 1 2 3 priest\n"
    yield "game: cyclades\nplayers: Ann red, Bob blue\ncycle 1\nAnn/Zeus: replace -> ->\n"
    yield "ＧＡＭＥ： cyclades\n"


@pytest.mark.parametrize("text", list(_junk()), ids=lambda t: repr(t[:30]))
def test_junk_gives_a_notation_error_and_nothing_else(text):
    with pytest.raises(NotationError) as info:
        parse_transcript(text)
    e = info.value
    assert e.position is not None and e.position.line >= 1 and e.position.column >= 1
    assert e.message and "\n" not in e.message[:200]
    str(e)  # printable
    e.to_json()


def test_mangled_transcripts_never_raise_anything_but_notation_error():
    rng = random.Random(7)
    alphabet = "aZ 0;:/,-?#\n\t宙斯；：→>？IS4" + "\r\ufeff\x00"
    survived = 0
    for _ in range(600):
        chars = list(EXAMPLE)
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(chars))
            action = rng.randrange(3)
            if action == 0:
                del chars[at]
            elif action == 1:
                chars.insert(at, rng.choice(alphabet))
            else:
                chars[at] = rng.choice(alphabet)
        try:
            parse_transcript("".join(chars))
            survived += 1
        except NotationError as e:
            assert e.position is not None
    assert survived > 0  # some mutations (inside comments, say) are harmless


# -- movement, battles and stated placements (issue: Cyclades on the board) --------------------

def test_movements_read_as_march_and_sail_terms():
    ms = moves("Ann/Ares: 3 troops IS4 -> IS7\nAnn/Ares: fleet D4 -> D5 +1 -> E6 -1 -> F6")
    assert ms[0][2] == fn("march", "IS4", 3, "IS7")
    assert ms[1][2] == fn("sail", "D4", 1, fn("via", "D5", 1, fn("via", "E6", -1, fn("via", "F6", 0, fn("end")))))


def test_battle_lines_read_as_chance_rounds_with_the_declared_names():
    played = plays("battle: ann 2, Bob -1\nBob: retreat to IS3\nAnn: stay")
    u = fn("u")
    assert (played[0].role, played[0].move) == ("chance", fn("round", fn("side", "Ann", 2, u), fn("side", "Bob", u, 1)))
    assert played[0].text == "ann 2, Bob -1"
    assert [p.move for p in played[1:]] == [fn("retreat", "IS3"), fn("stay")]


@pytest.mark.parametrize("line, words", [
    ("Ann/Ares: 2 troops IS1 -> IS2 -> IS3", "troops move from one island to one other island"),
    ("Ann/Ares: troop IS1 -> IS2 +1", "troops move straight to the island"),
    ("Ann/Poseidon: fleet C2 -> D3 +1", "nothing is picked up or left there"),
    ("Ann/Zeus: temple IS1 -> IS2", "only troops and fleets move"),
    ("Ann/Poseidon: fleet A1" + " -> B2" * 21, "the notation reads at most 20"),
    ("battle: Ann", "expected the face Ann rolled"),
    ("battle: Ann +1", "a loss is written with a minus"),
    ("battle: Ann 1, Bob 2, Ann 3", "a battle has two sides"),
    ("battle: Zed 1", "'Zed' is not a player"),
])
def test_movement_and_battle_errors_say_what_was_expected(line, words):
    assert words in error(HEAD + line + "\n").message


def test_start_lines_state_a_players_placement():
    players = "game: cyclades\nplayers: Ann red, Bob blue, Cy green\n"
    t = parse(head=players + "start: ann IS1, IS4, B2, F5\ncycle 1\n")
    assert [(s.player, s.places) for s in t.header.placements] == [("Ann", ("IS1", "IS4", "B2", "F5"))]
    assert "a second 'start:' line for Ann" in error(players + "start: Ann IS1\nstart: Ann IS2\ncycle 1\n").message
    assert "cannot be a player's name" in error("game: cyclades\nplayers: Start red, Bob blue\n").message


def test_the_sphinx_sales_are_one_use_per_unit():
    """docs/notation.md, Creatures: 'buy Sphinx: 2 troops IS4, fleet F5, priest'."""
    p = plays("Ann/Zeus: buy Sphinx: 2 troops IS4, fleet on F5, priest\n")
    assert [x.move for x in p] == [fn("buy", fn("sphinx"))] + [fn("use", fn("sphinx"), fn("troop", "IS4"))] * 2 + [
        fn("use", fn("sphinx"), fn("fleet", "F5")), fn("use", fn("sphinx"), fn("priest"))]
    assert [x.text for x in p] == ["buy Sphinx", "2 troops IS4", "2 troops IS4", "fleet on F5", "priest"]
    assert p[3].span == Span(4, 37, 4, 48)
    (u,) = plays("Ann/Zeus: use Sphinx: philosopher\n")
    assert u.move == fn("use", fn("sphinx"), fn("philosopher"))


@pytest.mark.parametrize(
    "piece, column, message",
    [
        ("buy Sphinx: 2 temples IS4", 25, "the Sphinx buys troops, fleets, priests and philosophers"),
        ("buy Sphinx: troop", 23, "expected an island id after 'troop'"),
        ("buy Sphinx: troop IS4, priest IS4", 41, "a priest is a card, sold without a place"),
        ("buy Sphinx: troop IS4,, priest", 33, "an empty item in the Sphinx's sales"),
    ],
)
def test_the_sphinx_sales_in_the_wrong_form(piece, column, message):
    with pytest.raises(NotationError) as err:
        plays(f"Ann/Zeus: {piece}\n")
    assert message in err.value.message
    assert (err.value.position.line, err.value.position.column) == (4, column)
