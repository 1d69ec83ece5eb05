"""A club's table as an attacker at it sees it (docs/service.md, "Who may write
what"): a player's link that probes another seat's hidden gold through every
endpoint, with random questions and random lines, learns nothing of it.

Rule setup_gold: each player's gold is behind their screen. The same record is
played at three tables that differ only in Hana's gold (a `position:` line adds
to it; every move of Hana's stays legal, so nothing public differs), and Jon's
link asks each table the same things: every answer must be the same at the
three tables, the table's own text aside."""

from __future__ import annotations

import random

import pytest
from helpers.server import Server, transcript

from referee.game.notation import parse_transcript

UNAFFORDABLE = "cyclades/illegal-offer-unaffordable.txt"
#: Hana's gold added at each table: what Jon must not be able to tell apart.
HANAS_GOLD = (1, 8, 40)
GODS = ("Zeus", "Athena", "Ares", "Poseidon")
PROBES = 14


@pytest.fixture(scope="module")
def server():
    server = Server("--workers", "1")
    yield server
    code, output = server.stop()
    assert code == 0, output


def _tables(server) -> list[dict]:
    text = transcript(UNAFFORDABLE)
    assert "board: 3p\n" in text
    tables = []
    for gold in HANAS_GOLD:
        created = server.post("/api/tables", {"transcript": text.replace("board: 3p\n", f"board: 3p\nposition: "
                                                                                      f"Hana {gold} GP\n"),
                                              "name": "Friday"})
        assert created.status == 201, created.data
        tables.append({"host": created.data["host"]["token"],
                       **{p["player"]: p["token"] for p in created.data["players"]}})
    return tables


def _probes(seed: int, moves: int) -> list[tuple[str, dict]]:
    """Random questions and lines of Jon's: about any move, after any move, and
    offerings of his own and in Hana's name, asked about at once (``??``)."""
    rng = random.Random(seed)
    probes: list[tuple[str, dict]] = [("check", {})]
    for _ in range(PROBES):
        kind = rng.choice(("explain", "moves", "board", "own line", "Hana's line"))
        if kind == "explain":
            probes.append(("explain", {"move": rng.randint(1, moves)}))
        elif kind in ("moves", "board"):
            probes.append((kind, {"after": rng.randint(0, moves)}))
        else:
            who = "Jon" if kind == "own line" else "Hana"
            probes.append(("lines", {"line": f"{who}: {rng.randint(1, 45)} on {rng.choice(GODS)} ??"}))
            probes.append(("explain last line", {}))
    return probes


def _ask(server, token: str, kind: str, body: dict, last_line: int | None):
    if kind == "explain last line":
        if last_line is None:
            return "no line was added"
        kind, body = "explain", {"line": last_line}
    answer = server.post(f"/api/tables/{token}/{kind}", body)
    data = {k: v for k, v in answer.data.items() if k not in ("transcript", "created", "table")}  # the table's own
    return answer.status, data


@pytest.mark.parametrize("seed", [1, 2])
def test_a_players_link_learns_nothing_of_another_seats_gold(server, seed):
    tables = _tables(server)
    moves = len(parse_transcript(transcript(UNAFFORDABLE), "Friday").plays)
    last_lines: list[int | None] = [None] * len(tables)
    for kind, body in _probes(seed, moves):
        answers = []
        for n, links in enumerate(tables):
            answer = _ask(server, links["Jon"], kind, body, last_lines[n])
            if kind == "lines" and answer[0] == 201:
                last_lines[n] = answer[1]["line"]
            answers.append(answer)
        assert answers[0] == answers[1] == answers[2], (kind, body)
        if kind == "lines" and body["line"].startswith("Hana"):
            assert answers[0][0] == 403 and answers[0][1]["error"]["code"] == "another-seat"
    # and the tables do differ: the host, who sees everything, tells them apart where Hana decides
    def hosts_view(links, after):
        return server.post(f"/api/tables/{links['host']}/moves", {"after": after}).data
    assert any(hosts_view(tables[0], after) != hosts_view(tables[2], after) for after in range(moves))


