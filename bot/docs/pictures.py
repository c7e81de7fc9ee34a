"""The pictures of the docs (docs/images/*.png), drawn from the bot's real output.

A scene plays commands and taps through the real Service on a temporary SQLite file, and
each reply goes through the adapters' own renderers: Telegram's HTML and inline keyboard
(`telegram_adapter/render.py`, `keyboards.py`), Discord's embed and components
(`discord_adapter/render.py`, `components.py`, `forms.py`). Only the chat around them is
drawn here, with Pillow, in each app's colours; fonts come from matplotlib (DejaVu) and
fontpkg-noto-sans-devanagari (Nepali).

    python -m bot.docs.pictures             # remake every picture in docs/images/
    python -m bot.docs.pictures --out DIR   # somewhere else
    python -m bot.docs.pictures --club      # only the club's page (web-club*.png)
"""

from __future__ import annotations

import argparse
import asyncio
import html
import io
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import discord
import fontpkg_noto_sans_devanagari as devanagari
import matplotlib
from PIL import Image, ImageDraw, ImageFont

from bot.core.command import Actor, Command, Reply
from bot.core.flows import Ask, seal
from bot.core.grammar import parse_command_text
from bot.core.i18n import translator
from bot.core.service import Service
from bot.discord_adapter import components, forms
from bot.discord_adapter.render import message_parts
from bot.storage import open_store
from bot.telegram_adapter import keyboards
from bot.telegram_adapter.render import reply_chunks

OUT = Path(__file__).resolve().parents[2] / "docs" / "images"
SECRET = b"pictures"
CHAT = "telegram:-1001234567890"
BOT = "Maalbot"

# --- fonts: DejaVu for Latin, Noto Sans Devanagari for Nepali, run by run ---------------

_DEJAVU = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
_NOTO = next(iter(sorted((devanagari.ROOT / "files").glob("*.ttf"))))
# glyphs DejaVu lacks, as the nearest it has (the apps draw these as emoji)
_SUBSTITUTES = {"✅": "✔", "⚠️": "⚠", "\ufe0f": ""}


def _deva(char: str) -> bool:
    return "\u0900" <= char <= "\u097f" or "\ua8e0" <= char <= "\ua8ff" or char in "\u200c\u200d"


@dataclass(frozen=True)
class Face:
    """A font for Latin text with Noto Sans Devanagari beside it for Nepali."""

    latin: ImageFont.FreeTypeFont
    deva: ImageFont.FreeTypeFont

    @classmethod
    def of(cls, name: str, size: int) -> Face:
        deva = ImageFont.truetype(str(_NOTO), size, layout_engine=ImageFont.Layout.RAQM)
        return cls(ImageFont.truetype(str(_DEJAVU / name), size), deva)

    def runs(self, text: str) -> Iterator[tuple[str, ImageFont.FreeTypeFont]]:
        for old, new in _SUBSTITUTES.items():
            text = text.replace(old, new)
        for run in re.findall(r"[\u0900-\u097f\ua8e0-\ua8ff\u200c\u200d]+|"
                              r"[^\u0900-\u097f\ua8e0-\ua8ff\u200c\u200d]+", text):
            yield run, self.deva if _deva(run[0]) else self.latin

    def width(self, text: str) -> float:
        return sum(font.getlength(run) for run, font in self.runs(text))

    def draw(self, canvas: ImageDraw.ImageDraw, xy: tuple[float, float], text: str,
             fill: str) -> None:
        x, y = xy
        baseline = y + self.latin.getmetrics()[0]  # both fonts share the Latin baseline
        for run, font in self.runs(text):
            canvas.text((x, baseline), run, font=font, fill=fill, anchor="ls")
            x += font.getlength(run)

    def wrap(self, text: str, width: float) -> list[str]:
        lines: list[str] = []
        for paragraph in text.split("\n"):
            line = ""
            for word in paragraph.split(" "):
                candidate = f"{line} {word}" if line else word
                if line and self.width(candidate) > width:
                    lines.append(line)
                    line = word
                else:
                    line = candidate
            lines.append(line)
        return lines


# --- what a chat shows ----------------------------------------------------------------


