"""``+`` of a character string in the Table API concatenates (Flink converts PLUS with a
string operand into CONCAT, the other operand as its string)."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, lit

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([("tea", 1), ("milk", 2)], ["s", "n"])
t.select(col("s") + "!", lit("#") + col("s"), col("s") + col("s"), col("s") + col("n")) \
    .execute().print()