def test_a_line_in_another_players_name_is_refused_and_nothing_is_written(server):
    """A player's link writes its own seat's moves and what chance shows; another
    seat's move is refused (403) and the table stays at its revision; the host's
    link writes anyone's."""
    text = transcript(UNAFFORDABLE)
    head = text.split("creatures: Sphinx")[0]
    created = server.post("/api/tables", {"transcript": head, "name": "Saturday"})
    links = {"host": created.data["host"]["token"], **{p["player"]: p["token"] for p in created.data["players"]}}
    assert server.post(f"/api/tables/{links['Jon']}/lines", {"line": "creatures: Sphinx"}).status == 201  # chance
    assert server.post(f"/api/tables/{links['Jon']}/lines", {"line": "gods: Zeus, Athena / Ares, Poseidon"}
                       ).status == 201
    refused = server.post(f"/api/tables/{links['Jon']}/lines", {"line": "Ivo: 4 on Zeus", "revision": 2})
    assert refused.status == 403 and refused.data["error"]["code"] == "another-seat"
    assert "this is Jon's link" in refused.data["error"]["message"] and "Ivo's moves" in refused.data["error"]["message"]
    assert server.get(f"/api/tables/{links['Jon']}/revision").data == {"revision": 2}
    assert server.post(f"/api/tables/{links['Ivo']}/lines", {"line": "Ivo: 4 on Zeus"}).status == 201
    assert server.post(f"/api/tables/{links['host']}/lines", {"line": "Jon: 3 on Athena"}).status == 201
    view = server.get(f"/api/tables/{links['host']}").data
    assert view["transcript"].endswith("Ivo: 4 on Zeus\nJon: 3 on Athena\n") and view["revision"] == 4


@pytest.mark.parametrize("method, path, body", [
    ("GET", "/revisions/9223372036854775808", None),
    ("POST", "/check", {"revision": 2 ** 70}),
    ("POST", "/lines", {"line": "# note", "revision": 2 ** 63}),
])
def test_numbers_out_of_range_are_refused_422_not_a_server_error(server, method, path, body):
    import json

    created = server.post("/api/tables", {"transcript": transcript(UNAFFORDABLE), "name": "Sunday"})
    token = created.data["players"][0]["token"]
    answer = server.request(method, f"/api/tables/{token}{path}", json.dumps(body).encode() if body else None)
    assert answer.status == 422, answer.data


def test_every_answer_keeps_the_page_and_its_links_to_itself(server):
    """The links are bearer tokens in the URL: no other site may frame the page
    or read the link from a referrer, and the page runs only its own script."""
    import urllib.request

    with urllib.request.urlopen(server.url + "/", timeout=10) as page:
        assert page.headers.get_content_type() == "text/html"
        seen = [{k.lower(): v for k, v in page.headers.items()}]
    seen += [server.request("GET", path).headers for path in ("/api/games", "/api/tables/" + "x" * 24)]
    for headers in seen:
        policy = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
        assert headers["referrer-policy"] == "no-referrer" and headers["x-content-type-options"] == "nosniff"


def test_on_a_network_compare_and_status_answer_this_computer_only():
    """A comparison holds a worker for minutes and the status names the workers'
    processes: on a network, both are for the computer running the service (as
    creating a table is); a phone at the table gets 403."""
    from referee.service.network import outgoing_address

    address = outgoing_address()
    if address is None or address.startswith("127."):
        pytest.skip("this computer has no address besides loopback")
    server = Server("--host", "0.0.0.0", "--workers", "1")
    try:
        assert server.get("/api/status").status == 200  # from this computer, by loopback
        remote = Server.__new__(Server)  # the same server, reached by the computer's network address
        remote.url = f"http://{address}:{server.port}"
        for method, path, body in (("GET", "/api/status", None),
                                   ("POST", "/api/compare", b'{"rules": ["en", "zh-003"]}'),
                                   ("POST", "/api/tables", b'{"transcript": "game: cyclades\\n"}')):
            answer = remote.request(method, path, body)
            assert answer.status == 403 and answer.data["error"]["code"] == "table-links-only", (path, answer.data)
            assert "on the computer that runs the service" in answer.data["error"]["message"]
    finally:
        server.stop()