@dataclass
class Post:
    """One message in a chat: who sent it, its text blocks, and what comes under it."""

    sender: str
    blocks: list[tuple[str, str]] = field(default_factory=list)  # ("text"|"pre", text)
    title: str = ""  # Discord: the embed's title
    embed: list[tuple[str, str]] = field(default_factory=list)  # Discord: the embed's blocks
    buttons: list[list[tuple[str, str]]] = field(default_factory=list)  # rows of (label, style)
    select: str = ""  # Discord: a select's placeholder
    picks: list[str] = field(default_factory=list)  # Discord: a select's chosen options
    image: bytes | None = None
    form: list[tuple[str, str]] = field(default_factory=list)  # Discord: a modal's fields
    form_title: str = ""
    note: str = ""  # a grey line above: what the person did
    mine: bool = False  # sent by the person (a command), not the bot
    ephemeral: bool = False


def telegram_post(reply: Reply) -> Post:
    """A reply as the Telegram adapter sends it: its HTML and its inline keyboard."""
    text = reply_chunks(reply)[0]
    blocks: list[tuple[str, str]] = []
    for part in re.split(r"(<pre>.*?</pre>)", text, flags=re.S):
        if part.startswith("<pre>"):
            blocks.append(("pre", html.unescape(part[5:-6])))
        elif part.strip("\n"):
            blocks.append(("text", html.unescape(part.strip("\n"))))
    post = Post(BOT, blocks)
    question = reply.question
    if question is not None and question.choices and question.ask != Ask.TYPE:
        markup = keyboards.markup_for(question, seal(question.token, CHAT, SECRET),
                                      translator(reply.language))
        post.buttons = [[(b.text, "") for b in row] for row in markup.inline_keyboard]
    return post


def discord_post(reply: Reply) -> Post:
    """A reply as the Discord adapter sends it: content, embed and components."""
    content, embeds = message_parts(reply)
    post = Post(BOT, ephemeral=not reply.ok)
    if content:
        post.blocks.append(("text", _unmark(content)))
    for embed in embeds:
        post.title = embed.title or ""
        for part in re.split(r"(```\n.*?\n```)", embed.description or "", flags=re.S):
            if part.startswith("```"):
                post.embed.append(("pre", part[4:-4]))
            elif part.strip("\n"):
                post.embed.append(("text", _unmark(part.strip("\n"))))
    question = reply.question
    if question is not None and question.choices:
        view = components.view_for(question, seal(question.token, CHAT, SECRET),
                                   translator(reply.language))
        row: list[tuple[str, str]] = []
        for child in view.children:
            child = getattr(child, "item", child)  # a DynamicItem wraps its component
            if isinstance(child, discord.ui.Select):
                post.select = child.placeholder or ""
                post.picks = [o.label for o in child.options if o.default]
            elif isinstance(child, discord.ui.Button):
                row.append((child.label or "", child.style.name))
        if row:
            post.buttons = [row]
    return post


def _unmark(text: str) -> str:
    """Discord shows an escaped Markdown character without its backslash."""
    return re.sub(r"\\([\\*_~|`>\[\]#-])", r"\1", text)


# --- drawing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Look:
    width: int
    background: str
    bubble: str
    mine: str
    text: str
    muted: str
    name: str
    pre_back: str
    button: str
    button_text: str
    embed_bar: str = ""


TELEGRAM = Look(460, "#c6d8b4", "#ffffff", "#e1fec6", "#000000", "#6d7f62", "#3a8bd6",
                "#f2f4f0", "#8fa985", "#ffffff")
DISCORD = Look(560, "#313338", "#2b2d31", "#313338", "#dbdee1", "#949ba4", "#ffffff",
               "#1e1f22", "#5865f2", "#ffffff", embed_bar="#c27c0e")
DISCORD_STYLES = {"primary": "#5865f2", "secondary": "#4e5058", "danger": "#da373c",
                  "success": "#248046"}

SANS = Face.of("DejaVuSans.ttf", 15)
BOLD = Face.of("DejaVuSans-Bold.ttf", 15)
SMALL = Face.of("DejaVuSans.ttf", 12)
MONO = Face.of("DejaVuSansMono.ttf", 14)
LINE, PRE_LINE, PAD = 21, 18, 10


