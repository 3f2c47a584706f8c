"""fluxion-sweep's case table (python/fluxion/sweep_cases.py): the values of --set as the XML
text they write in, and the order of the cases."""
import math

import pytest

from fluxion.sweep_cases import CaseError, build_cases, parse_report, parse_set, parse_values


def test_a_comma_list_keeps_each_value_as_written():
    assert parse_values("1e2, 250 ,0 -9.81 0") == ["1e2", "250", "0 -9.81 0"]


def test_a_range_has_n_evenly_spaced_values_ends_included():
    assert parse_values("100:1000:10") == [str(v) for v in range(100, 1001, 100)]
    # Not integers: the shortest text of each double a + (b − a)·i/(n − 1).
    assert parse_values("0:1:4") == ["0", repr(1 / 3), repr(2 / 3), "1"]


def test_a_log_range_is_evenly_spaced_in_log10():
    values = [float(v) for v in parse_values("1e2:1e4:5:log")]
    assert values[0] == 100 and values[-1] == 10000 and values[2] == 1000
    # 10^2.5 to the double's own precision (one ulp of round-off in the power).
    assert math.isclose(values[1], 10 ** 2.5, rel_tol=2 ** -52)


@pytest.mark.parametrize("text, message", [
    ("1:2:x", "is not a count"), ("1:2:0", "at least 1 value"), ("0:1:3:log", "positive ends"),
    ("1:2", "is not a range"), ("1,,2", "empty value"), ("a:2:3", "is not a number")])
def test_bad_values_are_refused_with_what_was_expected(text, message):
    with pytest.raises(CaseError, match=message):
        parse_values(text)


def test_a_grid_varies_the_last_set_fastest_and_the_solvers_slowest():
    sets = [parse_set("a.x=1,2"), parse_set("b.y=3,4,5")]
    paths, cases = build_cases(sets, ["S", "T"], "grid")
    assert paths == ["a.x", "b.y"]
    assert [(c["solver"], [v for _, v in c["values"]]) for c in cases] == [
        (s, [a, b]) for s in "ST" for a in "12" for b in "345"]


def test_zip_pairs_the_ith_values_and_needs_equal_lengths():
    _, cases = build_cases([parse_set("a.x=1,2"), parse_set("b.y=3,4")], [], "zip")
    assert [c["values"] for c in cases] == [[("a.x", "1"), ("b.y", "3")],
                                            [("a.x", "2"), ("b.y", "4")]]
    with pytest.raises(CaseError, match="as many values"):
        build_cases([parse_set("a.x=1,2"), parse_set("b.y=3")], [], "zip")


def test_a_case_table_gives_the_cases_row_by_row():
    paths, cases = build_cases([], [], "grid", (["a.x", "solver"], [["1", "S"], ["2", "T"]]))
    assert paths == ["a.x"]
    assert cases == [{"values": [("a.x", "1")], "solver": "S"},
                     {"values": [("a.x", "2")], "solver": "T"}]


def test_report_names_an_object_and_a_point():
    assert parse_report("root/cloth/dofs:63") == ("root/cloth/dofs", 63)
    with pytest.raises(CaseError, match="OBJECT:INDEX"):
        parse_report("root/cloth/dofs")
