import pickle

import pytest

from pystream.common import Row, RowKind


def test_positional_row_reads_like_a_sequence():
    row = Row(1, "a", None)
    assert (row[0], row[1:], len(row), list(row), 1 in row) == (1, ["a", None], 3, [1, "a", None],
                                                                 True)


def test_named_row_reads_by_name_index_and_attribute():
    row = Row(name="Alice", age=11)
    assert (row.name, row["age"], row[0], row.as_dict(), "name" in row) == \
        ("Alice", 11, "Alice", {"name": "Alice", "age": 11}, True)


def test_row_as_factory_of_named_rows():
    person = Row("name", "age")
    assert person("Bob", 3) == Row(name="Bob", age=3)


def test_rows_compare_like_pyflink():
    assert [Row(1, 2) == Row(1, 2), Row(a=1, b=2) == Row(b=2, a=1), Row(1, 2) == (1, 2),
            Row(a=1) == Row(1), Row.of_kind(RowKind.DELETE, 1) == Row(1)] == \
        [True, True, False, False, False]


def test_row_reprs_like_pyflink():
    assert [repr(Row(1, "x")), repr(Row(a=1, b="x")), str(RowKind.UPDATE_AFTER)] == \
        ["<Row(1, 'x')>", "Row(a=1, b='x')", "+U"]


def test_row_is_mutable_and_pickles():
    row = Row(k="a", v=1)
    row["v"] = 5
    row[0] = "b"
    row.set_row_kind(RowKind.UPDATE_BEFORE)
    back = pickle.loads(pickle.dumps(row))
    assert back == Row.of_kind(RowKind.UPDATE_BEFORE, k="b", v=5)


def test_recursive_as_dict():
    row = Row(key=1, value=Row(name="a", age=2))
    assert row.as_dict(True) == {"key": 1, "value": {"name": "a", "age": 2}}


def test_unknown_field_and_unnamed_as_dict_raise():
    with pytest.raises(AttributeError):
        _ = Row(a=1).b
    with pytest.raises(TypeError):
        Row(1).as_dict()
