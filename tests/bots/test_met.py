"""The match equity table shipped in the package (RULES.md 9.1, 9.3)."""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tavla.bots.met import kazaross_xg2, match_equity, read_table

XML = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")
BEYOND = 40


@pytest.mark.skipif(not XML.exists(), reason="the Debian gnubg package's tables are not installed")
def test_values_are_the_published_tables() -> None:
    """Every figure of Kazaross-XG2.xml, pre- and post-Crawford, as installed by gnubg."""
    root = ET.parse(XML).getroot()
    pre = [[float(cell.text or "") for cell in row.iter("me")] for row in root.iter("row")][:25]
    post_table = root.find("post-crawford-table")
    assert post_table is not None
    (post,) = [[float(cell.text or "") for cell in row.iter("me")] for row in post_table.iter("row")]
    table = kazaross_xg2()
    assert table.length == 25
    for away in range(1, 26):
        assert table.equity(away, 1, post_crawford=True) == (0.5 if away == 1 else post[away - 1])
        for opp in range(1, 26):
            assert match_equity(away, opp) == pre[away - 1][opp - 1]


def test_known_figures_and_the_source_is_named() -> None:
    """A few figures players know: 2-away/2-away even, Crawford 1-away/2-away, 4-away
    post-Crawford; the data file names where it comes from."""
    assert match_equity(2, 2) == 0.5
    assert match_equity(1, 2) == pytest.approx(0.67736)
    assert match_equity(2, 1) == pytest.approx(0.32264)
    assert match_equity(4, 1, post_crawford=True) == pytest.approx(0.31002)
    assert match_equity(1, 4, post_crawford=True) == pytest.approx(1 - 0.31002)
    table = kazaross_xg2()
    assert "Kazaross" in table.name and "gnubg" in table.source


def test_won_and_lost_matches() -> None:
    assert match_equity(0, 3) == 1.0
    assert match_equity(-2, 1, post_crawford=True) == 1.0
    assert match_equity(5, 0) == 0.0
    with pytest.raises(ValueError, match="both"):
        match_equity(0, 0)
    with pytest.raises(ValueError, match="post-Crawford"):
        match_equity(3, 4, post_crawford=True)


@pytest.mark.parametrize("post_crawford", [False, True])
def test_symmetric_within_and_beyond_the_table(post_crawford: bool) -> None:
    """p(a, b) + p(b, a) = 1: one of the two players wins the match."""
    for away in range(1, BEYOND + 1):
        for opp in range(1, BEYOND + 1):
            if post_crawford and 1 not in (away, opp):
                continue
            both = match_equity(away, opp, post_crawford=post_crawford)
            both += match_equity(opp, away, post_crawford=post_crawford)
            assert both == pytest.approx(1.0, abs=1e-12), (away, opp)


def test_monotone_within_and_beyond_the_table() -> None:
    """Needing fewer points never hurts; the opponent needing more never hurts; every
    chance lies strictly between 0 and 1."""
    for away in range(1, BEYOND + 1):
        for opp in range(1, BEYOND + 1):
            here = match_equity(away, opp)
            assert 0.0 < here < 1.0
            assert match_equity(away, opp + 1) >= here, (away, opp)
            assert match_equity(away + 1, opp) <= here, (away, opp)
    post = [match_equity(away, 1, post_crawford=True) for away in range(1, BEYOND + 1)]
    assert all(later <= earlier for earlier, later in itertools.pairwise(post))
    assert post[-1] > 0.0


def test_extension_fits_the_table_where_it_is_long() -> None:
    """The normal approximation used past 25 points stays within 0.003 of the table
    wherever both players are 12 to 25 away, so its spread is the table's own."""
    from statistics import NormalDist

    from tavla.bots.met import SPREAD

    normal = NormalDist()
    for away in range(12, 26):
        for opp in range(12, 26):
            model = normal.cdf(SPREAD * (opp - away) / (away + opp) ** 0.5)
            assert model == pytest.approx(match_equity(away, opp), abs=0.003)


@pytest.mark.parametrize("post_crawford", [False, True])
def test_extension_with_a_one_away_side_keeps_each_parity(post_crawford: bool) -> None:
    """Past 25 points against a 1-away side, each two points more multiply the chance by
    the ratio of the table's last two entries of the same parity (the trailer doubles
    every game: one more game to win per two points), so 26 and 28 away carry on from
    24 away, 27 and 29 away from 25 away."""
    table = kazaross_xg2()
    column = table.post if post_crawford else table.pre[:, 0]
    for away, last in ((26, 24), (27, 25), (28, 24), (29, 25)):
        ratio = column[last - 1] / column[last - 3]
        expected = float(column[last - 1] * ratio ** ((away - last) // 2))
        assert match_equity(away, 1, post_crawford=post_crawford) == pytest.approx(expected, rel=1e-12)
        assert match_equity(1, away, post_crawford=post_crawford) == pytest.approx(1 - expected, rel=1e-12)


def test_a_table_is_read_from_its_json_form() -> None:
    """read_table, on a two-point table written as scripts/convert_met.py writes one."""
    text = json.dumps(
        {
            "name": "tiny",
            "source": "hand-made",
            "length": 2,
            "pre_crawford": [[0.5, 0.7], [0.3, 0.5]],
            "post_crawford": [0.5, 0.32],
        }
    )
    table = read_table(text)
    assert (table.name, table.source, table.length) == ("tiny", "hand-made", 2)
    assert table.pre.tolist() == [[0.5, 0.7], [0.3, 0.5]] and table.post.tolist() == [0.5, 0.32]
    assert table.equity(1, 2) == 0.7 and table.equity(2, 1, post_crawford=True) == 0.32
    with pytest.raises(ValueError, match="a match equity table of 3 points needs 3 x 3 and 3"):
        read_table(text.replace('"length": 2', '"length": 3'))
