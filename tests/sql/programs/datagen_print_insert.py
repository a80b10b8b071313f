"""datagen sequence rows into the print connector, in BATCH and STREAMING mode."""
from pyflink.table import EnvironmentSettings, TableEnvironment

for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""CREATE TABLE src (id BIGINT, v INT) WITH ('connector' = 'datagen',
        'number-of-rows' = '6', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
        'fields.id.end' = '6', 'fields.v.kind' = 'sequence', 'fields.v.start' = '10',
        'fields.v.end' = '15')""")
    t_env.execute_sql("CREATE TABLE sink (id BIGINT, v INT) WITH ('connector' = 'print')")
    result = t_env.execute_sql("INSERT INTO sink SELECT id, v FROM src WHERE id > 2")
    result.wait()
    print(result.get_table_schema())
