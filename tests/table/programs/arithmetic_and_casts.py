"""Flink's type rules: INT / INT, DECIMAL arithmetic, casts to STRING and CHAR(n)."""
from decimal import Decimal

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, lit

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([(7, 2, Decimal('1.50'), 2.5)], DataTypes.ROW([
    DataTypes.FIELD('a', DataTypes.INT()), DataTypes.FIELD('b', DataTypes.INT()),
    DataTypes.FIELD('d', DataTypes.DECIMAL(10, 2)), DataTypes.FIELD('f', DataTypes.DOUBLE())]))
result = t.select(col('a') / col('b'), col('a') % col('b'), col('d') * col('d'), col('d') + 1,
                  col('d') / 3, col('f') * 2, col('a').cast(DataTypes.STRING()),
                  lit(True).cast(DataTypes.STRING()), col('a').cast(DataTypes.DOUBLE()),
                  col('d').cast(DataTypes.INT()))
result.print_schema()
result.execute().print()