class Painter:
    """Posts drawn one under another; the height is found by drawing twice."""

    def __init__(self, look: Look, discord_like: bool) -> None:
        self.look, self.discord = look, discord_like

    def render(self, posts: list[Post]) -> Image.Image:
        height = self._paint(posts, None)
        image = Image.new("RGB", (self.look.width, height), self.look.background)
        self._paint(posts, ImageDraw.Draw(image), image)
        return image

    def _paint(self, posts: list[Post], canvas: ImageDraw.ImageDraw | None,
               image: Image.Image | None = None) -> int:
        y = PAD
        for post in posts:
            if post.note:
                if canvas:
                    SMALL.draw(canvas, (PAD + 4, y), post.note, self.look.muted)
                y += 20
            y = (self._discord(post, canvas, image, y) if self.discord
                 else self._telegram(post, canvas, image, y)) + PAD
        return y

    # Telegram: bubbles, the person's on the right, the keyboard under the bot's
    def _telegram(self, post: Post, canvas: ImageDraw.ImageDraw | None,
                  image: Image.Image | None, y: int) -> int:
        look, inner = self.look, self.look.width - 90
        lines = self._lines(post, inner)
        width = max([self._line_width(kind, text) for kind, text in lines] +
                    [BOLD.width(post.sender) if not post.mine else 0, 120])
        width = min(width, inner) + 2 * PAD
        shown = self._image(post, inner + 2 * PAD)
        if shown is not None:
            width = shown.width
        height = self._lines_height(lines) + 2 * PAD + (0 if post.mine else LINE)
        height += shown.height if shown is not None else 0
        x = look.width - width - PAD if post.mine else PAD
        if canvas and image is not None:
            canvas.rounded_rectangle((x, y, x + width, y + height), 12,
                                     fill=look.mine if post.mine else look.bubble)
            top = y + PAD
            if not post.mine:
                BOLD.draw(canvas, (x + PAD, top), post.sender, look.name)
                top += LINE
            if shown is not None:
                image.paste(shown, (x, top))
                top += shown.height
            self._draw_lines(canvas, lines, x + PAD, top, width - 2 * PAD)
        y += height
        for row in post.buttons:
            y += 4
            cell = (width + 4) / len(row) - 4
            for i, (label, _style) in enumerate(row):
                left = x + i * (cell + 4)
                if canvas:
                    canvas.rounded_rectangle((left, y, left + cell, y + 34), 8,
                                             fill=look.button)
                    SANS.draw(canvas, (left + (cell - SANS.width(label)) / 2, y + 8), label,
                              look.button_text)
            y += 34
        return y

    # Discord: avatar, name, content, an embed with a bar, components under it
    def _discord(self, post: Post, canvas: ImageDraw.ImageDraw | None,
                 image: Image.Image | None, y: int) -> int:
        look, left = self.look, 64
        inner = look.width - left - PAD - 2 * PAD
        if post.mine:  # a slash command shows as a line above the bot's answer
            said = f"{post.sender} used {post.blocks[0][1]}"
            for line in SMALL.wrap(said, inner):
                if canvas:
                    SMALL.draw(canvas, (left, y), line, look.muted)
                y += 16
            return y - PAD + 2
        if post.form:  # a modal: a form over the chat, not a message
            return self._form(post, canvas, left, y, inner + 2 * PAD)
        if canvas:
            colour = "#5865f2" if not post.mine else "#3ba55d"
            canvas.ellipse((PAD + 4, y, PAD + 44, y + 40), fill=colour)
            initial = post.sender[:1].upper()
            BOLD.draw(canvas, (PAD + 24 - BOLD.width(initial) / 2, y + 11), initial, "#ffffff")
            BOLD.draw(canvas, (left, y), post.sender, look.name)
            if not post.mine:
                tag = BOLD.width(post.sender) + left + 6
                canvas.rounded_rectangle((tag, y + 2, tag + 34, y + 18), 3, fill="#5865f2")
                SMALL.draw(canvas, (tag + 5, y + 3), "APP", "#ffffff")
        y += LINE + 2
        lines = self._lines(post, inner + 2 * PAD)
        if canvas:
            self._draw_lines(canvas, lines, left, y, inner + 2 * PAD)
        y += self._lines_height(lines)
        if post.title or post.embed:
            body = self._lines(Post(post.sender, post.embed), inner)
            shown = self._image(post, inner)
            head = LINE + 4 if post.title else 0
            height = head + self._lines_height(body) + 2 * PAD
            height += shown.height + 6 if shown is not None else 0
            if canvas and image is not None:
                canvas.rounded_rectangle((left, y, left + inner + 2 * PAD, y + height), 4,
                                         fill=look.bubble)
                canvas.rectangle((left, y, left + 3, y + height), fill=look.embed_bar)
                BOLD.draw(canvas, (left + PAD + 2, y + PAD), post.title, look.name)
                self._draw_lines(canvas, body, left + PAD + 2, y + PAD + head, inner)
                if shown is not None:
                    image.paste(shown, (left + PAD + 2, y + height - shown.height - PAD))
            y += height + 4
        elif (shown := self._image(post, inner)) is not None:
            if image is not None:
                image.paste(shown, (left, y))
            y += shown.height + 4
        if post.select:
            label = ", ".join(post.picks) or post.select
            if canvas:
                canvas.rounded_rectangle((left, y + 4, left + inner, y + 44), 4,
                                         fill=look.pre_back, outline="#1e1f22")
                SANS.draw(canvas, (left + 12, y + 15), label,
                          look.text if post.picks else look.muted)
                canvas.polygon([(left + inner - 24, y + 20), (left + inner - 12, y + 20),
                                (left + inner - 18, y + 27)], fill=look.text)
            y += 48
        for row in post.buttons:
            x = left
            for label, style in row:
                wide = SANS.width(label) + 32
                if canvas:
                    canvas.rounded_rectangle((x, y + 4, x + wide, y + 36), 4,
                                             fill=DISCORD_STYLES.get(style, look.button))
                    SANS.draw(canvas, (x + 16, y + 12), label, look.button_text)
                x += wide + 8
            y += 40
        if post.ephemeral:
            if canvas:
                SMALL.draw(canvas, (left, y + 2), "Only you can see this", look.muted)
            y += 18
        return y

    def _form(self, post: Post, canvas: ImageDraw.ImageDraw | None, left: int, y: int,
              width: int) -> int:
        height = 48 + len(post.form) * 62
        if canvas:
            canvas.rounded_rectangle((left, y + 4, left + width, y + 4 + height), 8,
                                     fill="#313338", outline="#1e1f22", width=2)
            BOLD.draw(canvas, (left + 16, y + 18), post.form_title, self.look.name)
            top = y + 50
            for label, value in post.form:
                SMALL.draw(canvas, (left + 16, top), label.upper(), self.look.muted)
                canvas.rounded_rectangle((left + 16, top + 18, left + width - 16, top + 50),
                                         4, fill="#1e1f22")
                SANS.draw(canvas, (left + 26, top + 25), value, self.look.text)
                top += 62
        return y + height + 10

    def _image(self, post: Post, width: int) -> Image.Image | None:
        if post.image is None:
            return None
        picture = Image.open(io.BytesIO(post.image)).convert("RGB")
        scale = width / picture.width
        return picture.resize((width, round(picture.height * scale)), Image.LANCZOS)

    def _lines(self, post: Post, width: int) -> list[tuple[str, str]]:
        lines: list[tuple[str, str]] = []
        for kind, text in post.blocks:
            if kind == "pre":
                lines += [("pre", line) for line in text.split("\n")]
            else:
                lines += [("text", line) for line in SANS.wrap(text, width)]
        return lines

    def _line_width(self, kind: str, text: str) -> float:
        return (MONO if kind == "pre" else SANS).width(text)

    def _lines_height(self, lines: list[tuple[str, str]]) -> int:
        pre = sum(1 for kind, _ in lines if kind == "pre")
        blocks = sum(1 for i, (kind, _) in enumerate(lines)
                     if kind == "pre" and (i == 0 or lines[i - 1][0] != "pre"))
        return (len(lines) - pre) * LINE + pre * PRE_LINE + blocks * 12

    def _draw_lines(self, canvas: ImageDraw.ImageDraw, lines: list[tuple[str, str]],
                    x: float, y: float, width: float) -> None:
        i = 0
        while i < len(lines):
            kind, text = lines[i]
            if kind != "pre":
                SANS.draw(canvas, (x, y), text, self.look.text)
                y += LINE
                i += 1
                continue
            block = []
            while i < len(lines) and lines[i][0] == "pre":
                block.append(lines[i][1])
                i += 1
            canvas.rounded_rectangle((x - 4, y + 2, x + width + 4,
                                      y + 10 + len(block) * PRE_LINE), 4,
                                     fill=self.look.pre_back)
            for line in block:
                MONO.draw(canvas, (x + 2, y + 6), line, self.look.text)
                y += PRE_LINE
            y += 12


