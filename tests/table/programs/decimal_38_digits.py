"""DECIMAL(38, s) values with more digits than Python's default decimal context (28) in
from_elements: printed, collected and summed; BATCH."""
import decimal

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

D = decimal.Decimal
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
rows = [(1, D("123.45"), D("99999999999999999999999999999999999.999")),
        (2, D("-0.01"), D("0.001")), (3, None, None)]
t = t_env.from_elements(rows, DataTypes.ROW([
    DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("d1", DataTypes.DECIMAL(10, 2)),
    DataTypes.FIELD("d3", DataTypes.DECIMAL(38, 3))]))
t.execute().print()
with t.execute().collect() as collected:
    for row in collected:
        print(repr(row))
t_env.create_temporary_view("t", t)
t_env.execute_sql("SELECT MAX(d3) AS biggest, MIN(d3) AS smallest, COUNT(d3) AS n FROM t").print()
