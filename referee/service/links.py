"""A table's links as the host hands them out: the address a phone opens, and
a QR code of it that a phone's camera reads (segno: a QR code as an SVG image,
made on the server, so that the page loads nothing from elsewhere)."""

from __future__ import annotations

import segno

from referee.service.tables import Link


def link_json(link: Link, base: str) -> dict:
    """One player's link: ``url`` the path, ``link`` the whole address from
    ``base`` (Network.link_base), ``qr`` that address as a QR code, an SVG image
    (a data: URL)."""
    path = f"/t/{link.token}"
    return {"player": link.player, "token": link.token, "url": path, "link": base + path,
            "qr": segno.make(base + path, error="m").svg_data_uri(scale=4, border=2)}


def links_json(links: list[Link], base: str) -> dict:
    """The host's link (kept apart: it sees every screen, so it is never shown to
    the table, and has no QR code) and the players' links."""
    host = next(link for link in links if link.host)
    path = f"/t/{host.token}"
    return {"host": {"token": host.token, "url": path, "link": base + path},
            "players": [link_json(link, base) for link in links if not link.host]}
