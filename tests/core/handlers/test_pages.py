"""A table's page links (bot/core/handlers/pages.py): a link made with a secret the bot no
longer has opens nothing, so nothing hands it out: not the board's Scorepad button, not
/scorepad, which makes a working one."""

from __future__ import annotations

from bot.core import pages
from bot.core.pages import WebSide
from tests.conftest import Table

NEW = "/newgame marriage players:alice bob carol"


def web(secret: bytes) -> WebSide:
    # the console's chats ("chat-1" is of platform chat-1) open a scorepad here
    return WebSide("https://maal.example.org", secret, frozenset({"chat-1"}))


async def opens(table: Table, token: str) -> bool:
    found = await table.service.store.page(pages.digest_of(token))
    return found is not None and found[0] == table.chat


async def test_the_boards_scorepad_button_goes_when_the_secret_changes(table: Table):
    table.service.web = web(b"the first secret")
    started = await table.ok(NEW)
    first = (await table.ok("/board")).pad
    assert first is not None and await opens(table, first)
    assert started.pad in (None, first)
    table.service.web = web(b"the host's new secret")
    # the button's link would open nothing now: the board shows none ...
    assert (await table.ok("/board")).pad is None
    # ... until /scorepad makes one with the new secret, which opens the pad
    await table.ok("/scorepad")
    again = (await table.ok("/board")).pad
    assert again is not None and again != first and await opens(table, again)
    assert not await opens(table, first)


def test_a_nonce_says_which_secret_its_link_is_made_with():
    nonce = pages.new_nonce(b"one")
    assert pages.made_with(nonce, b"one") and not pages.made_with(nonce, b"two")
    assert pages.made_with("a-nonce-kept-before-fingerprints", b"two")  # the database decides
    assert b"one".hex() not in nonce and len(nonce.rpartition(".")[2]) == 8
