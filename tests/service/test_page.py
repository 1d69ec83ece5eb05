"""The page for a table, end to end in a real browser: Debian's headless
Chromium driven by playwright (its wheel carries the driver; no browser is
downloaded), against the real service on loopback. Screenshots are kept in
test-artifacts/.

Without /usr/bin/chromium the tests are skipped, except under CI=true, where a
missing browser is a failure (.ci/run installs it)."""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers.server import ROOT, Server

from referee.game.catalogue import load_catalogue

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
OUTBID = ROOT / "transcripts" / "cyclades" / "illegal-outbid-too-low.txt"
UNAFFORDABLE = ROOT / "transcripts" / "cyclades" / "illegal-offer-unaffordable.txt"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: CI must install Debian's chromium (.ci/run does)")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium); the page tests need Debian's Chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:  # launch() gives the browser a fresh, temporary profile
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def server():
    server = Server("--workers", "2")
    yield server
    server.stop()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    refused = []  # what the page's Content-Security-Policy refused: the page must need nothing it forbids
    page.on("console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text
            else None)
    page.set_default_timeout(30_000)
    page.goto(server.url + "/")
    yield page
    context.close()
    assert not refused, refused


def _until(page, expression: str, timeout: float = 30.0) -> None:
    """Wait until ``expression`` holds in the page. The page's Content-Security-Policy
    runs only its own script, so a predicate is evaluated from outside the page (as
    the browser's developer tools do) rather than compiled inside it, which the
    policy forbids (playwright's wait_for_function does that)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never came to: {expression}")
        time.sleep(0.05)


def _screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")
    return path


def _load(page, path: Path) -> None:
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#status.illegal, #status.legal")


def test_a_table_loads_a_game_clicks_the_illegal_move_and_reads_why(page):
    """Rule offering_outbid: "An offering to a god that already has one must be higher than it;
    only the highest offering stands." """
    _load(page, OUTBID)
    status = page.text_content("#status")
    assert "1 illegal" in status and "disputed" not in status
    line = OUTBID.read_text(encoding="utf-8").splitlines().index('Bob: 3 on Zeus            # "same as Ann, we share?" -- no') + 1
    illegal = page.locator(f'#lines li[data-line="{line}"]')
    assert "illegal" in illegal.get_attribute("class")
    assert "offering_outbid: Bob must offer more than the standing 3 GP" in illegal.text_content()
    legal = page.locator("#lines li.move.legal code").all_text_contents()  # the other move lines, marked legal
    assert [text.split(":")[0] for text in legal] == ["creatures", "gods", "Ann"]

    page.select_option("#reading", "zh-003")  # the translation in use at this table
    _until(page, "document.querySelector('#status').textContent.includes('rules: zh-003')")
    page.locator(f'#lines li[data-line="{line}"]').click()
    page.wait_for_selector("#breaches li.breach")
    entry = load_catalogue("cyclades").rule("offering_outbid")
    assert page.text_content("#verdict") == "ILLEGAL: offer 3 GP to Zeus"
    assert page.text_content("#breaches .rule-id") == "offering_outbid"
    assert page.text_content("#breaches .rule-en") == f"rule (en): {entry.en}"
    assert page.text_content("#breaches .rule-translation") == f"rule (zh-003): {entry.sentence('zh-003')}"
    alternatives = page.locator("#alternatives li").all_text_contents()
    assert "offer 4-7 GP to Zeus" in alternatives and "take Apollo" in alternatives
    assert "(Bob)" in page.text_content("#alternatives-title")
    _until(page, "document.querySelector('#board').complete && "
                           "document.querySelector('#board').naturalWidth > 0")
    assert page.text_content("#board-caption") == "The position after move 7."  # a card, 4 god tiles, Ann, Bob
    assert "selected" in page.locator(f'#lines li[data-line="{line}"]').get_attribute("class")
    _screenshot(page, "page-explained.png")
    page.locator(f'#lines li[data-line="{line - 1}"]').click()  # Ann's 3 on Zeus, legal: it stands
    _until(page, "document.querySelector('#verdict').textContent.startsWith('LEGAL')")
    assert page.text_content("#alternatives-title") == "What may be done here (Ann)"


