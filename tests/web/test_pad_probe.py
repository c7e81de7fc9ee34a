"""The scorepad's server against what a page never sends but an attacker or a broken client
might: two taps at once, malformed bodies and init data, names with markup. Each answer is a
sentence with a 4xx status, never a traceback, and records nothing it shouldn't."""

from __future__ import annotations

import asyncio
import json

from tests.web.conftest import Web
from tests.web.test_pad import AS_ALICE, EXAMPLE, signed, started, totals


async def test_two_taps_at_once_record_the_hand_once(web: Web):
    token = await started(web)
    body = {"init_data": signed(AS_ALICE, token), "command": "hand", "options": EXAMPLE,
            "submit": "both-at-once-01"}
    answers = await asyncio.gather(*(web.post("/pad/api/send", body) for _ in range(4)))
    assert all(status == 200 and answer["ok"] for status, answer in answers), answers
    assert sum(not answer["duplicate"] for _, answer in answers) == 1
    assert await totals(web) == {"alice": 41, "bob": -14, "carol": -27}


async def test_malformed_requests_are_refused_with_a_sentence(web: Web):
    token = await started(web)
    raw = signed(AS_ALICE, token)
    bodies = [
        "not json", "[]", "null", json.dumps({"init_data": 7}),
        json.dumps({"init_data": raw, "command": "hand", "options": [], "submit": "abcdefgh"}),
        json.dumps({"init_data": raw, "command": "hand", "options": {"winner": 3},
                    "submit": "abcdefgh"}),
        json.dumps({"init_data": raw, "command": "hand", "options": EXAMPLE,
                    "submit": "../../x"}),
        json.dumps({"init_data": raw, "command": "newgame", "options": {},
                    "submit": "abcdefgh"}),
        json.dumps({"init_data": raw, "table": 12, "command": "hand"}),
        json.dumps({"init_data": "user=%7B%7D&auth_date=1&hash=00", "command": "hand"}),
        json.dumps({"init_data": "a" * 70000}),
    ]
    for body in bodies:
        async with web.http.post(web.base + "/pad/api/send", data=body,
                                 headers={"Content-Type": "application/json"}) as response:
            text = await response.text()
            assert 400 <= response.status < 500, (body[:60], response.status, text)
            assert "Traceback" not in text
    assert await totals(web) == {"alice": 0, "bob": 0, "carol": 0}


async def test_a_telegram_name_with_markup_is_only_text(web: Web):
    assert web.tg is not None
    token = await started(web)
    mallory = {"id": 1, "first_name": "<script>alert(1)</script>", "last_name": "<b>x</b>",
               "language_code": "en"}
    status, state = await web.post("/pad/api/state",
                                   {"init_data": signed(mallory, token)})
    assert status == 200
    assert state["you"] == "<script>alert(1)</script> <b>x</b>"  # as given, shown as text
