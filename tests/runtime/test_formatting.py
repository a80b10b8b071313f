import datetime
import decimal

from pystream.common import Row, RowKind, Types
from pystream.common.formatting import java_string

# Java's toString of the values, as Flink's print sink and text files show them (checked on
# PyFlink 2.3; arrays print as lists, where Flink prints Java array references). A ROW record
# given to print() itself is printed by PyFlink in Python (python_row_string).
CASES = [
    (True, Types.BOOLEAN(), "true"), (1.5, Types.DOUBLE(), "1.5"), (1e20, Types.DOUBLE(), "1.0E20"),
    (0.1 + 0.2, Types.FLOAT(), "0.3"), (3, Types.INT(), "3"), ("x", Types.STRING(), "x"),
    (decimal.Decimal("1.250000"), Types.BIG_DEC(), "1.250000"),
    (datetime.date(2020, 1, 2), Types.SQL_DATE(), "2020-01-02"),
    (datetime.time(1, 2, 3), Types.SQL_TIME(), "01:02:03"),
    (datetime.datetime(2020, 1, 2, 3, 4, 5, 123000), Types.SQL_TIMESTAMP(),
     "2020-01-02 03:04:05.123"),
    ({"k": 1}, Types.MAP(Types.STRING(), Types.INT()), "{k=1}"),
    (Row(1, "aaa"), Types.ROW([Types.INT(), Types.STRING()]), "+I[1, aaa]"),
    (Row.of_kind(RowKind.UPDATE_AFTER, 1, None), Types.ROW([Types.INT(), Types.STRING()]),
     "+U[1, null]"),
    ((1, "a"), Types.TUPLE([Types.INT(), Types.STRING()]), "(1,a)"),
    ([1.0, 2.0], Types.LIST(Types.DOUBLE()), "[1.0, 2.0]"),
    ((3, "a"), Types.PICKLED_BYTE_ARRAY(), "(3, 'a')"),
    (Row(1, "x"), Types.PICKLED_BYTE_ARRAY(), "<Row(1, 'x')>"),
]


def test_print_format_follows_flink():
    assert [java_string(v, t) for v, t, _ in CASES] == [text for _, _, text in CASES]
