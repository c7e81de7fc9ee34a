"""Names in the chart as drawn (issue 38): a Riichi table's Japanese or Chinese names drew as
empty boxes. Each test looks at the pixels of the drawn picture, with only the fonts the
packages ship (a hosted worker has no fonts of its own). A letter no font has is drawn by
matplotlib's last resort, a box: so a name drawn as boxes gives the same picture as with
DejaVu Sans alone, which has no CJK, Tamil or Thai, and matplotlib warns of each such
letter as "missing from font(s)"."""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from pathlib import Path

import matplotlib
import matplotlib.image as mpimg
import numpy as np
import pytest
from matplotlib import font_manager

from bot.core import chart
from bot.core.session import HandRecord

# matplotlib warns of every letter it draws as a box: here, on purpose (`missing` reads them)
pytestmark = pytest.mark.filterwarnings("ignore:Glyph .* missing from font")
HANDS = [HandRecord(no=1, players=[1, 2], inputs={}, rules={}, deltas={1: 8, 2: -8},
                    summary="", recorded_by="x", recorded_by_name="x"),
         HandRecord(no=2, players=[1, 2], inputs={}, rules={}, deltas={1: -3, 2: 3},
                    summary="", recorded_by="x", recorded_by_name="x")]


@pytest.fixture(autouse=True)
def shipped_fonts_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Only the fonts installed with the packages (matplotlib's DejaVu, ours), none of the
    machine's own: this machine has Noto CJK of its own, a hosted worker need not."""
    manager = font_manager.fontManager
    packages = Path(matplotlib.__file__).resolve().parents[1]
    shipped = [f for f in manager.ttflist if Path(f.fname).resolve().is_relative_to(packages)]
    assert any("CJK" in f.name for f in shipped), "no CJK font among the packages' fonts"
    monkeypatch.setattr(manager, "ttflist", shipped)
    manager._findfont_cached.cache_clear()
    yield
    manager._findfont_cached.cache_clear()


def drawn(*names: str, **rc: object) -> np.ndarray:
    """The chart of two hands with columns `names`, as pixels."""
    with matplotlib.rc_context(rc):
        png = chart.render_chart(list(enumerate(names, 1)), HANDS, {}, "Riichi mahjong")
    return mpimg.imread(io.BytesIO(png))


def boxes(*names: str) -> np.ndarray:
    """The same chart drawn with DejaVu Sans alone: every letter it lacks a box."""
    return drawn(*names, **{"font.family": ["DejaVu Sans"]})


def missing(*names: str, **rc: object) -> list[str]:
    """The letters matplotlib says it drew as boxes, drawing the chart of `names`."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        drawn(*names, **rc)
    return [str(w.message) for w in caught if "missing from font" in str(w.message)]


@pytest.mark.parametrize("names", [("山田", "鈴木"), ("张伟", "王芳"), ("さくら", "김민준")],
                         ids=["Japanese", "Chinese", "kana and Hangul"])
def test_names_in_chinese_japanese_or_korean_are_drawn_not_boxes(names: tuple[str, str]):
    assert not np.array_equal(drawn(*names), boxes(*names))
    assert missing(*names) == []
    assert chart.undrawable(names) == []


def test_the_check_can_tell_a_name_drawn_as_boxes():
    """With the fonts shipped before (no CJK), the names are drawn as boxes: the test above
    fails on them; and they are the names found undrawable."""
    names = ("山田", "鈴木")
    before = {"font.family": ["DejaVu Sans", "Noto Sans Devanagari"]}
    assert np.array_equal(drawn(*names, **before), boxes(*names))
    assert len(missing(*names, **before)) == 4
    with matplotlib.rc_context(before):
        assert chart.undrawable(["alice", *names]) == list(names)


def test_a_name_no_font_has_is_drawn_as_boxes_and_said():
    """Tamil and Thai: no shipped font has them. The chart draws them as boxes, and those
    are the names undrawable finds; Latin, Devanagari and CJK names are not."""
    names = ("முருகன்", "สมชาย")
    assert np.array_equal(drawn(*names), boxes(*names))
    assert missing(*names)
    assert chart.undrawable(["alice", "राम", "山田", *names, "முருகன்"]) == list(names)
    assert not np.array_equal(drawn("alice", "राम"), boxes("alice", "राम"))
