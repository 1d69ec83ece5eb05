"""The HTTP API against the real service on loopback (``referee serve``): the
answers are the referee's (the same as the library's), errors are JSON with a
code, a message and a position, a malformed request is a 4xx and never a 500,
requests are bounded in size and time, and the solver's work does not hold up
other requests."""

from __future__ import annotations

import http.client
import json
import threading
import time
from importlib import resources

import pytest
from helpers.server import Server, transcript

from referee.ask.report import verdict_json
from referee.ask.session import Session
from referee.game.catalogue import load_catalogue
from referee.game.notation import parse_transcript
from referee.game.readings import load_readings

OUTBID = "cyclades/illegal-outbid-too-low.txt"
REPLACE = "cyclades/illegal-replace-not-zeus.txt"
UNAFFORDABLE = "cyclades/illegal-offer-unaffordable.txt"


@pytest.fixture(scope="module")
def server():
    server = Server("--workers", "2", "--max-bytes", "200000")
    yield server
    code, output = server.stop()
    assert code == 0, output
    assert "Application shutdown complete" in output  # graceful: the lifespan ended, the workers stopped


def _session(name: str) -> Session:
    return Session(parse_transcript(transcript(name), name))


def _error(answer, status: int, code: str) -> dict:
    assert answer.status == status, answer.data
    assert set(answer.data) == {"error"}
    assert answer.data["error"]["code"] == code
    assert answer.data["error"]["message"]
    return answer.data["error"]


# -- the answers -----------------------------------------------------------------------------


def test_the_openapi_document_lists_every_endpoint(server):
    document = server.get("/openapi.json")
    assert document.status == 200
    assert {"/api/check", "/api/explain", "/api/moves", "/api/board", "/api/compare", "/api/games",
            "/api/readings"} <= \
        set(document.data["paths"])
    explain = document.data["paths"]["/api/explain"]["post"]["requestBody"]["content"]["application/json"]
    assert explain["schema"]


def test_check_answers_as_the_library_does(server):
    answer = server.post("/api/check", {"transcript": transcript(UNAFFORDABLE), "name": UNAFFORDABLE})
    assert answer.status == 200
    expected = _session(UNAFFORDABLE).check().to_json()
    marks = answer.data.pop("marks")
    assert answer.data.pop("viewpoint") is None
    assert answer.data.pop("request") == {"rules": None, "as": None, "revision": None}
    assert answer.data == expected
    illegal = [m for m in marks if not m["legal"]]
    assert [(m["number"], m["line"], m["text"]) for m in illegal] == [(23, 32, "5 on Ares")]
    assert [m["number"] for m in marks] == list(range(1, len(marks) + 1))


def test_explain_names_the_rule_in_english_and_in_the_reading(server):
    """Rule offering_outbid: "An offering to a god that already has one must be higher than it" """
    answer = server.post("/api/explain", {"transcript": transcript(OUTBID), "line": _first_illegal_line(OUTBID),
                                          "rules": "zh-003"})
    assert answer.status == 200, answer.data
    assert answer.data["legal"] is False
    (breach,) = [b for b in answer.data["breaches"] if b["rule"] == "offering_outbid"]
    entry = load_catalogue("cyclades").rule("offering_outbid")
    assert breach["en"] == entry.en and breach["reading"] == "zh-003"
    assert breach["translation"] == entry.sentence("zh-003") != ""
    assert answer.data["alternatives"] and answer.data["alternatives_for"] == answer.data["player"]


def test_explain_of_a_line_answers_the_moves_the_report_flags_there(server):
    """As `referee explain FILE:LINE` does: Lou's line 18 starts with a legal
    philosopher; the replacement after it is what breaks rule replace_god ("Only a
    player with Zeus may replace a creature of the track"), and is the answer. With
    a second flagged move on the line (a priest under Athena, rule recruit_god),
    the answer is the first and ``line_verdicts`` holds both, in the order written."""
    text = transcript(REPLACE)
    answer = server.post("/api/explain", {"transcript": text, "line": 18})
    assert answer.status == 200, answer.data
    assert (answer.data["legal"], answer.data["text"]) == (False, "replace Harpy -> Kraken")
    assert [b["rule"] for b in answer.data["breaches"]] == ["replace_god"]
    assert "line_verdicts" not in answer.data
    two = text.replace("replace Harpy -> Kraken", "replace Harpy -> Kraken; priest")
    answer = server.post("/api/explain", {"transcript": two, "line": 18})
    assert answer.status == 200, answer.data
    assert answer.data["text"] == "replace Harpy -> Kraken"
    assert [(v["text"], [b["rule"] for b in v["breaches"]]) for v in answer.data["line_verdicts"]] == [
        ("replace Harpy -> Kraken", ["replace_god"]), ("priest", ["recruit_god"])]
    assert answer.data["line_verdicts"] == [verdict_json(v) for v in Session(parse_transcript(two, "transcript.txt")).explain_line(18)]