def test_the_page_on_a_phone_keeps_hidden_gold_hidden(browser, server):
    """Rule setup_gold: "Each player starts with 5 GP, kept hidden behind their screen." """
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    page = phone.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(server.url + "/")
        _load(page, UNAFFORDABLE)
        page.select_option("#viewpoint", "Hana")
        _until(page, "document.querySelector('#status').textContent.includes('as Hana')")
        page.locator("#lines li.move.illegal").first.tap()
        page.wait_for_selector("#alternatives li")
        assert page.locator("#alternatives li").all_text_contents() == ["offer 4 GP to Ares", "take Apollo"]
        assert "Ivo cannot afford this offering" in page.text_content("#breaches")
        assert "Ivo has" not in page.text_content("#breaches")
        # one column: nothing wider than the screen, the explanation right under the tapped line, in view
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        tapped = page.locator("#lines li.move.illegal").first.bounding_box()
        detail = page.locator("#detail").bounding_box()
        assert tapped["y"] + tapped["height"] <= detail["y"] <= tapped["y"] + tapped["height"] + 20
        assert detail["width"] <= 390 and 0 <= detail["y"] < 844  # in view, not screens below
        # the board zooms, and its legend is text of the page (readable at any size)
        page.wait_for_selector("#board-legend li")
        legend = page.locator("#board-legend li").all_text_contents()
        assert any("Hana" in item for item in legend), legend
        assert page.locator("#board-legend").evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 14
        width = page.locator("#board").bounding_box()["width"]
        page.locator("#zoom-in").tap()
        page.locator("#zoom-in").tap()
        assert page.locator("#board").bounding_box()["width"] >= 1.9 * width
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the picture scrolls in its frame
        _screenshot(page, "page-phone.png")
        assert _phone_faults(page) == []
    finally:
        phone.close()


#: What a phone needs of every control it shows (the platforms' guidelines: a
#: target of 44 px at least; a text field under 16 px makes iOS zoom into it).
PHONE_FAULTS = """() => {
  const faults = [];
  const shown = (e) => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden';
  for (const e of document.querySelectorAll('button, select, input[type=text], #lines li.move, summary')) {
    if (!shown(e)) continue;
    const box = e.getBoundingClientRect();
    if (box.height < 44 || box.width < 44) faults.push(`${e.id || e.tagName} is ${box.width}x${box.height} px`);
  }
  for (const e of document.querySelectorAll('select, input[type=text], textarea')) {
    if (shown(e) && parseFloat(getComputedStyle(e).fontSize) < 16) faults.push(`${e.id || e.tagName}'s text is small`);
  }
  for (const e of document.querySelectorAll('#detail ul, #detail h3')) {
    if (shown(e) && !e.textContent.trim()) faults.push(`an empty ${e.id || e.tagName} takes room`);
  }
  return faults;
}"""


def _phone_faults(page) -> list[str]:
    return page.evaluate(PHONE_FAULTS)


def test_the_host_hands_out_each_players_link_with_a_qr_code_and_keeps_its_own_apart(browser, server):
    """The host's page, on a phone: each player's link as an address, a QR code a
    phone's camera reads and a copy button; the host's own link apart, never in
    the list shown to the table."""
    created = server.post("/api/tables", {"transcript": UNAFFORDABLE.read_text(encoding="utf-8"), "name": "Friday"})
    host = created.data["host"]
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(server.url + host["url"])
        page.wait_for_selector("#status.illegal, #status.legal")
        page.locator("#table-links summary").tap()
        items = page.locator("#links li")
        assert items.count() == 3
        for n, player in enumerate(created.data["players"]):
            item = items.nth(n)
            assert item.locator("strong").text_content() == player["player"]
            assert item.locator("code").text_content() == player["link"] == server.url + player["url"]
            assert item.locator("img.qr").evaluate("e => e.complete && e.naturalWidth > 0")
            assert item.locator("button").text_content() == "Copy"
        assert host["token"] not in page.text_content("#links")
        assert host["link"] in page.text_content("#host-link") and "keep it to yourself" in page.text_content("#host-link")
        assert _phone_faults(page) == []
        _screenshot(page, "page-host-links.png")
    finally:
        phone.close()


