"""The page for a table, end to end in a real browser: Debian's headless
Chromium driven by playwright (its wheel carries the driver; no browser is
downloaded), against the real service on loopback. Screenshots are kept in
test-artifacts/.

Without /usr/bin/chromium the tests are skipped, except under CI=true, where a
missing browser is a failure (.ci/run installs it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from service_server import ROOT, Server

from referee.catalogue import load_catalogue

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
    page.set_default_timeout(30_000)
    page.goto(server.url + "/")
    yield page
    context.close()


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
    page.wait_for_function("document.querySelector('#status').textContent.includes('rules: zh-003')")
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
    page.wait_for_function("document.querySelector('#board').complete && "
                           "document.querySelector('#board').naturalWidth > 0")
    assert page.text_content("#board-caption") == "The position after move 7."  # a card, 4 god tiles, Ann, Bob
    assert "selected" in page.locator(f'#lines li[data-line="{line}"]').get_attribute("class")
    _screenshot(page, "page-explained.png")


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
        page.wait_for_function("document.querySelector('#status').textContent.includes('as Hana')")
        page.locator("#lines li.move.illegal").first.tap()
        page.wait_for_selector("#alternatives li")
        assert page.locator("#alternatives li").all_text_contents() == ["offer 4 GP or more to Ares", "take Apollo"]
        # one column: nothing wider than the screen, the explanation under the lines
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        lines = page.locator("#result").bounding_box()
        detail = page.locator("#detail").bounding_box()
        assert detail["y"] >= lines["y"] + lines["height"] - 1 and detail["width"] <= 390
        _screenshot(page, "page-phone.png")
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
        page.wait_for_function(f"document.querySelector('#verdict').textContent === {verdict!r}")
        assert page.locator("#lines li.selected code").text_content() == line
    assert page.input_value("#transcript").endswith("Ann: 3 on Zeus\nBob: 3 on Zeus\n")
    assert page.text_content("#breaches .rule-id") == "offering_outbid"