# --- the scenes ------------------------------------------------------------------------


class Table:
    """A chat with the real service: commands and taps in, posts for both apps out."""

    def __init__(self, service: Service, language: str = "en") -> None:
        self.service, self.language = service, language
        self.host = Actor("telegram:1", "Asha", is_admin=True)
        self.telegram: list[Post] = []
        self.discord: list[Post] = []
        self.last: Reply | None = None
        self.session: int | None = None  # the game whose live board a change brought up

    def clear(self) -> None:
        self.telegram, self.discord = [], []

    async def send(self, name: str, text: str = "", show: bool = True,
                   **options: str) -> Reply:
        reply = await self.service.handle(Command(
            chat=CHAT, actor=self.host, name=name, options=options, buttons=True,
            locale=self.language))
        if show:
            typed = f"/{name} {text}".strip()
            self.telegram.append(Post(self.host.name, [("text", typed)], mine=True))
            self.discord.append(Post(self.host.name, [("text", typed)], mine=True))
            self._show(reply)
        self._keep(reply)
        return reply

    def _keep(self, reply: Reply) -> None:
        self.last = reply
        self.session = reply.publish or self.session

    async def tap(self, value: str, note: str, typed: str = "", show: bool = True) -> Reply:
        assert self.last is not None and self.last.question is not None
        token = seal(self.last.question.token, CHAT, SECRET)
        reply = await self.service.answer(CHAT, self.host, token, value,
                                          locale=self.language)
        if typed:  # a typed answer: Telegram's reply to the prompt
            self.telegram.append(Post(self.host.name, [("text", typed)], mine=True))
        if show:
            self._show(reply, note)
        self._keep(reply)
        return reply

    async def board(self) -> Reply:
        """The live board, as the platforms post it after a change."""
        shown: list[Reply] = []

        async def edit(board: Reply, ref: str | None) -> str:
            shown.append(board)
            return ref or "1"

        assert self.session is not None
        await self.service.publish_board(CHAT, self.session, edit)
        self._show(shown[0])
        return shown[0]

    def _show(self, reply: Reply, note: str = "") -> None:
        telegram, discord_ = telegram_post(reply), discord_post(reply)
        telegram.note = discord_.note = note
        if reply.file is not None and reply.file.kind == "image":
            telegram.image = discord_.image = reply.file.data
            telegram.blocks = telegram.blocks[:1]
            if not discord_.embed:  # Discord: the picture in an embed, the text above it
                discord_.embed, discord_.blocks = discord_.blocks, []
        question = reply.question
        if question is not None and question.ask == Ask.TYPE:
            # Telegram asks in a message people reply to; Discord opens a form
            prompt = translator(reply.language).render(question.text)
            self.telegram.append(telegram)
            self.telegram.append(Post(BOT, [("text", prompt)], note=""))
            self.discord.append(discord_)
            return
        self.telegram.append(telegram)
        self.discord.append(discord_)


