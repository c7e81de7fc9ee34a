"""/club, /account and the club's look-backs refuse what they can't do, say why, and change
nothing: a wrong, used or expired code, a chat already in a club, a non-admin, a stranger,
a table leaving twice, a club's only table leaving, names that match two members (both
databases). Who may: a chat admin makes, joins, leaves and gives codes; the club's owner or
its admins take another table out, run its seasons and its page; its owner names admins."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.core.club import codes
from bot.core.service import Service
from tests.club_helpers import CODE, Tables


@pytest.fixture
def tables(service: Service) -> Tables:
    return Tables(service)


async def code_of(tables: Tables, chat: str) -> str:
    found = CODE.search((await tables.ok(chat, "/club code")).text)
    assert found is not None
    return found.group(1)


async def test_a_chat_in_no_club_is_told_how_to_make_or_join_one(tables: Tables):
    for line in ("/club", "/club standings", "/rating", "/records", "/club ledger",
                 "/vs ana ben"):
        said = await tables.error("t1", line)
        assert "/club new name:" in said and "/club join code:" in said


async def test_making_a_club_is_a_chat_admins_and_needs_a_name(tables: Tables):
    assert "Only a chat admin can make a club" in await tables.error(
        "t1", "/club new name:Friday", admin=False)
    assert "Name the club" in await tables.error("t1", "/club new")
    assert "at most 40 characters" in await tables.error("t1", "/club new name:" + "x" * 41)
    assert "/club takes new, join" in await tables.error("t1", "/club dance")
    await tables.ok("t1", "/club new name:Friday")
    assert "a table of Friday already" in await tables.error("t1", "/club new name:Other")


async def test_a_join_code_joins_one_chat_once_within_a_day(tables: Tables,
                                                            monkeypatch: pytest.MonkeyPatch):
    made = await tables.ok("t1", "/club new name:Friday")
    code = CODE.search(made.text).group(1)  # type: ignore[union-attr]
    assert "Only a chat admin can join a club" in await tables.error(
        "t2", f"/club join code:{code}", admin=False)
    assert "no club code" in await tables.error("t2", "/club join code:banana")
    assert "No club has that code" in await tables.error("t2", "/club join code:AAAA-BBBB")
    await tables.ok("t2", f"/club join code:{code.lower().replace('-', ' ')}")  # as typed
    assert "used already" in await tables.error("t3", f"/club join code:{code}")
    assert "a table of Friday already" in await tables.error(
        "t2", f"/club join code:{await code_of(tables, 't1')}")
    # a new code replaces the unused one; an old one is refused as used or unknown
    first, second = await code_of(tables, "t1"), await code_of(tables, "t1")
    assert "No club has that code" in await tables.error("t3", f"/club join code:{first}")
    monkeypatch.setattr(codes, "JOIN_FOR", timedelta(seconds=-1))
    late = await code_of(tables, "t2")  # any table's admin may give one
    assert "more than 24 hours old" in await tables.error("t3", f"/club join code:{late}")
    assert "No club has that code" in await tables.error("t3", f"/club join code:{second}")
    shown = await tables.ok("t1", "/club")
    assert "2 tables" in shown.text


async def test_leaving_is_this_tables_admins_and_a_club_keeps_one_table(tables: Tables):
    await tables.club("Friday", "t1", "t2")
    assert "Only a chat admin can take this table out" in await tables.error(
        "t2", "/club leave", admin=False)
    await tables.ok("t2", "/club leave")
    assert "in no club" in await tables.error("t2", "/club leave")  # twice: nothing to leave
    assert "only table" in await tables.error("t1", "/club leave")
    assert "1 table" in (await tables.ok("t1", "/club")).text


async def test_taking_another_table_out_is_the_clubs_owners_or_admins(tables: Tables):
    await tables.club("Friday", "t1", "t2", "t3")
    # the host of every table is the console's one person; ben is someone else
    assert "Only the club's owner or one of its admins can take a table out" in \
        await tables.error("t2", "ben: /club remove 3")
    assert "That is this table" in await tables.error("t1", "/club remove 1")
    assert "No table `9`" in await tables.error("t1", "/club remove 9")
    assert "Only the club's owner (host) can name its admins" in await tables.error(
        "t2", "ben: /club admin @cy")
    await tables.ok("t1", "/club admin @ben")
    assert "ben is an admin of Friday already" in (await tables.ok(
        "t1", "/club admin @ben")).text
    await tables.ok("t2", "ben: /club remove 3")
    assert "2 tables" in (await tables.ok("t1", "/club")).text
    await tables.ok("t1", "/club admin @ben off")
    assert "Only the club's owner or one of its admins" in await tables.error(
        "t2", "ben: /club season start name:Spring")


async def test_seasons_are_the_clubs_admins_and_one_is_open_at_a_time(tables: Tables):
    await tables.club("Friday", "t1", "t2")
    assert "no season yet" in (await tables.ok("t2", "/club season")).text
    assert "No club season is open" in await tables.error("t1", "/club season end")
    await tables.ok("t1", "/club season start name:Spring")
    assert "Spring is open" in await tables.error("t1", "/club season start name:Summer")
    await tables.ok("t1", "/club season end")
    assert "had a season called spring" in await tables.error(
        "t1", "/club season start name:spring")
    assert "no season `Winter`" in await tables.error(
        "t1", "/club standings season:Winter")


async def test_a_name_two_members_went_by_is_refused_with_both(tables: Tables):
    await tables.club("Friday", "t1", "t2")
    for chat in ("t1", "t2"):  # alice a guest at both tables: two people
        await tables.game(chat, "/newgame points players:alice @ben", "/round alice=3 ben=1")
    said = await tables.error("t1", "/vs alice ben")
    assert "alice could be alice (t1), alice (t2)" in said
    assert "No member `zed`" in await tables.error("t1", "/rating zed")
    assert "one member twice" in await tables.error("t1", "/vs ben ben")
    assert "Name two members" in await tables.error("t1", "/vs ben")


async def test_an_account_code_is_shown_to_its_person_alone_and_links_once(tables: Tables,
                                                                          service: Service):
    from dataclasses import replace

    from bot.console import line_to_command

    async def as_platform(actor: str, line: str, private: bool = True):
        command = line_to_command(line, "host", "t1")
        command = replace(command, actor=replace(command.actor, id=actor), private=private)
        return await service.handle(command)

    group = await as_platform("telegram:1", "/account link", private=False)
    assert group.ok and group.start_private == "link" and not CODE.search(group.text)
    given = await as_platform("telegram:1", "/account link")
    found = CODE.search(given.text)
    assert given.private and found is not None
    code = found.group(1)
    assert "own code" in (await as_platform("telegram:1", f"/account link code:{code}")).text
    assert "Two Telegram accounts" in (await as_platform(
        "telegram:2", f"/account link code:{code}")).text
    linked = await as_platform("discord:9", f"/account link code:{code}")
    assert linked.ok and "Telegram" in linked.text
    assert "used already" in (await as_platform("discord:8", f"/account link code:{code}")).text
    assert "Telegram" in (await as_platform("discord:9", "/account")).text
    await as_platform("discord:9", "/account unlink")
    assert "linked to no other" in (await as_platform("discord:9", "/account unlink")).text