def _first_illegal_line(name: str) -> int:
    return _session(name).check().problems[0].line


def test_moves_and_board_after_a_move(server):
    text = transcript(UNAFFORDABLE)
    moves = server.post("/api/moves", {"transcript": text, "after": 22})
    assert moves.status == 200
    who, groups, total, number, complete = _session(UNAFFORDABLE).moves(after=22)
    assert (moves.data["control"], moves.data["moves"], moves.data["total"]) == (who, groups, total) == \
        ("Ivo", groups, total)
    board = server.post("/api/board", {"transcript": text, "after": 22, "name": "game.txt"})
    assert board.status == 200
    assert "<svg" in board.data["svg"][:100] and "after move 22 of game.txt" in board.data["svg"]
    assert board.data["svg"] == Session(parse_transcript(text, "game.txt")).picture(22)


def test_readings_are_the_catalogues(server):
    answer = server.get("/api/readings?game=cyclades")
    assert answer.status == 200
    assert [r["reading"] for r in answer.data["readings"]] == list(load_catalogue("cyclades").readings)
    games = server.get("/api/games")
    assert {g["game"] for g in games.data["games"]} == {"cyclades", "luna"}
    _error(server.get("/api/readings?game=chess"), 404, "unknown-game")


def test_readings_name_their_variants_with_provenance(server):
    """As `referee rules cyclades --json`: each reading's variant modules, each variant's seed sentence."""
    answer = server.get("/api/readings?game=cyclades").data
    encoded = load_readings("cyclades")
    for reading in answer["readings"]:
        assert reading["variants"] == list(encoded.reading(reading["reading"]).variants)
    assert answer["readings"][0] == {"reading": "en", "language": "en", "source": "the official English rulebook",
                                     "variants": []}
    assert {v["id"] for v in answer["variants"]} == set(encoded.variants)
    assert all(v["sources"] and all(s["zh"] and s["en"] for s in v["sources"]) for v in answer["variants"])


@pytest.mark.slow
def test_compare_finds_where_two_readings_disagree(server):
    """`referee compare cyclades --rules en --rules zh-003` as a request: every variant of seed 003's reading
    (fleets retreat to any space of theirs, the Sylph's 10 spaces shared, ...) comes out, each with a witness.
    (The search itself, for every translation, is tests/compare/test_compare.py's; zh-003's is the shortest.)"""
    answer = server.post("/api/compare", {"rules": ["en", "zh-003"]}, timeout=150)  # bounded by --compare-time-limit
    assert answer.status == 200, answer.data
    assert answer.data["agree"] is False and answer.data["readings"] == ["en", "zh-003"]
    found = {v for d in answer.data["disagreements"] for v in d["variants"]}
    assert found == set(load_readings("cyclades").reading("zh-003").variants)


@pytest.mark.parametrize("body, status, code", [
    ({"rules": ["en"]}, 422, "request"),
    ({"rules": ["en", "zh-001"], "seconds": 0}, 422, "request"),
    ({"rules": ["en", "zh-999"]}, 422, None),
    ({"rules": ["en", "zh-001"], "game": "chess"}, 422, None),
])
def test_a_malformed_compare_request_is_a_4xx(server, body, status, code):
    answer = server.post("/api/compare", body)
    assert answer.status == status, answer.data
    assert answer.data["error"]["message"]
    if code:
        assert answer.data["error"]["code"] == code


def test_the_page_and_its_files_are_served(server):
    for path in ("/", "/web/app.js", "/web/style.css"):
        request = server.request  # the page is not JSON: read it raw
        import urllib.request
        with urllib.request.urlopen(server.url + path, timeout=10) as response:
            assert response.status == 200
            expected = "index.html" if path == "/" else path.split("/")[-1]
            assert response.read().decode() == resources.files("referee").joinpath("service", "web", expected).read_text()
    _error(server.get("/web/../pyproject.toml"), 404, "http")
    _error(server.get("/web/secret.txt"), 404, "http")


