"""to_pandas() of a BATCH and of a STREAMING (updating) table."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t = t_env.from_elements([(1, 'a', 2.5), (2, 'b', 1.0), (3, 'a', 4.0)], ['id', 'k', 'v'])
    print(t.to_pandas())
    totals = t.group_by(col('k')).select(col('k'), col('v').sum.alias('total'))
    print(totals.to_pandas().sort_values('k').to_string(index=False))
