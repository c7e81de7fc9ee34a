"""Init data is checked as Telegram's docs say: signed with the key derived from
"WebAppData" and this bot's token, fresh, with a user."""

from __future__ import annotations

import time

import pytest

from bot.web import initdata
from tests.web.webapp import init_data, webapp_user

TOKEN = "123456:TEST-TOKEN"
ASHA = webapp_user(101, "Asha", "asha", "ne")


def test_init_data_signed_for_this_bot_names_its_person_and_table():
    now = int(time.time())
    data = initdata.check(init_data(ASHA, TOKEN, "T" * 43, auth_date=now), TOKEN, now=now)
    assert (data.user.id, data.user.first_name, data.user.username) == (101, "Asha", "asha")
    assert data.user.language_code == "ne"
    assert data.start_param == "T" * 43
    assert data.auth_date == now


def test_a_name_with_any_letters_survives_the_check():
    # the check string is made of the values as sent, URL-decoded, never JSON re-written
    user = webapp_user(102, "बिकाश & Co=1", None)
    data = initdata.check(init_data(user, TOKEN, "x"), TOKEN)
    assert data.user.first_name == "बिकाश & Co=1"


@pytest.mark.parametrize("tamper", [
    lambda raw: raw.replace("Asha", "Mallory"),  # another name, same hash
    lambda raw: raw.replace("start_param=aaa", "start_param=bbb"),  # another table
    lambda raw: raw[:-4] + "0000",  # another hash
    lambda raw: raw.replace("hash=", "hush="),  # no hash
])
def test_changed_init_data_is_refused(tamper):
    raw = init_data(ASHA, TOKEN, "aaa")
    initdata.check(raw, TOKEN)  # as signed: accepted
    with pytest.raises(initdata.Refused):
        initdata.check(tamper(raw), TOKEN)


def test_init_data_of_another_bot_is_refused():
    with pytest.raises(initdata.Refused):
        initdata.check(init_data(ASHA, "999:OTHER", "aaa"), TOKEN)


def test_stale_init_data_is_refused_and_fresh_is_not():
    now = int(time.time())
    old = now - initdata.MAX_AGE - 1
    with pytest.raises(initdata.Refused, match="stale"):
        initdata.check(init_data(ASHA, TOKEN, "a", auth_date=old), TOKEN, now=now)
    initdata.check(init_data(ASHA, TOKEN, "a", auth_date=now - initdata.MAX_AGE + 60),
                   TOKEN, now=now)
    with pytest.raises(initdata.Refused):
        initdata.check(init_data(ASHA, TOKEN, "a", auth_date=now + 3600), TOKEN, now=now)


@pytest.mark.parametrize("raw", ["", "not a query", "a=1&a=2", "x" * 5000,
                                 "user=%7B%7D&hash=00"])
def test_what_is_not_init_data_is_refused(raw):
    with pytest.raises(initdata.Refused):
        initdata.check(raw, TOKEN)


def test_init_data_without_a_user_is_refused_even_when_signed():
    from urllib.parse import parse_qsl, urlencode

    fields = dict(parse_qsl(init_data(ASHA, TOKEN, "a")))
    fields.pop("user")
    fields.pop("hash")
    fields["hash"] = initdata.sign(fields, TOKEN)
    with pytest.raises(initdata.Refused, match="user"):
        initdata.check(urlencode(fields), TOKEN)