def test_building_a_game_move_by_move(page):
    """Rule offering_outbid: "An offering to a god that already has one must be higher than it" """
    head = OUTBID.read_text(encoding="utf-8").split("Ann: 3 on Zeus")[0]
    page.fill("#transcript", head)
    for line, verdict in (("Ann: 3 on Zeus", "LEGAL: offer 3 GP to Zeus"),
                          ("Bob: 3 on Zeus", "ILLEGAL: offer 3 GP to Zeus")):
        page.fill("#next-line", line)
        page.click("#add")
        _until(page, f"document.querySelector('#verdict').textContent === {verdict!r}")
        assert page.locator("#lines li.selected code").text_content() == line
    assert page.input_value("#transcript").endswith("Ann: 3 on Zeus\nBob: 3 on Zeus\n")
    assert page.text_content("#breaches .rule-id") == "offering_outbid"


def test_an_answer_that_comes_late_is_never_shown_under_a_newer_choice(page):
    """Rule setup_gold: "Each player starts with 5 GP, kept hidden behind their screen." The referee's
    explanation of Ivo's offering (which tells his gold) is held back; meanwhile the table chooses to see
    the game as Hana. When the referee's answer arrives, the page must not show it as Hana's."""
    _load(page, UNAFFORDABLE)
    page.evaluate("""() => {
        window.shown = [];
        const record = () => window.shown.push([document.querySelector('#status').textContent,
                                                document.querySelector('#breaches').textContent]);
        new MutationObserver(record).observe(document.querySelector('main'),
                                             {subtree: true, childList: true, characterData: true});
    }""")
    held = []

    def hold_the_referees_answer(route):
        body = route.request.post_data_json or {}
        if "as" not in body:
            held.append(route)  # answered later, after the choice changed
        else:
            route.continue_()

    page.route("**/api/explain", hold_the_referees_answer)
    page.locator("#lines li.move.illegal").first.click()
    _until(page, "document.querySelector('#detail-title').textContent.endsWith('…')")
    assert len(held) == 1
    page.select_option("#viewpoint", "Hana")
    _until(page, "document.querySelector('#breaches').textContent.includes('cannot afford this offering')")
    held[0].continue_()  # the referee's answer arrives now, late
    page.wait_for_timeout(1500)
    assert page.locator("#alternatives li").all_text_contents() == ["offer 4 GP to Ares", "take Apollo"]
    assert "Ivo has" not in page.text_content("#breaches")
    shown = page.evaluate("window.shown")
    assert not [s for s in shown if "as Hana" in s[0] and "Ivo has 3 GP" in s[1]], shown
    assert "as Hana" in page.text_content("#alternatives-title")
    # the same for a whole check: the referee's report held back while the table turns to Ivo's view
    page.unroute("**/api/explain")
    page.route("**/api/check", hold_the_referees_answer)
    page.select_option("#viewpoint", "")
    page.wait_for_timeout(300)
    assert len(held) == 2
    page.select_option("#viewpoint", "Ivo")
    _until(page, "document.querySelector('#status').textContent.includes('as Ivo')")
    held[1].continue_()
    page.wait_for_timeout(1500)
    assert "as Ivo" in page.text_content("#status")


def test_a_line_that_cannot_be_read_is_marked_and_can_be_corrected(page):
    """Rule offering_outbid: "An offering to a god that already has one must be higher than it" """
    head = OUTBID.read_text(encoding="utf-8").split("Ann: 3 on Zeus")[0]
    page.fill("#transcript", head + "Ann: 3 on Zeus\n")
    page.fill("#next-line", "Bob: 3 on Zues")
    page.click("#add")
    typo = page.locator("#lines li.unread")
    typo.wait_for()
    assert "not read, column 11: unknown god 'Zues'" in typo.text_content()
    assert page.locator("#lines li.move.legal code").all_text_contents()[-1] == "Ann: 3 on Zeus"  # kept its mark
    assert "1 line not read" in page.text_content("#status")
    typo.locator(".edit").click()
    typo.locator("input").fill("Bob: 3 on Zeus")
    typo.locator("button[type=submit]").click()
    page.wait_for_selector("#lines li.move.illegal")
    assert page.locator("#lines li.unread").count() == 0
    assert "offering_outbid" in page.locator("#lines li.move.illegal").text_content()
    page.locator("#lines li.move.illegal .edit").click()
    page.locator("#lines li.move.illegal button", has_text="Remove").click()
    _until(page, "!document.querySelector('#lines li.move.illegal')")
    assert page.input_value("#transcript").endswith("Ann: 3 on Zeus\n")


