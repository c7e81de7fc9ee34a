"""The builder of the look-alike table reads Unicode's confusables.txt as UTS #39 writes it,
keeps what a name can hold, and leaves every value read to its end."""

import pytest

from bot.core import confusables_build

SAMPLE = """\ufeff# confusables.txt
# Date: 2025-07-22, 05:49:37 GMT
# Version: 17.0.0
042C ;\t0062 ;\tMA\t# ( Ь → b ) CYRILLIC CAPITAL LETTER SOFT SIGN → LATIN SMALL LETTER B
0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A
0030 ;\t004F ;\tMA\t# ( 0 → O ) DIGIT ZERO → LATIN CAPITAL LETTER O
0902 ;\t0307 ;\tMA\t# ( ं → ̇ ) DEVANAGARI SIGN ANUSVARA → COMBINING DOT ABOVE
FF41 ;\t0061 ;\tMA\t# ( ａ → a ) FULLWIDTH LATIN SMALL LETTER A → LATIN SMALL LETTER A
1D0B ;\t0138 ;\tMA\t# ( ᴋ → ĸ ) LATIN LETTER SMALL CAPITAL K → LATIN SMALL LETTER KRA
0138 ;\t006B ;\tMA\t# ( ĸ → k ) LATIN SMALL LETTER KRA → LATIN SMALL LETTER K
"""


def test_the_table_keeps_what_a_name_holds_and_reads_each_value_to_its_end():
    header, table = confusables_build.build(SAMPLE.lstrip("\ufeff"))
    assert header.startswith("confusables.txt version 17.0.0 (2025-07-22, 05:49:37 GMT)")
    assert table["Ь"] == "b" and table["а"] == "a"
    assert table["0"] == "o"  # a capital prototype is read in any case
    assert "\u0902" not in table  # a Devanagari sign stays: हंस is not हस
    assert "ａ" not in table  # folded to a before the table is looked at
    assert table["ᴋ"] == "k" and table["ĸ"] == "k"  # small capital; kra read on to k
    assert table["ᴀ"] == "a"  # every Latin small capital, listed in confusables.txt or not


def test_a_file_without_its_version_is_refused():
    with pytest.raises(SystemExit, match="no Version/Date header"):
        confusables_build.build("0430 ;\t0061 ;\tMA\t# a\n")
