"""PyFlink's conversions between Python values and internal SQL values of the data types
(``to_sql_type``, ``from_sql_type``, ``need_conversion``), for user-defined types built on
them; and ``bridged_to``."""
import datetime
import pickle
from decimal import Decimal

from pyflink.common import Row, RowKind
from pyflink.table import DataTypes
from pyflink.table.types import (
    ArrayType,
    AtomicType,
    DayTimeIntervalType,
    FractionalType,
    IntegralType,
    NumericType,
    RawType,
    UserDefinedType,
    YearMonthIntervalType,
)

date = DataTypes.DATE()
print('date', date.need_conversion(), date.to_sql_type(datetime.date(2024, 2, 29)),
      date.from_sql_type(19782), date.to_sql_type(None), DataTypes.DATE.__name__,
      type(date).EPOCH_ORDINAL)
for t in [DataTypes.TIME(), DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP_LTZ(3)]:
    value = datetime.time(13, 14, 15, 16) if type(t).__name__ == 'TimeType' else \
        datetime.datetime(2024, 2, 29, 13, 14, 15, 16)
    print(type(t).__name__, t.need_conversion(), t.from_sql_type(t.to_sql_type(value)) == value,
          t.to_sql_type(None))
aware = datetime.datetime(2024, 2, 29, 13, 14, 15, 16, tzinfo=datetime.timezone.utc)
print('timestamp of an aware datetime', DataTypes.TIMESTAMP(6).to_sql_type(aware))
interval = DataTypes.INTERVAL(DataTypes.DAY(), DataTypes.SECOND(3))
print('interval', interval.need_conversion(),
      interval.to_sql_type(datetime.timedelta(days=1, seconds=2, microseconds=3)),
      interval.from_sql_type(86402000003), interval.resolution, interval.day_precision,
      interval.fractional_precision, DayTimeIntervalType.DEFAULT_DAY_PRECISION,
      DayTimeIntervalType.DEFAULT_FRACTIONAL_PRECISION)
months = DataTypes.INTERVAL(DataTypes.YEAR(2), DataTypes.MONTH())
print('months', months.need_conversion(), months.to_sql_type(14), months.precision,
      YearMonthIntervalType.DEFAULT_PRECISION)
for t in [DataTypes.INT(), DataTypes.STRING(), DataTypes.DECIMAL(10, 2), DataTypes.BYTES(),
          DataTypes.BOOLEAN(), DataTypes.DOUBLE()]:
    print(t, t.need_conversion(), t.to_sql_type(7), t.from_sql_type(Decimal('1.50')),
          isinstance(t, AtomicType), isinstance(t, NumericType), isinstance(t, IntegralType),
          isinstance(t, FractionalType))
dates = DataTypes.ARRAY(DataTypes.DATE())
print('array', dates.need_conversion(), dates.to_sql_type([datetime.date(1970, 1, 2), None]),
      DataTypes.ARRAY(DataTypes.INT()).need_conversion(),
      DataTypes.ARRAY(DataTypes.INT()).to_sql_type([1, 2]), dates.to_sql_type(None),
      dates.to_sql_type([]))
by_day = DataTypes.MAP(DataTypes.STRING(), DataTypes.DATE())
print('map', by_day.need_conversion(), by_day.to_sql_type({'a': datetime.date(1970, 1, 11)}),
      by_day.from_sql_type({'a': 10}),
      DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()).need_conversion())
row = DataTypes.ROW([DataTypes.FIELD('id', DataTypes.INT()),
                     DataTypes.FIELD('day', DataTypes.DATE())])
print('row', row.need_conversion(), row.to_sql_type(Row(id=1, day=datetime.date(1970, 1, 3))),
      row.to_sql_type((2, datetime.date(1970, 1, 4))),
      row.to_sql_type({'day': datetime.date(1970, 1, 5), 'id': 3}),
      row.to_sql_type(None))
retracted = Row(4, datetime.date(1970, 1, 6))
retracted.set_row_kind(RowKind.DELETE)
print('row kind', row.to_sql_type(retracted))
back = row.from_sql_type((5, 6))
print('from row', back, back.id, back.day, back.get_row_kind())
print('fields', row.fields[1].need_conversion(), row.fields[0].to_sql_type(9),
      row.fields[1].from_sql_type(0))
plain = DataTypes.ROW([DataTypes.FIELD('a', DataTypes.STRING())])
print('plain row', plain.to_sql_type(Row('x')), plain.to_sql_type(['y']),
      plain.from_sql_type(('z',)))


class Point(UserDefinedType):
    @classmethod
    def sql_type(cls):
        return DataTypes.ARRAY(DataTypes.DOUBLE())

    @classmethod
    def module(cls):
        return '__main__'

    def serialize(self, obj):
        return [obj[0], obj[1]]

    def deserialize(self, datum):
        return tuple(datum)


print('udt', Point().need_conversion(), Point().to_sql_type((1.0, 2.0)),
      Point().from_sql_type([3.0, 4.0]), Point.type_name(), Point() == Point(),
      Point.java_udt() == '')
print('raw', RawType().from_sql_type(pickle.dumps({'k': [1, 2]})), RawType().need_conversion())
bridged = DataTypes.TIMESTAMP(3).bridged_to('java.sql.Timestamp')
print('bridged', bridged, repr(bridged), isinstance(bridged, AtomicType),
      isinstance(dates, ArrayType), isinstance(dates, AtomicType))
for view in [DataTypes.LIST_VIEW(DataTypes.INT()),
             DataTypes.MAP_VIEW(DataTypes.INT(), DataTypes.INT())]:
    try:
        view.to_sql_type([1])
    except Exception as e:  # noqa: BLE001 - PyFlink raises a bare Exception
        print(type(view).__name__, e)
