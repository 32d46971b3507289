"""A duplicate match's intervals over few deal sets: honest (a t interval, at
least Wilson's) and said to be rough, in the summary and on the command line."""

from __future__ import annotations

import pytest


def test_a_few_deal_sets_get_an_honest_interval_and_a_warning():
    """Five deal sets in which the lone level won exactly one game of three
    each time: the interval was 33.3% to 33.3%."""
    from crib3.engine import Rules
    from crib3.study import duplicate

    sets = [duplicate.DealSet(n, (True, False, False, True, True, False), (1.0,) * 6)
            for n in range(5)]
    summary = duplicate.DuplicateSummary("expert", "standard", Rules(), 1, sets=sets, wanted=5)
    value, low, high = summary.alone_share(True)
    assert value == 1 / 3 and low < 1 / 3 - 0.1 and high > 1 / 3 + 0.1
    # Wilson's over the 15 games alone, at least: never narrower than that
    w_low, w_high = duplicate.wilson(5, 15)
    assert low <= w_low and high >= w_high and 0 < w_low < 1 / 3 < w_high < 1
    data = summary.to_json()
    assert data["few_deal_sets"] and all(
        0 <= data[key]["ci95"][0] < data[key]["ci95"][1] <= 1
        for key in ("a_share", "a_alone_vs_two_b", "b_alone_vs_two_a"))
    text = duplicate.format_summary(summary)
    assert "only 5 deal sets: the intervals are rough" in text
    assert "33.3% to 33.3%" not in text
    # a t interval, not a normal one, over a few sets: wider by t/z
    values = [0.0, 1.0, 1.0, 0.0, 1.0]
    _, n_low, n_high = duplicate.mean_interval(values)
    _, t_low, t_high = duplicate.t_interval(values)
    assert (t_high - t_low) / (n_high - n_low) == pytest.approx(2.776 / duplicate.Z95)
    assert duplicate.t_quantile(200) == pytest.approx(1.972, abs=1e-3)


def test_sim_duplicate_with_few_sets_warns():
    from commands import crib3

    result = crib3("sim", "--duplicate", "standard,easy", "--games", "2", "--seed", "5",
                   "--jobs", "1")
    assert result.returncode == 0 and "only 2 deal sets: the intervals are rough" in result.stdout