def test_a_table_on_two_phones_each_as_its_link_sees_it(browser, server):
    """A player's phone adds a move; the host's phone follows the table and shows it, checked."""
    import json
    import urllib.request

    head = OUTBID.read_text(encoding="utf-8").split("Ann: 3 on Zeus")[0]
    request = urllib.request.Request(server.url + "/api/tables", method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"transcript": head, "name": "Friday"}).encode())
    with urllib.request.urlopen(request, timeout=30) as response:
        table = json.loads(response.read())
    phones = [browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
              for _ in range(2)]
    try:
        ann, host = (phone.new_page() for phone in phones)
        for tab, url in ((ann, table["players"][0]["url"]), (host, table["host"]["url"])):
            tab.set_default_timeout(30_000)
            tab.goto(server.url + url)
            tab.wait_for_selector("#status.legal, #status.illegal")
        assert "you are Ann" in ann.text_content("#table-who")
        assert ann.is_disabled("#viewpoint") and ann.input_value("#viewpoint") == "Ann"
        assert ann.locator("#lines .edit").count() == 0 and not ann.is_visible("#transcript")
        assert host.locator("#links li").count() == 5  # the players' links; the host's own stands apart
        ann.fill("#next-line", "Ann: 3 on Zeus")
        ann.click("#add")
        _until(ann, "document.querySelector('#verdict').textContent === 'LEGAL: offer 3 GP to Zeus'")
        _until(host, "[...document.querySelectorAll('#lines li.move code')].some(c => c.textContent === "
                               "'Ann: 3 on Zeus')", timeout=10)  # followed live
        assert "revision 1" in host.text_content("#table-who")
        _screenshot(host, "page-table-host.png")
    finally:
        for phone in phones:
            phone.close()


FORGOTTEN_HEADING = ROOT / "transcripts" / "cyclades" / "hurried-forgotten-heading.txt"


def test_what_the_referee_assumed_and_where_a_record_stops_are_shown_at_their_lines(page):
    """docs/report.md: where the referee had to guess (a 'cycle 2' heading forgotten) it says what it
    assumed, at the line; a record that cannot be followed from some line on (no 'creatures:' line
    before the first offering) is reported at that line, with the moves before it still judged."""
    _load(page, FORGOTTEN_HEADING)
    assumed = page.locator('#lines li[data-line="26"]')  # transcripts/cyclades/hurried-forgotten-heading.report.txt
    assert "assumed" in assumed.get_attribute("class")
    assert assumed.locator(".assumption").text_content() == \
        "assumed: cycle 2 begins here: the heading 'cycle 2' is not written"
    status = page.text_content("#status")
    assert "1 assumption about what the record means" in status and "every move is legal" in status
    assert page.locator("#lines .assumption").count() == 1

    text = OUTBID.read_text(encoding="utf-8").replace("creatures: Harpy\n", "")
    lines = text.splitlines()
    stop = lines.index("Ann: 3 on Zeus") + 1
    page.fill("#transcript", text)
    page.click("#check")
    page.wait_for_selector("#lines li.unfollowed")
    stopped = page.locator("#lines li.unfollowed")
    assert stopped.get_attribute("data-line") == str(stop)
    assert ("the record cannot be followed from here (column 6): the creature track is not written"
            in stopped.text_content())
    assert f"the record cannot be followed from line {stop} on" in page.text_content("#status")
    assert "illegal" in page.get_attribute("#status", "class")
    marked = [int(n) for n in page.locator("#lines li.move").evaluate_all("els => els.map(e => e.dataset.line)")]
    assert marked and max(marked) < stop  # the moves before it keep their marks; none after it
    assert stopped.locator(".edit").count() == 1  # and the line can be corrected where it stands
    _screenshot(page, "page-assumed-and-stopped.png")


