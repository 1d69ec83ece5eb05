"""A table's links as the phones at the table open them (docs/service.md, "A
table on a club's network"): each player's link is a whole address the phones
can reach, with a QR code of it, and the host's link is kept apart."""

from __future__ import annotations

import urllib.parse
import urllib.request

import pytest
from helpers.server import Server, transcript

from referee.service.network import outgoing_address

OUTBID = "cyclades/illegal-outbid-too-low.txt"


def _open(url: str, host: str | None = None) -> tuple[int, str, str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, answer.headers.get_content_type(), answer.read().decode("utf-8")


def _a_table(server) -> dict:
    created = server.post("/api/tables", {"transcript": transcript(OUTBID), "name": "Friday"})
    assert created.status == 201, created.data
    return created.data


def test_on_a_club_network_the_links_open_from_another_computer():
    """Listening on every address, the links name this computer's address on the
    network: opened from there (not loopback: the way a phone comes in), a
    player's link gives the page and the table as that player sees it."""
    address = outgoing_address()
    if address is None or address.startswith("127."):
        pytest.skip("this computer has no address besides loopback")
    server = Server("--host", "0.0.0.0", "--workers", "1")
    try:
        table = _a_table(server)  # created on this computer, by loopback
        ann = table["players"][0]
        assert ann["link"] == f"http://{address}:{server.port}/t/{ann['token']}"
        assert ann["qr"].startswith("data:image/svg+xml") and "<svg" in urllib.parse.unquote(ann["qr"])
        assert table["host"]["link"].endswith(table["host"]["url"]) and "qr" not in table["host"]
        status, kind, page = _open(ann["link"])
        assert status == 200 and kind == "text/html" and "/web/app.js" in page
        status, _, view = _open(f"http://{address}:{server.port}/api/tables/{ann['token']}")
        assert status == 200 and '"player":"Ann"' in view.replace(" ", "")
    finally:
        server.stop()


def test_a_public_url_is_what_the_links_start_with_and_a_name_the_service_answers():
    server = Server("--workers", "1", "--public-url", "http://club.example:8123/")
    try:
        table = _a_table(server)
        assert [p["link"] for p in table["players"]] == [f"http://club.example:8123/t/{p['token']}"
                                                         for p in table["players"]]
        status, _, _ = _open(server.url + table["players"][0]["url"], host="club.example:8123")
        assert status == 200  # the public name is accepted in the Host header
    finally:
        server.stop()


@pytest.mark.parametrize("url", ["club.example", "ftp://club.example/", "http://", "http://club.example/?x=1"])
def test_a_public_url_a_phone_cannot_open_is_refused_at_once(url):
    from click.testing import CliRunner

    from referee.cli import main

    result = CliRunner().invoke(main, ["serve", "--public-url", url])
    assert result.exit_code == 2 and "--public-url" in result.output and "not an address" in result.output