# -- errors: JSON, a position where there is one, 4xx for anything malformed -------------------------


def test_a_transcript_that_cannot_be_read_gives_its_line_and_column(server):
    text = transcript(OUTBID).replace("cycle 1", "cycle 1\nAnn: 3 on Zues", 1)
    error = _error(server.post("/api/check", {"transcript": text, "name": "t.txt"}), 422, "notation")
    line = text.splitlines().index("Ann: 3 on Zues") + 1
    assert (error["file"], error["line"], error["column"]) == ("t.txt", line, len("Ann: 3 on ") + 1)
    assert "Zues" in error["message"]


@pytest.mark.parametrize("body, status", [
    (b"{not json", 400),
    (b"", 422),
    (b"[1, 2]", 422),
    (b'{"transcript": 3}', 422),
    (b'{"transcript": "x", "move": "3"}', 422),
    (b'{"transcript": "x", "move": 0}', 422),
    (b'{"transcript": "x", "move": -4}', 422),
    (b'{"transcript": "x", "move": 1e400}', 422),
    (b'{"transcript": "x", "move": 123456789012345678901234567890}', 422),
    (b'{"transcript": "x", "move": 2, "line": 3}', 422),
    (b'{"transcript": "x"}', 422),
    (b'{"transcript": "x", "move": 1, "colour": "red"}', 422),
    (b'{"move": 1}', 422),
    (b'{"transcript": "x", "move": 1, "as": ["Ann"]}', 422),
    (b'\xff\xfe{"transcript"', 400),
    (b'{"transcript": "game: cyclades\\nplayers: A\\ud800 red, Bob blue\\n", "move": 1}', 422),
    (b'{"transcript": "x", "move": 1, "as": "\\udfff"}', 422),
])
def test_malformed_requests_are_4xx_json(server, body, status):
    answer = server.request("POST", "/api/explain", body)
    _error(answer, status, "request")


@pytest.mark.parametrize("change, code, line", [
    ({"transcript": "game: chess\nplayers: Ann, Bob\n"}, "notation", 1),
    ({"rules": "zh-999"}, "reading", None),
    ({"as": "Zed"}, "notation", next(i for i, t in enumerate(transcript(OUTBID).splitlines(), 1) if t.startswith("players:"))),
    ({"move": 99_999}, "option", None),
    ({"transcript": "game: cyclades\nplayers: Ann red, Bob blue\nboard: /etc/passwd.toml\n"}, "board", 3),
    ({"transcript": "game: cyclades\nplayers: Ann red, Bob blue\nboard: ../../secret.toml\n"}, "board", 3),
])
def test_requests_the_referee_cannot_answer_are_422_with_a_position(server, change, code, line):
    request = {"transcript": transcript(OUTBID), "move": 1, **change}
    error = _error(server.post("/api/explain", request), 422, code)
    if line is not None:
        assert error["line"] == line and error["column"] >= 1


def test_lunas_board_after_a_move_is_its_picture(server):
    """Every shipped game draws its board (referee/games/luna/draw.py); the page
    asks /api/board for any game alike."""
    text = transcript("luna/game-2p.txt")
    board = server.post("/api/board", {"transcript": text, "after": 5, "name": "game-2p.txt"})
    assert board.status == 200 and board.data["after_move"] == 5
    assert 'class="island" data-island="7"' in board.data["svg"] and "after move 5 of game-2p.txt, round 1" in \
        board.data["svg"]
    assert board.data["svg"] == Session(parse_transcript(text, "game-2p.txt")).picture(5)


def test_unknown_paths_and_methods_are_json(server):
    _error(server.get("/api/nothing"), 404, "http")
    _error(server.get("/api/check"), 405, "http")


def test_a_transcript_over_the_size_bound_is_refused_with_the_bound(server):
    text = transcript(OUTBID) + "# " + "x" * 200_000 + "\n"
    error = _error(server.post("/api/check", {"transcript": text}), 413, "too-large")
    assert "at most 200000 bytes" in error["message"] and "--max-bytes" in error["message"]


