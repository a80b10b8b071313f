"""Values of every common type through collect(): the Python values PyFlink gives back."""
import datetime
from decimal import Decimal

from pyflink.common import Row
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
schema = DataTypes.ROW([
    DataTypes.FIELD('i', DataTypes.INT()), DataTypes.FIELD('b', DataTypes.BIGINT()),
    DataTypes.FIELD('s', DataTypes.SMALLINT()), DataTypes.FIELD('t', DataTypes.TINYINT()),
    DataTypes.FIELD('f', DataTypes.FLOAT()), DataTypes.FIELD('d', DataTypes.DOUBLE()),
    DataTypes.FIELD('dec', DataTypes.DECIMAL(10, 3)), DataTypes.FIELD('bo', DataTypes.BOOLEAN()),
    DataTypes.FIELD('str', DataTypes.STRING()), DataTypes.FIELD('dt', DataTypes.DATE()),
    DataTypes.FIELD('tm', DataTypes.TIME()), DataTypes.FIELD('ts', DataTypes.TIMESTAMP(3)),
    DataTypes.FIELD('arr', DataTypes.ARRAY(DataTypes.STRING())),
    DataTypes.FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())),
    DataTypes.FIELD('r', DataTypes.ROW([DataTypes.FIELD('x', DataTypes.INT()),
                                        DataTypes.FIELD('y', DataTypes.STRING())])),
    DataTypes.FIELD('n', DataTypes.INT())])
value = (1, 2, 3, 4, 1.5, 2.25, Decimal('3.125'), True, 'text', datetime.date(2024, 2, 29),
         datetime.time(12, 30, 15), datetime.datetime(2024, 2, 29, 12, 30, 15, 123000),
         ['a', 'b'], {'k': 1}, Row(7, 'z'), None)
table = t_env.from_elements([value], schema)
for row in table.execute().collect():
    for v in row:
        print(type(v).__name__, repr(v))
table.execute().print()
