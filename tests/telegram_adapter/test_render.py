from bot.core.command import Reply
from bot.telegram_adapter.render import reply_chunks


def test_a_short_reply_is_one_message_with_the_board_in_pre():
    chunks = reply_chunks(Reply("Hand 1 <ok> & done", table="  # a b\n  1 +1 -1"))
    assert chunks == ["Hand 1 &lt;ok&gt; &amp; done\n<pre>  # a b\n  1 +1 -1</pre>"]


def test_a_long_board_is_split_into_well_formed_messages_under_the_limit():
    table = "\n".join(f"{i:>5} " + "&<>" * 30 for i in range(400))
    chunks = reply_chunks(Reply("Board", table=table), limit=1000)
    assert len(chunks) > 5
    for chunk in chunks:
        assert len(chunk) <= 1000
        assert chunk.count("<pre>") == chunk.count("</pre>")
    body = "".join(chunks).replace("<pre>", "").replace("</pre>", "\n")
    assert body.count("&amp;") == 400 * 30  # nothing lost, no entity cut in half


def test_an_enormous_line_is_cut_without_breaking_an_entity():
    chunks = reply_chunks(Reply("&" * 3000), limit=1000)
    assert all(len(c) <= 1000 for c in chunks)
    assert "".join(chunks).count("&amp;") == 3000
    assert reply_chunks(Reply.error("bad"))[0].startswith("⚠️ bad")
