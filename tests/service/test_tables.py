"""Tables (referee/service/tables.py, docs/service.md): a game in progress kept by the
real service in its SQLite file, with a host link and a link per player.

What is tested is what a club relies on: a player's link answers as that
player and never states another player's gold (rule setup_gold: "Each player
starts with 5 GP, kept hidden behind their screen"), whatever the request asks;
a line is stored before it is judged and survives a restart; two phones adding
at once are both kept, or the later one refused — never overwritten; a
correction is a new revision and the old ones stay readable; a line that
cannot be read is marked at its place while the others keep their marks."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import urllib.request

import pytest
from helpers.server import Server, transcript

from referee.ask.session import Session
from referee.game.notation import parse_transcript
from referee.service.tables import SCHEMA, WHOLE_EVERY, Link, Reseating, TableError, TableStore, reseat

UNAFFORDABLE = "cyclades/illegal-offer-unaffordable.txt"
OUTBID = "cyclades/illegal-outbid-too-low.txt"


@pytest.fixture(scope="module")
def server():
    server = Server("--workers", "2")
    yield server
    code, output = server.stop()
    assert code == 0, output


def _table(server, text: str, name: str = "Friday") -> dict:
    created = server.post("/api/tables", {"transcript": text, "name": name})
    assert created.status == 201, created.data
    return created.data


def _links(table: dict) -> dict:
    return {"host": table["host"]["token"], **{p["player"]: p["token"] for p in table["players"]}}


def test_creating_a_table_gives_a_host_link_and_one_unguessable_link_per_player(server):
    table = _table(server, transcript(OUTBID))
    assert [p["player"] for p in table["players"]] == ["Ann", "Bob", "Cy", "Dan", "Eve"]
    tokens = list(_links(table).values())
    assert len(set(tokens)) == 6 and all(re.fullmatch(r"[A-Za-z0-9_-]{24}", t) for t in tokens)  # 144 bits each
    assert table["table"] not in tokens  # the table's id is not a link
    for player, token in _links(table).items():
        view = server.get(f"/api/tables/{token}").data
        assert view["you"] == {"host": player == "host", "player": None if player == "host" else player}
        assert view["transcript"] == transcript(OUTBID) and view["revision"] == 0
        assert ("links" in view) == (player == "host")  # only the host sees the other links
    assert server.get("/api/tables/" + "x" * 24).status == 404
    assert server.get("/api/tables/" + table["table"]).status == 404


def test_a_players_link_never_tells_another_players_gold_whatever_the_request_says(server):
    """Rule setup_gold: each player's gold is behind their screen. Move 23 is Ivo's offering of 5 GP
    that he cannot afford (rule offering_affordable); Hana's link must not give Ivo's exact maximum."""
    text = transcript(UNAFFORDABLE)
    links = _links(_table(server, text))
    library = Session(parse_transcript(text, "Friday"))
    as_hana = library.seen_by("Hana").explain(move=23)
    everything = library.explain(move=23)
    stated = "Ivo has 3 GP and cannot pay the 4 GP this offering comes to"
    assert [b.message for b in everything.breaches] == [stated]  # the referee's view does tell the gold
    hana = server.post(f"/api/tables/{links['Hana']}/explain", {"move": 23})
    assert hana.status == 200, hana.data
    assert [b["message"] for b in hana.data["breaches"]] == ["Ivo cannot afford this offering"]
    # what the rules permit whatever Ivo's gold, less what the verdict rules out (5 GP and more)
    assert hana.data["alternatives"] == list(as_hana.alternatives) == ["offer 4 GP to Ares", "take Apollo"]
    assert hana.data["alternatives_total"] is None
    assert hana.data["request"] == {"rules": None, "as": "Hana", "revision": 0}
    for asked in ({"as": "Ivo"}, {"as": None}):  # asking as Ivo, or as nobody, is refused, not obeyed
        refused = server.post(f"/api/tables/{links['Hana']}/explain", {"move": 23, **asked})
        if asked["as"] is None:  # null is the default: answered as Hana
            assert refused.data["alternatives"] == hana.data["alternatives"]
        else:
            assert refused.status == 403 and refused.data["error"]["code"] == "private"
    check = server.post(f"/api/tables/{links['Hana']}/check", {})
    assert check.data["viewpoint"] == "Hana" and check.data["request"]["as"] == "Hana"
    moves = server.post(f"/api/tables/{links['Hana']}/moves", {"after": 22})
    assert moves.data["control"] == "Ivo" and moves.data["total"] is None
    host = server.post(f"/api/tables/{links['host']}/explain", {"move": 23})
    assert host.data["alternatives"] == list(everything.alternatives) == ["offer 4 GP to Ares", "take Apollo"]
    assert [b["message"] for b in host.data["breaches"]] == [stated]
    host_as_hana = server.post(f"/api/tables/{links['host']}/explain", {"move": 23, "as": "Hana"})
    assert host_as_hana.data["alternatives"] == hana.data["alternatives"]  # the host may look as any player
    assert host_as_hana.data["breaches"] == hana.data["breaches"]


def test_two_phones_adding_at_once_are_both_kept_or_the_later_refused(server):
    head = transcript(OUTBID).split("Ann: 3 on Zeus")[0]
    links = _links(_table(server, head))
    # both saw revision 0 and add their line at the same moment: one is added, the other refused
    answers = {}
    barrier = threading.Barrier(2)

    def add(player, line):
        barrier.wait()
        answers[player] = server.post(f"/api/tables/{links[player]}/lines", {"line": line, "revision": 0})

    threads = [threading.Thread(target=add, args=args) for args in (("Ann", "Ann: 3 on Zeus"),
                                                                     ("Bob", "Bob: 4 on Zeus"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    statuses = sorted(a.status for a in answers.values())
    assert statuses == [201, 409], {p: a.data for p, a in answers.items()}
    (refused,) = [a for a in answers.values() if a.status == 409]
    assert refused.data["error"]["code"] == "conflict" and "nothing was written" in refused.data["error"]["message"]
    assert refused.data["error"]["revision"] == 1
    (added,) = [p for p, a in answers.items() if a.status == 201]
    # without an expected revision, lines sent at once are all kept, in the order they were stored
    lines = [f"# note {n}" for n in range(8)]
    threads = [threading.Thread(target=lambda l=l: server.post(f"/api/tables/{links['Cy']}/lines", {"line": l}))
               for l in lines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    view = server.get(f"/api/tables/{links['host']}").data
    assert view["revision"] == 9
    stored = view["transcript"][len(head):].splitlines()
    assert stored[0] == {"Ann": "Ann: 3 on Zeus", "Bob": "Bob: 4 on Zeus"}[added]
    assert sorted(stored[1:]) == sorted(lines)
    revisions = server.get(f"/api/tables/{links['Eve']}/revisions").data["revisions"]
    assert [r["revision"] for r in revisions] == list(range(10))
    texts = [server.get(f"/api/tables/{links['Eve']}/revisions/{n}").data["transcript"] for n in range(10)]
    assert all(later.startswith(earlier) for earlier, later in zip(texts, texts[1:]))  # appends only


def test_a_line_that_cannot_be_read_is_marked_in_place_and_the_host_corrects_it(server):
    """Rule offering_outbid: "An offering to a god that already has one must be higher than it" """
    head = transcript(OUTBID).split("Ann: 3 on Zeus")[0]
    links = _links(_table(server, head))
    for line in ("Ann: 3 on Zeus", "Bob: 3 on Zues", "Cy: 2 on Ares"):
        assert server.post(f"/api/tables/{links['host']}/lines", {"line": line}).status == 201
    check = server.post(f"/api/tables/{links['Cy']}/check", {})
    assert check.status == 200, check.data
    typo = head.count("\n") + 2
    (unread,) = check.data["unread"]
    assert (unread["line"], unread["column"], unread["text"]) == (typo, len("Bob: 3 on ") + 1, "Bob: 3 on Zues")
    assert "Zues" in unread["message"]
    marked = {m["line"]: m for m in check.data["marks"]}
    assert marked[typo - 1]["text"] == "3 on Zeus" and marked[typo - 1]["legal"]
    assert marked[typo + 1]["text"] == "2 on Ares" and typo not in marked  # the rest keeps its marks
    # a player cannot correct; the host can, as a new revision, and the old one stays readable
    text = server.get(f"/api/tables/{links['host']}").data["transcript"]
    fixed = text.replace("Bob: 3 on Zues", "Bob: 3 on Zeus")
    refused = server.post(f"/api/tables/{links['Bob']}/correct", {"revision": 3, "transcript": fixed})
    assert refused.status == 403 and refused.data["error"]["code"] == "host-only"
    stale = server.post(f"/api/tables/{links['host']}/correct", {"revision": 2, "transcript": fixed})
    assert stale.status == 409
    corrected = server.post(f"/api/tables/{links['host']}/correct", {"revision": 3, "transcript": fixed})
    assert corrected.status == 200 and corrected.data["kind"] == "corrected" and corrected.data["line"] == typo
    assert server.get(f"/api/tables/{links['Bob']}/revisions/3").data["transcript"] == text
    verdict = server.post(f"/api/tables/{links['Bob']}/explain", {"line": typo})
    assert verdict.data["legal"] is False and verdict.data["breaches"][0]["rule"] == "offering_outbid"
    assert verdict.data["request"]["revision"] == 4
    old = server.post(f"/api/tables/{links['Bob']}/check", {"revision": 3})
    assert old.data["request"]["revision"] == 3 and len(old.data["unread"]) == 1
    reading = server.post(f"/api/tables/{links['host']}/correct", {"revision": 4, "rules": "zh-003"})
    assert reading.data["kind"] == "reading" and reading.data["rules"] == "zh-003"
    assert server.post(f"/api/tables/{links['Bob']}/check", {}).data["rules"] == "zh-003"
    bad = server.post(f"/api/tables/{links['host']}/correct", {"revision": 5, "rules": "zh-999"})
    assert bad.status == 422 and "zh-999" in bad.data["error"]["message"]


@pytest.mark.parametrize("line, message", [
    ("", "empty"), ("Ann: 3 on Zeus\nBob: 4 on Zeus", "one line at a time"), ("x" * 501, "at most 500"),
    ("Ann: \x07", "control character")])
def test_a_line_that_is_not_one_line_of_text_is_refused(server, line, message):
    links = _links(_table(server, transcript(OUTBID)))
    answer = server.post(f"/api/tables/{links['Ann']}/lines", {"line": line})
    assert answer.status == 422 and message in answer.data["error"]["message"]
    assert server.get(f"/api/tables/{links['Ann']}/revision").data == {"revision": 0}


def test_a_restart_loses_no_stored_line(tmp_path):
    head = transcript(OUTBID).split("Ann: 3 on Zeus")[0]
    first = Server("--workers", "1", data=tmp_path)
    try:
        links = _links(_table(first, head))
        for line in ("Ann: 3 on Zeus", "Bob: 4 on Zeus"):
            assert first.post(f"/api/tables/{links[line.split(':')[0]]}/lines", {"line": line}).status == 201
    finally:
        assert first.stop()[0] == 0
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:  # one file, WAL: readable by sqlite3 itself
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT COUNT(*) FROM revisions").fetchone()[0] == 3
    second = Server("--workers", "1", data=tmp_path)
    try:
        view = second.get(f"/api/tables/{links['Bob']}").data
        assert view["revision"] == 2 and view["transcript"].endswith("Ann: 3 on Zeus\nBob: 4 on Zeus\n")
        assert second.get(f"/api/tables/{links['host']}/revisions/1").data["transcript"] == head + "Ann: 3 on Zeus\n"
    finally:
        assert second.stop()[0] == 0


def test_the_access_log_never_prints_a_link(tmp_path):
    """A link is a key: whoever reads the laptop's screen (or a log file it is written to) must not
    learn one. Every path with a token is logged as /t/<link> or /api/tables/<link>/..."""
    server = Server("--workers", "1", data=tmp_path)
    try:
        table = _table(server, transcript(OUTBID))
        links = _links(table)
        with urllib.request.urlopen(f"{server.url}/t/{links['Ann']}", timeout=10) as page:  # the page: HTML
            assert page.status == 200
        assert server.get(f"/api/tables/{links['host']}").status == 200
        assert server.get(f"/api/tables/{links['Bob']}/revisions/0?x=1").status == 200
        assert server.get(f"/api/tables/{links['Cy']}x/revision").status == 404  # a wrong link is not logged either
    finally:
        code, output = server.stop()
    assert code == 0, output
    for token in [*links.values(), table["table"]]:
        assert token not in output, output
    assert '"GET /t/<link> HTTP/1.1" 200' in output
    assert '"GET /api/tables/<link> HTTP/1.1" 200' in output
    assert '"GET /api/tables/<link>/revisions/0?x=1 HTTP/1.1" 200' in output
    assert '"GET /api/tables/<link>/revision HTTP/1.1" 404' in output
    assert '"POST /api/tables HTTP/1.1" 201' in output  # a path without a token is logged as it was


def _served_by(server, before: list[dict]) -> tuple[dict, list[dict]]:
    """The worker that answered the one request made since ``before`` (GET /api/status's
    by_worker): its served count went up by one, and no other worker's did. Its counters' change."""
    after = server.get("/api/status").data["by_worker"]
    old = {w["pid"]: w for w in before}
    changed = [w for w in after if w["served"] != old.get(w["pid"], {"served": 0})["served"]]
    assert len(changed) == 1 and changed[0]["served"] == old[changed[0]["pid"]]["served"] + 1, (before, after)
    worker = changed[0]
    cost = {k: worker[k] - old[worker["pid"]][k] for k in ("sessions_built", "solver_calls")}
    return {"pid": worker["pid"], **cost}, after


def test_a_tables_questions_go_to_the_worker_that_holds_it_warm(server):
    """Two workers; two tables growing line by line, asked about in turn. Each table's questions all
    go to one worker (the pool's keys) — also a new revision's, which no worker has seen yet — and a
    question asked again is answered from that worker's session: no game read and judged afresh, no
    solver call."""
    head = transcript(OUTBID).split("Ann: 3 on Zeus")[0]
    tables = [_links(_table(server, head, name)) for name in ("North", "South")]
    workers = server.get("/api/status").data["by_worker"]
    assert len(workers) == 2
    served: dict[int, set] = {0: set(), 1: set()}
    lines = ("Ann: 3 on Zeus", "Bob: 4 on Zeus", "Cy: 2 on Ares")
    # in an uneven order: a pool that merely took the free worker would mix the tables' workers up
    for n, line in ((0, lines[0]), (0, lines[1]), (1, lines[0]), (0, lines[2]), (1, lines[1]), (1, lines[2])):
        links = tables[n]
        player = line.split(":")[0]
        added = server.post(f"/api/tables/{links[player]}/lines", {"line": line})
        assert added.status == 201
        workers = server.get("/api/status").data["by_worker"]  # (a worker read whose line it is)
        costs = []
        for path, body in ((f"{links['host']}/check", {}), (f"{links['host']}/check", {}),
                           (f"{links[player]}/explain", {"line": added.data["line"]})):
            answer = server.post(f"/api/tables/{path}", body)
            assert answer.status == 200 and answer.data["request"]["revision"] == added.data["revision"]
            worker, workers = _served_by(server, workers)
            served[n].add(worker["pid"])
            costs.append(worker)
        new, again, explain = costs
        assert new["sessions_built"] == 1  # the new revision is read and judged (its earlier moves'
        # judgements come from the table's engine, or the disk cache: solver calls are not counted on)
        assert again["sessions_built"] == again["solver_calls"] == 0  # asked again: warm, no solver call
        assert explain["sessions_built"] == 0  # the player's view shares the judged game
    assert len(served[0]) == len(served[1]) == 1, served  # each table: one worker, every time
    held = {w["pid"]: w["tables"] for w in workers}
    assert all(held[pid] >= 1 for pid in served[0] | served[1])


def test_the_links_follow_their_seat_when_the_host_corrects_the_players_line():
    """The rule (tables.reseat): a name kept keeps its link; a name replaced at its place by a name new
    to the line is renamed (the link follows the seat); any other name gone is removed; any other new
    name is added."""
    assert reseat(["Ann", "Bob", "Cy"], ["Ann", "Bobby", "Cy"]) == Reseating(renamed=(("Bob", "Bobby"),))
    assert reseat(["Ann", "Bob", "Cy"], ["Ann", "Cy"]) == Reseating(removed=("Bob",))
    assert reseat(["Ann", "Bob"], ["Ann", "Bob", "Cy"]) == Reseating(added=("Cy",))
    assert reseat(["Ann", "Bob", "Cy"], ["Cy", "Ann", "Bob"]) == Reseating()  # seated elsewhere: same links
    assert reseat(["Ann", "Bob", "Cy"], ["Ann", "Cy", "Dan"]) == Reseating(removed=("Bob",), added=("Dan",))
    assert reseat(["Ann", "Bob", "Cy"], ["Al", "Bob", "Dan", "Eve"]) == Reseating(
        renamed=(("Ann", "Al"), ("Cy", "Dan")), added=("Eve",))


def test_a_renamed_player_keeps_their_link_a_removed_one_loses_it_an_added_one_gets_one(server):
    """Rule setup_gold (each player's gold is behind their screen) holds through corrections of the
    players line: every answer to a link is its seat's view, a removed player's link tells nothing
    more, and every revision stays readable to the host."""
    original = transcript(OUTBID)
    links = _links(_table(server, original))
    host = links["host"]

    def correct(revision: int, text: str) -> dict:
        answer = server.post(f"/api/tables/{host}/correct", {"revision": revision, "transcript": text})
        assert answer.status == 200, answer.data
        return answer.data

    # a rename: Bob is Bobby from now on, and keeps his link
    renamed_text = re.sub(r"\bBob\b", "Bobby", original)
    renamed = correct(0, renamed_text)
    assert renamed["seats"] == {"renamed": [{"from": "Bob", "to": "Bobby"}], "removed": [], "added": []}
    assert renamed["players"] == ["Ann", "Bobby", "Cy", "Dan", "Eve"]
    view = server.get(f"/api/tables/{links['Bob']}").data
    assert view["you"] == {"host": False, "player": "Bobby"} and view["players"] == renamed["players"]
    bobs_line = next(n for n, l in enumerate(renamed_text.splitlines(), 1) if l.startswith("Bobby: 3 on Zeus"))
    explained = server.post(f"/api/tables/{links['Bob']}/explain", {"line": bobs_line})
    assert explained.status == 200 and explained.data["request"]["as"] == "Bobby"
    assert explained.data["breaches"][0]["rule"] == "offering_outbid"  # Bobby's 3 on Zeus does not outbid
    before = server.post(f"/api/tables/{links['Bob']}/check", {"revision": 0})  # revision 0 knew him as Bob
    assert before.status == 200 and before.data["request"]["as"] == "Bob" and not before.data.get("unread")
    assert server.post(f"/api/tables/{links['Bob']}/check", {"as": "Ann"}).status == 403
    host_links = server.get(f"/api/tables/{host}").data["links"]["players"]
    assert [(l["player"], l["token"]) for l in host_links][1] == ("Bobby", links["Bob"])

    # a removal: Eve leaves; her link answers nothing more, hidden figures least of all
    removed_text = renamed_text.replace(", Eve black", "").replace(", Eve\n", "\n")
    removed = correct(1, removed_text)
    assert removed["seats"] == {"renamed": [], "removed": ["Eve"], "added": []}
    for method, path, body in (("GET", "", None), ("GET", "/revisions", None), ("GET", "/revisions/0", None),
                               ("POST", "/check", {}), ("POST", "/explain", {"move": 1}),
                               ("POST", "/moves", {"after": 0}), ("POST", "/board", {}),
                               ("POST", "/lines", {"line": "Eve: 1 on Ares"})):
        answer = server.request(method, f"/api/tables/{links['Eve']}{path}",
                                json.dumps(body).encode() if body is not None else None)
        assert answer.status == 410, (path, answer.data)
        assert answer.data["error"]["code"] == "player-removed"
        assert "Eve is no longer a player of this table" in answer.data["error"]["message"]
    assert "Eve" not in [l["player"] for l in server.get(f"/api/tables/{host}").data["links"]["players"]]

    # an addition: Fay sits down in the seat Eve left, with a link of her own
    added_text = removed_text.replace("Dan yellow", "Dan yellow, Fay black").replace(", Dan\n", ", Dan, Fay\n")
    added = correct(2, added_text)
    (fay,) = added["seats"]["added"]
    assert fay["player"] == "Fay" and fay["token"] not in links.values() and fay["url"] == f"/t/{fay['token']}"
    assert added["seats"]["renamed"] == [] and added["seats"]["removed"] == []
    assert fay in server.get(f"/api/tables/{host}").data["links"]["players"]  # shown to the host
    assert server.get(f"/api/tables/{fay['token']}").data["you"] == {"host": False, "player": "Fay"}
    check = server.post(f"/api/tables/{fay['token']}/check", {})
    assert check.status == 200 and check.data["request"] == {"rules": None, "as": "Fay", "revision": 3}
    earlier = server.post(f"/api/tables/{fay['token']}/check", {"revision": 1})  # before Fay sat down
    assert earlier.status == 403 and earlier.data["error"]["code"] == "not-seated"
    assert server.get(f"/api/tables/{links['Eve']}").status == 410  # a new seat is not the old link's

    # nothing written was lost: every revision readable to the host, as it was
    texts = [server.get(f"/api/tables/{host}/revisions/{n}").data["transcript"] for n in range(4)]
    assert texts == [original, renamed_text, removed_text, added_text]


def test_a_correction_whose_header_cannot_be_read_is_kept_and_leaves_the_links(server):
    links = _links(_table(server, transcript(OUTBID)))
    broken = transcript(OUTBID).replace("players: Ann red", "players: Ann ruby")
    answer = server.post(f"/api/tables/{links['host']}/correct", {"revision": 0, "transcript": broken})
    assert answer.status == 200, answer.data
    assert answer.data["revision"] == 1 and answer.data["players"] == ["Ann", "Bob", "Cy", "Dan", "Eve"]
    players_line = next(n for n, line in enumerate(broken.splitlines(), 1) if line.startswith("players:"))
    assert answer.data["seats"]["unread"]["line"] == players_line
    assert "the links stay as they were" in answer.data["seats"]["unread"]["message"]
    assert server.get(f"/api/tables/{links['Ann']}").data["transcript"] == broken


def test_a_database_of_the_first_schema_is_brought_up_to_seats(tmp_path):
    """A club's tables.sqlite3 written before seats existed: opened by this referee, every link still
    answers as its player, and a rename then moves it."""
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:
        db.executescript("""
            CREATE TABLE tables (id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL,
                                 players TEXT NOT NULL, created REAL NOT NULL);
            CREATE TABLE links (token TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), player TEXT);
            CREATE TABLE revisions (table_id TEXT NOT NULL REFERENCES tables(id), number INTEGER NOT NULL,
                                    text TEXT NOT NULL, rules TEXT, kind TEXT NOT NULL, author TEXT NOT NULL,
                                    line INTEGER, created REAL NOT NULL, PRIMARY KEY (table_id, number));
            INSERT INTO tables VALUES ('t1', 'Friday', 'cyclades', 'Ann' || char(9) || 'Bob', 0);
            INSERT INTO links VALUES ('host-token-0123456789', 't1', NULL), ('ann-token-0123456789', 't1', 'Ann'),
                                     ('bob-token-0123456789', 't1', 'Bob');
            INSERT INTO revisions VALUES ('t1', 0, 'game: cyclades', NULL, 'created', 'host', NULL, 0);
            PRAGMA user_version = 1;""")
    store = TableStore(tmp_path)
    try:
        assert store.link("bob-token-0123456789") == Link("bob-token-0123456789", "t1", "Bob", None)
        assert store.player_at("ann-token-0123456789", 0) == "Ann"
        revision, change, added = store.correct("t1", "game: cyclades\n", 0, players=["Ann", "Bo"])
        assert change == Reseating(renamed=(("Bob", "Bo"),)) and added == []
        bob = "bob-token-0123456789"
        assert store.player_at(bob, 1) == "Bo" and store.player_at(bob, 0) == "Bob"
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA


def _kept_bytes(path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT SUM(LENGTH(text)) FROM revisions").fetchone()[0]


def test_storage_grows_with_the_lines_added_not_with_the_whole_text_each_time(tmp_path):
    """A table of 600 long lines added one by one keeps each line once (and the
    whole text every WHOLE_EVERY revisions), not the whole text per revision; every
    revision still reads back as the text it was."""
    store = TableStore(tmp_path)
    try:
        head = "game: cyclades\nplayers: Ann red, Bob blue\n"
        table = store.create("Friday", "cyclades", ["Ann", "Bob"], head, None)[0].id
        lines = [f"# comment {n} " + "x" * 120 for n in range(600)]
        for line in lines:
            store.append(table, line, "Ann")
        whole = head + "".join(line + "\n" for line in lines)
        assert store.revision(table).text == whole
        for number in (1, 255, 256, 257, 599, 600):
            assert store.revision(table, number).text == head + "".join(line + "\n" for line in lines[:number])
        kept = _kept_bytes(tmp_path / "tables.sqlite3")
        assert kept < len(whole) * (1 + 600 // WHOLE_EVERY + 1)  # 3 whole texts at most, not 600
        assert kept < 0.01 * sum(len(head) + n * 130 for n in range(601))  # what whole texts would have taken
    finally:
        store.close()


def test_a_database_of_whole_texts_is_brought_up_to_lines_added(tmp_path):
    """A tables.sqlite3 of schema 2 (every revision the whole text): opened by this
    referee, each revision reads as before, and the file keeps each line once."""
    store = TableStore(tmp_path)
    try:
        head = "game: cyclades\nplayers: Ann red, Bob blue\n"
        table = store.create("Friday", "cyclades", ["Ann", "Bob"], head, None)[0].id
        for n in range(40):
            store.append(table, f"# note {n} " + "y" * 200, "Bob")
        store.correct(table, store.revision(table).text.replace("# note 3 ", "# note three "), 40)
        texts = [store.revision(table, n).text for n in range(42)]
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:  # as schema 2 wrote it: whole texts, no column
        for number, text in enumerate(texts):
            db.execute("UPDATE revisions SET text = ? WHERE number = ?", (text, number))
        db.execute("ALTER TABLE revisions DROP COLUMN whole")
        db.execute("PRAGMA user_version = 2")
    before = _kept_bytes(tmp_path / "tables.sqlite3")
    store = TableStore(tmp_path)
    try:
        assert [store.revision(table, n).text for n in range(42)] == texts
        store.append(table, "# after", "Ann")
        assert store.revision(table).text == texts[-1] + "# after\n"
    finally:
        store.close()
    assert _kept_bytes(tmp_path / "tables.sqlite3") < before / 10
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA


SECRET = "# Ann keeps 2 GP behind her screen"


def test_the_host_withdraws_a_line_and_no_players_link_reads_it_again(server):
    """Rule setup_gold: each player's gold is behind their screen. Ann types her gold as a comment by
    mistake; the host withdraws the line. From then on no player's link reads it through any endpoint
    (an earlier revision that holds it answers 403 `withdrawn`, naming the revision to read instead),
    the host's link still reads every revision, and the withdrawal is a revision of its own."""
    head = transcript(OUTBID).split("Ann: 3 on Zeus")[0]
    table = _table(server, head)
    links = _links(table)
    for player, line in (("Ann", "Ann: 3 on Zeus"), ("Ann", SECRET), ("Bob", "Bob: 4 on Zeus")):
        assert server.post(f"/api/tables/{links[player]}/lines", {"line": line}).status == 201
    number = head.count("\n") + 2  # the comment's line
    assert server.get(f"/api/tables/{links['host']}").data["transcript"].split("\n")[number - 1] == SECRET

    refused = server.post(f"/api/tables/{links['Ann']}/withdraw", {"revision": 3, "line": number})
    assert refused.status == 403 and refused.data["error"]["code"] == "host-only"
    stale = server.post(f"/api/tables/{links['host']}/withdraw", {"revision": 2, "line": number})
    assert stale.status == 409 and stale.data["error"]["revision"] == 3
    for line in (0, 99):
        assert server.post(f"/api/tables/{links['host']}/withdraw", {"revision": 3, "line": line}).status == 422
    players_line = head.split("\n").index("players: Ann red, Bob blue, Cy green, Dan yellow, Eve black") + 1
    header = server.post(f"/api/tables/{links['host']}/withdraw", {"revision": 3, "line": players_line})
    assert header.status == 422 and header.data["error"]["code"] == "header"

    withdrawn = server.post(f"/api/tables/{links['host']}/withdraw", {"revision": 3, "line": number})
    assert withdrawn.status == 200, withdrawn.data
    assert {k: withdrawn.data[k] for k in ("revision", "kind", "author", "line")} == \
        {"revision": 4, "kind": "withdrawn", "author": "host", "line": number}
    revisions = server.get(f"/api/tables/{links['Bob']}/revisions").data["revisions"]
    assert [(r["revision"], r["kind"], r["author"], r["line"]) for r in revisions][-1] == (4, "withdrawn", "host", number)
    current = server.get(f"/api/tables/{links['Bob']}").data
    assert current["revision"] == 4 and SECRET not in current["transcript"]
    assert current["transcript"].endswith("Ann: 3 on Zeus\nBob: 4 on Zeus\n")

    for player in ("Ann", "Bob", "Eve"):  # the writer of the line too: a player's link is a player's view
        token = links[player]
        answers = [server.get(f"/api/tables/{token}"), server.get(f"/api/tables/{token}/revision"),
                   server.get(f"/api/tables/{token}/revisions")]
        for revision in (None, 0, 1, 2, 3, 4):
            asked = {} if revision is None else {"revision": revision}
            if revision is not None:
                answers.append(server.get(f"/api/tables/{token}/revisions/{revision}"))
            for job, extra in (("check", {}), ("explain", {"move": 1}), ("moves", {}), ("board", {})):
                answers.append(server.post(f"/api/tables/{token}/{job}", {**asked, **extra}))
        for answer in answers:
            assert "2 GP behind" not in json.dumps(answer.data), answer.data
        for revision in (2, 3):  # they held the line: refused, naming the revision to read instead
            for answer in (server.get(f"/api/tables/{token}/revisions/{revision}"),
                           server.post(f"/api/tables/{token}/check", {"revision": revision})):
                assert answer.status == 403 and answer.data["error"]["code"] == "withdrawn", answer.data
                assert answer.data["error"]["revision"] == 4
                assert "read revision 4 instead" in answer.data["error"]["message"]
        for revision in (0, 1, 4):  # they never held it
            assert server.get(f"/api/tables/{token}/revisions/{revision}").status == 200

    for revision in (2, 3):  # nothing a user wrote is lost: the host's link reads every revision
        old = server.get(f"/api/tables/{links['host']}/revisions/{revision}")
        assert old.status == 200 and SECRET in old.data["transcript"]
    checked = server.post(f"/api/tables/{links['host']}/check", {"revision": 3})
    assert checked.status == 200 and checked.data["request"]["revision"] == 3


def test_a_line_withdrawn_twice_over_names_the_first_revision_that_hides_neither(tmp_path):
    store = TableStore(tmp_path)
    try:
        head = "game: cyclades\nplayers: Ann red, Bob blue\n\n"
        table, links = store.create("Friday", "cyclades", ["Ann", "Bob"], head, None)
        ann = links[1]
        for line in ("# Ann has 5 GP", "# Bob has 6 GP"):
            store.append(table.id, line, "Ann")
        store.withdraw(table.id, 5, 2)  # Bob's gold (revision 3)...
        store.withdraw(table.id, 4, 3)  # ...then Ann's (revision 4), from the text without Bob's
        assert store.revision(table.id).text == head
        assert [(w.revision, w.line, w.text) for w in store.withdrawals(table.id)] == \
            [(3, 5, "# Bob has 6 GP"), (4, 4, "# Ann has 5 GP")]
        for number, instead in ((1, 4), (2, 4), (3, 4)):
            with pytest.raises(TableError) as refused:
                store.seen_by(ann, number)
            assert refused.value.code == "withdrawn" and refused.value.extra == {"revision": instead}
        assert store.seen_by(ann, 0).text == head and store.seen_by(ann, 4).text == head
        assert store.seen_by(links[0], 2).text == head + "# Ann has 5 GP\n# Bob has 6 GP\n"  # the host's link
        with pytest.raises(TableError):
            store.withdraw(table.id, 3, 4)  # an empty line: nothing to withdraw
    finally:
        store.close()


def test_a_database_of_schema_3_is_brought_up_to_withdrawals(tmp_path):
    store = TableStore(tmp_path)
    try:
        table = store.create("Friday", "cyclades", ["Ann"], "game: cyclades\nplayers: Ann red\n", None)[0].id
        store.append(table, "# a note", "Ann")
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:  # as schema 3 wrote it: no withdrawals
        db.execute("DROP TABLE withdrawals")
        db.execute("PRAGMA user_version = 3")
    store = TableStore(tmp_path)
    try:
        assert store.revision(table, 1).text.endswith("# a note\n")
        store.withdraw(table, 3, 1)
        assert store.revision(table).text == "game: cyclades\nplayers: Ann red\n"
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA == 4