PLAYERS = {"en": "Asha Bikash Chetan Dipa", "ne": "आशा बिकास चेतन दीपा"}


async def _evening(table: Table, out: Path, language: str) -> None:
    names = PLAYERS[language].split()
    a, b, c, d = names
    if language != "en":
        await table.send("settings", show=False, language=language)
    await table.send("newgame", show=False, **{"": "marriage", "players": " ".join(names)})
    await table.send("rules", show=False, rate="10", currency="Rs")
    await table.send("hand", show=False, winner=a, seen=f"{b} {c}",
                     maal=f"{a}=10 {b}=3 {c}=0 {d}=0")
    await table.send("hand", show=False, winner=c, seen=f"{a} {b} {d}",
                     maal=f"{a}=2 {b}=0 {c}=8 {d}=5", dublee="yes")
    table.clear()
    typed = f"winner:{b} seen:{a} {d} maal:{a}=4 {b}=12 {c}=0 {d}=6"
    await table.send("hand", typed, winner=b, seen=f"{a} {d}", maal=f"{a}=4 {b}=12 {c}=0 {d}=6")
    await table.board()
    suffix = "" if language == "en" else f"-{language}"
    _save(table, out, f"board{suffix}")
    if language != "en":
        table.clear()
        await table.send("endgame", show=False)
        await table.tap("yes", "")
        _save(table, out, f"endgame{suffix}")
        return

    # a hand: on Telegram by taps (who won, who has seen, then the maal), on Discord on
    # one form
    table.clear()
    maal = {a: "3", b: "0", c: "5", d: "9"}
    form = await _hand_form(table, {"winner": d, "seen": f"{a}, {c}",
                                    "maal": " ".join(f"{n}={v}" for n, v in maal.items())})
    reply = await table.send("hand")
    assert reply.question is not None
    winner = next(ch for ch in reply.question.choices if ch.label == d)
    reply = await table.tap(winner.value, f"taps {d}")
    assert reply.question is not None
    seen = {ch.label: ch.value for ch in reply.question.choices}
    await table.tap(seen[a], "", show=False)
    await table.tap(seen[c], f"taps {a}, then {c}")
    reply = await table.tap("done", "taps Done")
    assert reply.question is not None and reply.question.ask == Ask.TYPE
    table.discord = [Post(table.host.name, [("text", "/hand")], mine=True), form]
    pairs = " ".join(f"{n}={maal[n]}" for n in reply.question.fields)
    await table.tap(pairs, "", typed=pairs)
    await table.board()
    _save(table, out, "hand-taps", discord="hand-form")

    # the chart
    table.clear()
    await table.send("chart")
    _save(table, out, "chart")
    assert table.last is not None and table.last.file is not None
    (out / "chart.png").write_bytes(table.last.file.data)

    # the end: a tap to confirm, the standings and who pays whom
    table.clear()
    reply = await table.send("endgame")
    assert reply.question is not None
    await table.tap("yes", f"taps {reply.question.choices[0].label}")
    _save(table, out, "endgame")