def test_one_link_cannot_fill_a_table_its_requests_are_rate_limited():
    """A link may send LINK_BURST lines or questions at once, then one a second: a
    script on one link is refused 429 rate-limit, with when to retry, and the other
    links go on."""
    from referee.service.limits import LinkRates, RateLimited

    now = [0.0]
    rates = LinkRates(burst=3, interval=2.0, clock=lambda: now[0])
    for _ in range(3):
        rates.spend("ann")
    with pytest.raises(RateLimited) as refused:
        rates.spend("ann")
    assert refused.value.retry_after == 2 and "more than 3 requests" in str(refused.value)
    rates.spend("bob")  # another link has its own share
    now[0] = 2.0  # one request's worth comes back every interval
    rates.spend("ann")
    with pytest.raises(RateLimited):
        rates.spend("ann")


def test_a_link_past_its_share_is_answered_429_and_the_table_keeps_its_lines(server):
    from referee.service.limits import LINK_BURST

    created = server.post("/api/tables", {"transcript": transcript(UNAFFORDABLE), "name": "Monday"})
    jon, ivo = (next(p["token"] for p in created.data["players"] if p["player"] == name) for name in ("Jon", "Ivo"))
    statuses = [server.post(f"/api/tables/{jon}/lines", {"line": f"# note {n}"}).status
                for n in range(LINK_BURST + 5)]
    assert statuses.count(201) >= LINK_BURST and statuses[-1] == 429
    refused = server.post(f"/api/tables/{jon}/lines", {"line": "# one more"})
    assert refused.status == 429 and refused.data["error"]["code"] == "rate-limit"
    assert int(refused.headers["retry-after"]) >= 1
    assert server.post(f"/api/tables/{ivo}/lines", {"line": "# Ivo's own"}).status == 201
    assert server.get(f"/api/tables/{jon}/revision").data["revision"] == statuses.count(201) + 1


def test_a_full_table_says_so_and_what_the_host_can_do():
    text = transcript(UNAFFORDABLE)
    server = Server("--workers", "1", "--max-bytes", str(len(text.encode()) + 40))
    try:
        created = server.post("/api/tables", {"transcript": text, "name": "Tuesday"})
        jon = next(p["token"] for p in created.data["players"] if p["player"] == "Jon")
        assert server.post(f"/api/tables/{jon}/lines", {"line": "# short"}).status == 201
        full = server.post(f"/api/tables/{jon}/lines", {"line": "# a comment too long for what is left"})
        assert full.status == 413 and full.data["error"]["code"] == "table-full"
        assert "nothing was written" in full.data["error"]["message"] and "--max-bytes" in full.data["error"]["message"]
        assert server.get(f"/api/tables/{jon}/revision").data["revision"] == 1
    finally:
        server.stop()


def test_the_moves_as_lines_are_a_players_own_only(server):
    """The alternatives as lines of the notation tell the exact offerings a player can pay for: a
    player's link gets them for its own seat's decisions, never for another seat's (screened)."""
    links = _tables(server)[0]
    plays = parse_transcript(transcript(UNAFFORDABLE)).plays
    hanas = next(n for n, play in enumerate(plays, start=1) if play.text == "2 on Ares")  # Hana decides before it
    as_jon = server.post(f"/api/tables/{links['Jon']}/moves", {"after": hanas - 1}).data
    assert as_jon["control"] == "Hana" and "alternative_lines" not in as_jon
    assert "alternative_lines" not in server.post(f"/api/tables/{links['Jon']}/explain", {"move": hanas}).data
    as_hana = server.post(f"/api/tables/{links['Hana']}/moves", {"after": hanas - 1}).data
    assert "Hana: 2 on Ares" in as_hana["alternative_lines"]["lines"]
    host = server.post(f"/api/tables/{links['host']}/explain", {"move": hanas}).data
    assert "Hana: 1 on Ares" in host["alternative_lines"]["lines"]