def test_a_huge_body_is_refused_before_it_is_read(server):
    """A body declared larger than the bound is answered at once, unread."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.putrequest("POST", "/api/check")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", str(50_000_000))
    connection.endheaders()  # not one byte of the body is sent
    response = connection.getresponse()
    assert response.status == 413
    error = json.loads(response.read())["error"]
    assert error["code"] == "too-large" and "bound of 1216384 bytes" in error["message"]
    connection.close()


def test_a_huge_body_without_a_length_is_cut_off_at_the_bound(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    chunks = [b'{"transcript": "'] + [b"x" * 65536] * 20 + [b'"}']  # 1.3 MB, chunked
    try:
        connection.request("POST", "/api/check", body=iter(chunks), encode_chunked=True,
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
    except (BrokenPipeError, ConnectionResetError):
        pytest.skip("the server closed the connection before the client read the answer")
    assert response.status == 413
    assert json.loads(response.read())["error"]["code"] == "too-large"
    connection.close()


# -- several requests at once ----------------------------------------------------------------------


def _in_thread(func):
    result = {}

    def run():
        result["answer"] = func()
        result["done"] = time.monotonic()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, result


def test_a_slow_request_does_not_hold_up_a_fast_one(server):
    slow_text = transcript("cyclades/battles-5p.txt")
    # a name not asked about before: the workers judge the whole game afresh
    slow, slow_result = _in_thread(lambda: server.post("/api/check", {"transcript": slow_text,
                                                                      "name": f"slow-{time.time()}.txt"}))
    time.sleep(0.2)
    fast_started = time.monotonic()
    games = server.get("/api/games")  # no solver: the event loop answers at once
    fast = server.post("/api/moves", {"transcript": transcript(OUTBID), "after": 0})  # the other worker
    fast_done = time.monotonic()
    slow.join(timeout=120)
    assert games.status == 200 and fast.status == 200
    assert slow_result["answer"].status == 200, slow_result["answer"].data
    assert fast_done < slow_result["done"], (fast_done - fast_started, slow_result["answer"].seconds)


def test_the_solver_time_bound_is_a_clear_error_and_the_service_goes_on():
    server = Server("--workers", "1", "--time-limit", "0.1")
    try:
        error = _error(server.post("/api/check", {"transcript": transcript("cyclades/battles-5p.txt")}),
                       422, "solver-limit")
        assert "bound of 0.1 s" in error["message"] and "--time-limit" in error["message"]
        # the worker was replaced: the next request is answered (within the bound or by the same error)
        after = server.post("/api/moves", {"transcript": transcript(OUTBID), "after": 0}, timeout=60)
        assert after.status == 200 or after.data["error"]["code"] == "solver-limit"
        assert server.get("/api/games").status == 200
    finally:
        code, output = server.stop()
    assert code == 0, output


def test_ctrl_c_finishes_the_requests_in_flight_then_stops():
    server = Server("--workers", "1")
    try:
        slow, result = _in_thread(lambda: server.post("/api/check", {"transcript": transcript("cyclades/game-5p.txt")}))
        time.sleep(0.3)  # the check is being judged
        server.interrupt()
        slow.join(timeout=120)
    finally:
        code, output = server.stop()
    written = len(parse_transcript(transcript("cyclades/game-5p.txt")).plays)
    assert result["answer"].status == 200 and result["answer"].data["moves_checked"] == written
    assert code == 0 and "Application shutdown complete" in output
    assert "Traceback" not in output, output


def test_a_tolerant_check_of_a_record_that_cannot_be_followed_reports_where_it_stops(server):
    """As `referee check --json` (docs/report.md): the moves judged before the line from which the
    record cannot be followed (no 'creatures:' line before the first offering), and `error` with its
    place; without `tolerant` the service answers the error alone, 422."""
    text = transcript(OUTBID).replace("creatures: Harpy\n", "")
    stop = text.splitlines().index("Ann: 3 on Zeus") + 1
    answer = server.post("/api/check", {"transcript": text, "tolerant": True})
    assert answer.status == 200, answer.data
    error = answer.data["error"]
    assert (error["code"], error["line"], error["column"]) == ("sequence", stop, 6)
    assert "the creature track is not written" in error["message"] and answer.data["legal"] is False
    assert answer.data["marks"] and all(mark["line"] < stop for mark in answer.data["marks"])
    assert answer.data["assumptions"] == []
    _error(server.post("/api/check", {"transcript": text}), 422, "sequence")
