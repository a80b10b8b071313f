"""Every type travels through real Spark columns and back unchanged, in both modes."""
import datetime
import decimal

from pystream.common import Instant, Row, Types
from tests.helpers import collect

VALUES = [True, 1, 2, 3, 2 ** 40, 1.5, 2.5, "x", "c", 10 ** 20, decimal.Decimal("1.25"),
          datetime.date(2020, 1, 2), datetime.time(1, 2, 3),
          datetime.datetime(2020, 1, 2, 3, 4, 5, 123000), Instant(5, 1_000_000), b"ab", [1, 2],
          ["a", None], {"k": 1}, [1.0], Row(i=1, s="z"), (2, "t")]
TYPES = [Types.BOOLEAN(), Types.BYTE(), Types.SHORT(), Types.INT(), Types.LONG(), Types.FLOAT(),
         Types.DOUBLE(), Types.STRING(), Types.CHAR(), Types.BIG_INT(), Types.BIG_DEC(),
         Types.SQL_DATE(), Types.SQL_TIME(), Types.SQL_TIMESTAMP(), Types.INSTANT(),
         Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.PRIMITIVE_ARRAY(Types.INT()),
         Types.BASIC_ARRAY(Types.STRING()), Types.MAP(Types.STRING(), Types.INT()),
         Types.LIST(Types.DOUBLE()), Types.ROW_NAMED(["i", "s"], [Types.INT(), Types.STRING()]),
         Types.TUPLE([Types.INT(), Types.STRING()])]
ROW_TYPE = Types.ROW_NAMED(["c%d" % i for i in range(len(TYPES))], TYPES)


def test_all_types_round_trip_through_spark(env):
    ds = env.from_collection([Row(*VALUES)], type_info=ROW_TYPE).map(lambda r: r, ROW_TYPE)
    assert [list(r) for r in collect(ds)] == [VALUES]