def test_a_phone_follows_its_seat_when_the_host_corrects_the_players_line(browser, server):
    """A renamed player's phone goes on, as the new name; a removed player's phone is told so and
    shows nothing more of the table."""
    import json
    import re
    import urllib.request

    def post(path, body):
        request = urllib.request.Request(server.url + path, method="POST", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    text = OUTBID.read_text(encoding="utf-8")
    table = post("/api/tables", {"transcript": text, "name": "Friday"})
    urls = {p["player"]: p["url"] for p in table["players"]}
    phones = [browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
              for _ in range(2)]
    try:
        bob, eve = (phone.new_page() for phone in phones)
        for tab, url in ((bob, urls["Bob"]), (eve, urls["Eve"])):
            tab.set_default_timeout(30_000)
            tab.goto(server.url + url)
            tab.wait_for_selector("#status.legal, #status.illegal")
        corrected = re.sub(r"\bBob\b", "Bobby", text).replace(", Eve black", "").replace(", Eve\n", "\n")
        answer = post(f"/api/tables/{table['host']['token']}/correct", {"revision": 0, "transcript": corrected})
        assert answer["seats"]["renamed"] == [{"from": "Bob", "to": "Bobby"}] and answer["seats"]["removed"] == ["Eve"]
        _until(bob, "document.querySelector('#table-who').textContent.includes('you are Bobby')",
                              timeout=10)  # followed live
        _until(bob, "document.querySelector('#status').textContent.includes('as Bobby')")
        assert bob.input_value("#viewpoint") == "Bobby"
        _until(eve, "document.querySelector('#status').textContent.includes('player-removed')",
                              timeout=10)
        assert "Eve is no longer a player of this table" in eve.text_content("#status")
        assert eve.locator("#lines li").count() == 0 and not eve.is_visible("#input")
        _screenshot(eve, "page-player-removed.png")
    finally:
        for phone in phones:
            phone.close()


@contextmanager
def _phones(browser, server, urls: list[str]):
    """A phone (Chromium at 390x844) open at each of ``urls``, its table shown; what the page's
    Content-Security-Policy refused on any of them fails the test."""
    contexts, refused = [], []
    try:
        tabs = []
        for url in urls:
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            contexts.append(context)
            tab = context.new_page()
            tab.on("console", lambda message: refused.append(message.text)
                   if "Content Security Policy" in message.text else None)
            tab.set_default_timeout(30_000)
            tab.goto(server.url + url)
            tabs.append(tab)
        for tab in tabs:
            tab.wait_for_selector("#status.legal, #status.illegal")
        yield tabs
    finally:
        for context in contexts:
            context.close()
    assert not refused, refused


def _lines(page) -> list[str]:
    return page.locator("#lines li code").all_text_contents()


def _shows_line(line: str) -> str:
    return f"[...document.querySelectorAll('#lines li code')].some(c => c.textContent === {line!r})"


def test_two_phones_adding_at_the_same_revision_the_later_sees_the_conflict_and_keeps_its_line(browser, server):
    """Ann and Bob both add a line at revision 0; Bob's reaches the service after Ann's. Bob's phone
    says plainly why his line was not added, keeps the notice until he has seen it (the table's
    reload does not overwrite it), keeps his line in the box, and shows Ann's line."""
    head = OUTBID.read_text(encoding="utf-8").split("Ann: 3 on Zeus")[0]
    table = server.post("/api/tables", {"transcript": head, "name": "Friday"}).data
    urls = {p["player"]: p["url"] for p in table["players"]}
    with _phones(browser, server, [urls["Ann"], urls["Bob"], table["host"]["url"]]) as (ann, bob, host):
        held = []
        bob.route("**/lines", lambda route: held.append(route))  # Bob's line is on its way, sent at revision 0
        bob.fill("#next-line", "Bob: 4 on Zeus")
        bob.locator("#add").tap()
        deadline = time.monotonic() + 10
        while not held and time.monotonic() < deadline:
            bob.wait_for_timeout(50)
        assert held and held[0].request.post_data_json["revision"] == 0
        ann.fill("#next-line", "Ann: 3 on Zeus")
        ann.locator("#add").tap()
        _until(ann, "document.querySelector('#verdict').textContent === 'LEGAL: offer 3 GP to Zeus'")
        held[0].continue_()  # Bob's line arrives now, at a table that moved on
        _until(bob, "document.querySelector('#notices li.refused') !== null")
        notice = bob.text_content("#notices li.refused .notice-text")
        assert notice.startswith("Your line was not added: the table is at revision 1, not 0: Ann changed it "
                                 "meanwhile"), notice
        assert notice.endswith("The table below now shows their change; yours is kept in the box.")
        assert bob.input_value("#next-line") == "Bob: 4 on Zeus"
        _until(bob, _shows_line("Ann: 3 on Zeus"))  # the table shows the other's line
        _until(bob, "document.querySelector('#status').textContent.includes('moves checked')")
        bob.wait_for_timeout(2 * 2000 + 500)  # the follow loop looks twice more: the notice stays
        assert bob.text_content("#notices li.refused .notice-text") == notice
        assert _phone_faults(bob) == []
        _screenshot(bob, "page-conflict.png")
        bob.locator("#notices li.refused .seen").tap()  # seen: dismissed by the player
        assert bob.locator("#notices li").count() == 0
        bob.unroute("**/lines")
        bob.locator("#add").tap()  # the kept line, sent again after Ann's
        _until(bob, _shows_line("Bob: 4 on Zeus"))
        assert bob.input_value("#next-line") == ""
        _until(host, _shows_line("Bob: 4 on Zeus"), timeout=10)
        assert _lines(host)[-2:] == ["Ann: 3 on Zeus", "Bob: 4 on Zeus"]


def test_a_phone_that_loses_the_connection_says_so_and_catches_up_when_it_is_back(browser, server):
    """Ann's phone goes offline: it says "connection lost: retrying…" (never a bare "Failed to fetch")
    for as long as it lasts, marks the table it shows as stale, and keeps the line she could not
    send. Meanwhile Bob adds a line. Back online, Ann's phone catches up, says it missed one
    revision, and her line goes. A service that does not answer (a 502 from a proxy) is said too."""
    head = OUTBID.read_text(encoding="utf-8").split("Bob: 3 on Zeus")[0]
    table = server.post("/api/tables", {"transcript": head, "name": "Friday"}).data
    urls = {p["player"]: p["url"] for p in table["players"]}
    with _phones(browser, server, [urls["Ann"], urls["Bob"], table["host"]["url"]]) as (ann, bob, host):
        ann.context.set_offline(True)
        lost = "document.querySelector('#connection').textContent.startsWith('connection lost: retrying…')"
        _until(ann, lost, timeout=15)
        assert "stale" in ann.get_attribute("#result", "class")
        assert "revision 0: it may be stale" in ann.text_content("#connection")
        ann.fill("#next-line", "# Ann: back in a minute")
        ann.locator("#add").tap()
        _until(ann, "document.querySelector('#notices li.refused') !== null")
        assert ann.text_content("#notices li.refused .notice-text") == (
            "Your line was not added: connection lost; it is kept, to send again when the connection is back.")
        assert ann.input_value("#next-line") == "# Ann: back in a minute"
        bob.fill("#next-line", "Bob: 4 on Zeus")
        bob.locator("#add").tap()
        _until(bob, "document.querySelector('#verdict').textContent === 'LEGAL: offer 4 GP to Zeus'")
        _until(host, _shows_line("Bob: 4 on Zeus"), timeout=10)
        ann.wait_for_timeout(2 * 2000 + 500)  # the follow loop keeps failing, and keeps saying so
        assert ann.evaluate(lost) and "Bob: 4 on Zeus" not in _lines(ann)
        assert "Failed to fetch" not in ann.text_content("body") and "undefined" not in ann.text_content("body")
        assert _phone_faults(ann) == []
        _screenshot(ann, "page-offline.png")

        ann.context.set_offline(False)
        _until(ann, _shows_line("Bob: 4 on Zeus"), timeout=15)  # caught up
        _until(ann, "document.querySelector('#notices li.reconnected') !== null")
        assert ann.text_content("#notices li.reconnected .notice-text") == (
            "The connection is back: 1 revision came meanwhile; the table is brought up to revision 1.")
        assert ann.is_hidden("#connection") and "stale" not in ann.get_attribute("#result", "class")
        ann.locator("#notices li.reconnected .seen").tap()
        ann.locator("#add").tap()  # the kept line, sent now
        _until(ann, _shows_line("# Ann: back in a minute"))
        assert ann.locator("#notices li.refused").count() == 0

        ann.route("**/revision", lambda route: route.fulfill(status=502, body="Bad Gateway"))
        _until(ann, "document.querySelector('#connection').textContent.startsWith("
                    "'the service is not answering (HTTP 502): retrying…')", timeout=10)
        assert "stale" in ann.get_attribute("#result", "class")
        ann.unroute("**/revision")
        _until(ann, "document.querySelector('#notices li.reconnected') !== null", timeout=10)
        assert ann.is_hidden("#connection") and ann.text_content("#notices li.reconnected .notice-text") == (
            "The service answers again: the table did not change meanwhile.")


def test_the_host_withdraws_a_line_from_the_players_phones(browser, server):
    """Ann typed her gold as a comment; on the host's phone the line's Withdraw, confirmed, takes it
    out of the table: the host's page and the players' phones (followed live) no longer show it."""
    head = OUTBID.read_text(encoding="utf-8").split("Bob: 3 on Zeus")[0]
    secret = "# Ann keeps 2 GP behind her screen"
    table = server.post("/api/tables", {"transcript": head + secret + "\n", "name": "Friday"}).data
    urls = {p["player"]: p["url"] for p in table["players"]}
    number = head.count("\n") + 1
    with _phones(browser, server, [table["host"]["url"], urls["Ann"], urls["Bob"]]) as (host, ann, bob):
        assert ann.locator("#lines .withdraw").count() == 0  # the host's action only
        assert host.locator('#lines li[data-line="8"] .withdraw').count() == 0  # the players line is corrected
        line = host.locator(f'#lines li[data-line="{number}"]')
        assert line.locator("code").text_content() == secret
        line.locator(".withdraw").tap()
        assert "No player's link will show it again" in line.locator(".withdraw-question").text_content()
        assert _phone_faults(host) == []
        _screenshot(host, "page-withdraw.png")
        line.locator("button[type=submit]").tap()
        _until(host, "document.querySelector('#table-who').textContent.includes('revision 1')")
        _until(host, "document.querySelector('#status').textContent.includes('moves checked')")
        assert secret not in _lines(host)
        for phone in (ann, bob):
            _until(phone, "document.querySelector('#table-who').textContent.includes('revision 1')", timeout=10)
            _until(phone, f"!{_shows_line(secret)}")
            assert "2 GP" not in phone.text_content("body")
            assert phone.text_content("#notices li.withdrawn .notice-text") == \
                f"The host withdrew line {number} from the players' view."
        assert host.locator("#notices li").count() == 0
    revisions = server.get(f"/api/tables/{table['host']['token']}/revisions").data["revisions"]
    assert (revisions[-1]["kind"], revisions[-1]["author"], revisions[-1]["line"]) == ("withdrawn", "host", number)


def test_on_a_phone_a_move_is_entered_with_a_tap_and_disputed_with_another(browser, server):
    """What may be done now and the explanation's alternatives are lines of the notation to tap:
    a tap fills the Next move box, '??' beside it disputes the move, and the line added is checked."""
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    page = phone.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(server.url + "/")
        head = OUTBID.read_text(encoding="utf-8").split("Bob: 3 on Zeus")[0]
        page.fill("#transcript", head)
        page.locator("#check").tap()
        page.wait_for_selector("#now-lines button")
        assert "What Bob may do now" in page.text_content("#now-title")
        page.locator("#now-lines button", has_text="Bob: 4 on Zeus").tap()
        assert page.input_value("#next-line") == "Bob: 4 on Zeus"

        page.locator("#lines li.move.legal").last.tap()  # Ann's 3 on Zeus: what she may do there, as lines
        page.wait_for_selector("#alternative-lines button")
        assert "Ann: 2 on Ares" in page.locator("#alternative-lines button").all_text_contents()
        assert _phone_faults(page) == []
        page.locator("#now-lines button", has_text="Bob: 5 on Zeus").tap()
        assert page.input_value("#next-line") == "Bob: 5 on Zeus"
        page.locator("#dispute").tap()
        assert page.input_value("#next-line") == "Bob: 5 on Zeus ??"
        page.locator("#dispute").tap()  # once is enough
        assert page.input_value("#next-line") == "Bob: 5 on Zeus ??"
        _screenshot(page, "page-phone-tap.png")
        page.locator("#add").tap()
        _until(page, "[...document.querySelectorAll('#lines li.move code')].some(c => c.textContent === "
                     "'Bob: 5 on Zeus ??')")
        _until(page, "document.querySelector('#verdict').textContent === 'LEGAL: offer 5 GP to Zeus'")
        assert "1 disputed" in page.text_content("#status")
        assert page.input_value("#transcript").endswith("Bob: 5 on Zeus ??\n")
    finally:
        phone.close()
