"""from_elements with a ROW DataType, a list of names (types inferred) and no schema (_1, _2)."""
import datetime
from decimal import Decimal

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
rows = [(1, 'a', 1.5, True, Decimal('1.25'), datetime.date(2024, 1, 2))]
t_env.from_elements(rows).print_schema()
t_env.from_elements(rows, ['id', 'name', 'score', 'ok', 'amount', 'day']).print_schema()
typed = t_env.from_elements(rows, DataTypes.ROW([
    DataTypes.FIELD('id', DataTypes.INT()), DataTypes.FIELD('name', DataTypes.STRING()),
    DataTypes.FIELD('score', DataTypes.DOUBLE()), DataTypes.FIELD('ok', DataTypes.BOOLEAN()),
    DataTypes.FIELD('amount', DataTypes.DECIMAL(10, 2)),
    DataTypes.FIELD('day', DataTypes.DATE())]))
typed.print_schema()
print(typed.get_schema())
typed.execute().print()
for row in typed.execute().collect():
    print(repr(row))