async def _hand_form(table: Table, filled: dict[str, str]) -> Post:
    """Discord's form for the next hand, as the adapter makes it for this table
    (`discord_adapter/forms.py`), filled in with `filled` by its fields' labels."""
    look = await table.service.snapshot(CHAT)
    assert look is not None
    spec = forms.form_spec(look, "hand")
    assert spec is not None
    players = [p.name for p in look.session.players if not p.sitting_out]
    modal = forms.whole_form(spec, look.game, players, translator(table.language, "marriage"),
                             look.session.hand_count + 1)
    fields = [child.text for child in modal.children if isinstance(child, discord.ui.Label)]
    return Post(BOT, form_title=modal.title,
                form=[(label, filled.get(label, "")) for label in fields],
                note="fills in the form and sends it")


def _save(table: Table, out: Path, name: str, discord: str = "") -> None:
    """Both apps' pictures of a scene: telegram-NAME.png and discord-NAME.png (or
    discord-DISCORD.png, where Discord's way is another)."""
    Painter(TELEGRAM, False).render(table.telegram).save(out / f"telegram-{name}.png",
                                                          optimize=True)
    Painter(DISCORD, True).render(table.discord).save(
        out / f"discord-{discord or name}.png", optimize=True)


async def make(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    before = set(out.glob("*.png"))
    for language in ("en", "ne"):
        with tempfile.TemporaryDirectory() as folder:
            store = await open_store(f"sqlite:///{folder}/pictures.db")
            try:
                await _evening(Table(Service(store, secret=SECRET), language), out, language)
            finally:
                await store.close()
    with tempfile.TemporaryDirectory() as folder:
        await _web_pages(Path(folder), out)
    with tempfile.TemporaryDirectory() as folder:
        await _club_page(Path(folder), out)
    return sorted(set(out.glob("*.png")) | before)


# --- the web pages, in a real Chromium (the tests' Playwright and Debian's chromium) -----

PAGE_HANDS = [
    "/hand winner:asha seen:bikash maal:asha=10 bikash=2 chandra=0 dublee:yes",
    "/hand winner:bikash seen:asha chandra dipa maal:asha=2 bikash=5 chandra=1 dipa=0",
    "/hand winner:dipa seen:asha maal:asha=4 dipa=6",
    "/hand winner:chandra seen:asha bikash maal:asha=0 bikash=3 chandra=8",
]


async def _web_pages(folder: Path, out: Path) -> None:
    """The scorepad and the scoreboard (phone and TV), as the console serves them."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        print("no Playwright (pip install -e '.[test]'): the web pages' pictures are kept",
              file=sys.stderr)
        return
    from bot.console import ConsoleFace, console_actor, page_links
    from bot.web.server import WebServer

    store = await open_store(f"sqlite:///{folder}/pages.db")
    service = Service(store, secret=SECRET)
    me = console_actor("asha")
    server = WebServer(service, base_url="http://127.0.0.1:0", secret=SECRET, port=0,
                       faces={"console": ConsoleFace(io.StringIO(), False, me)},
                       local=("console", me))
    await server.start()
    try:
        for line in ["/newgame marriage players:asha bikash chandra dipa",
                     "/rules rate:10 currency:Rs", *PAGE_HANDS]:
            typed = parse_command_text(line)
            reply = await service.handle(Command("console", me, typed.name, typed.options))
            assert reply.ok, reply.text
        links = await page_links(service, "console", "asha")
        assert links is not None
        pad, board = links
        async with async_playwright() as driver:
            browser = await driver.chromium.launch(
                executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                      "--disable-component-update", "--disable-sync", "--no-first-run"])
            try:
                for name, url, size, ready in [
                    ("web-scorepad", pad, (390, 844), "#pad input"),
                    ("web-scoreboard", board, (390, 844), "#chart svg"),
                    ("web-scoreboard-tv", board + "?tv", (1280, 720), "#chart svg")]:
                    page = await browser.new_page(viewport={"width": size[0],
                                                            "height": size[1]},
                                                  color_scheme="light")
                    await page.goto(url)
                    await page.wait_for_selector(ready)
                    if name == "web-scorepad":  # a hand half entered
                        await page.get_by_role("radio", name="winner bikash").check()
                        for seen in ("asha", "dipa"):
                            await page.get_by_role("checkbox", name=f"seen {seen}").check()
                        for who, maal in (("asha", "3"), ("bikash", "7"), ("dipa", "2")):
                            await page.get_by_role("textbox", name=f"maal {who}").fill(maal)
                    await page.screenshot(path=str(out / f"{name}.png"))
                    await page.close()
            finally:
                await browser.close()
    finally:
        await server.stop()
        await store.close()


# --- the club's page: three tables of one club, a season of Marriage and some Riichi ----

CLUB_TABLES = {"console:thamel": "Thamel", "console:patan": "Patan",
               "console:riichi": "Sunday Riichi"}
CLUB_PEOPLE = ["asha", "bikash", "chetan", "dipa", "eshan", "farah"]


def _club_games() -> list[tuple[str, list[str]]]:
    """The club's evening, the same every time: (table, lines), each a whole game."""
    import random

    pick = random.Random(22)
    games: list[tuple[str, list[str]]] = []
    for n in range(14):
        table = "console:thamel" if n % 2 == 0 else "console:patan"
        seated = pick.sample(CLUB_PEOPLE, 4)
        if n == 5:  # a guest, typed by name, at Patan
            seated[3] = "gopal"
        lines = [f"/newgame marriage players:{' '.join(_seat(p) for p in seated)}"]
        if table == "console:thamel":  # Thamel plays for money
            lines.append("/rules rate:10 currency:Rs")
        for _hand in range(3):
            winner, *others = pick.sample(seated, 4)
            seen = " ".join(others[:2])
            maal = " ".join(f"{p}={pick.randint(0, 9)}" for p in [winner, *others[:2]])
            lines.append(f"/hand winner:{winner} seen:{winner} {seen} maal:{maal}")
        games.append((table, lines))
        if n % 4 == 3:
            east = pick.sample(CLUB_PEOPLE, 4)
            a, b, c, _d = east
            games.append(("console:riichi", [
                f"/newgame riichi players:{' '.join('@' + p for p in east)}",
                f"/ron winner:{a} from:{b} han:{pick.randint(1, 4)} fu:30",
                f"/tsumo winner:{c} han:{pick.randint(1, 3)} fu:40"]))
    return games


def _seat(person: str) -> str:
    return person if person == "gopal" else f"@{person}"


async def club_scene(service: Service) -> str:
    """The club's evening played at its three tables; the club page's link."""
    from dataclasses import replace

    from bot.console import line_to_command

    async def say(chat: str, line: str) -> Reply:
        command = replace(line_to_command(line, "asha", chat), chat_name=CLUB_TABLES[chat])
        reply = await service.handle(command)
        assert reply.ok, f"{chat}: {line}: {reply.text}"
        return reply

    first, *others = CLUB_TABLES
    made = await say(first, "/club new name:Friday Marriage")
    for chat in others:
        code = re.search(r"code:([A-Z0-9]{4}-[A-Z0-9]{4})", made.text)
        assert code is not None, made.text
        await say(chat, f"/club join code:{code.group(1)}")
        made = await say(first, "/club code")
    for chat, lines in _club_games():
        for line in lines:
            await say(chat, line)
        await say(chat, "/endgame sure")  # (a hanchan ended early: said so)
    link = re.search(r"http://\S+/c/\S+", (await say(first, "/club page")).text)
    assert link is not None
    return link.group(0)


async def _club_page(folder: Path, out: Path) -> None:
    """The club's page on a phone (the club, and a member's page) and on a TV."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        print("no Playwright (pip install -e '.[test]'): the club page's pictures are kept",
              file=sys.stderr)
        return
    from bot.web.server import WebServer

    store = await open_store(f"sqlite:///{folder}/club.db")
    service = Service(store, secret=SECRET)
    server = WebServer(service, base_url="http://127.0.0.1:0", secret=SECRET, port=0)
    await server.start()
    try:
        link = await club_scene(service)
        async with async_playwright() as driver:
            browser = await driver.chromium.launch(
                executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                      "--disable-component-update", "--disable-sync", "--no-first-run"])
            try:
                for name, url, size in [
                        ("web-club", link, (390, 844)),
                        ("web-club-member", link, (390, 844)),
                        ("web-club-tv", link + "?tv", (1920, 1080))]:
                    page = await browser.new_page(viewport={"width": size[0],
                                                            "height": size[1]},
                                                  color_scheme="light")
                    await page.goto(url)
                    await page.wait_for_selector("#chart svg")
                    if name == "web-club":  # past the league table: the chart in view
                        await page.evaluate("document.getElementById('standings-part')"
                                            ".scrollIntoView()")
                    if name == "web-club-member":  # a member's page, from their name
                        await page.locator("#standings a.who").first.click()
                        await page.wait_for_selector("#member-games .chart svg")
                    await page.screenshot(path=str(out / f"{name}.png"))
                    await page.close()
            finally:
                await browser.close()
    finally:
        await server.stop()
        await store.close()


def main_made(out: Path) -> list[Path]:
    """Every picture, made in `out`."""
    return asyncio.run(make(out))


async def _club_only(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        await _club_page(Path(folder), out)
    return sorted(out.glob("web-club*.png"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.docs.pictures",
                                     description="Remake the docs' pictures.")
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder (default {OUT})")
    parser.add_argument("--club", action="store_true", help="only the club's page")
    args = parser.parse_args(argv)
    made = asyncio.run(_club_only(args.out)) if args.club else main_made(args.out)
    for path in made:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
