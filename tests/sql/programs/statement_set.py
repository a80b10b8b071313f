"""Two INSERTs run as one statement set (add_insert_sql), into print sinks."""
# oracle: unordered
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen',
    'number-of-rows' = '3', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
    'fields.id.end' = '3')""")
t_env.execute_sql("CREATE TABLE evens (id BIGINT) WITH ('connector' = 'print', "
                  "'print-identifier' = 'evens')")
t_env.execute_sql("CREATE TABLE odds (id BIGINT) WITH ('connector' = 'print', "
                  "'print-identifier' = 'odds')")
statements = t_env.create_statement_set()
statements.add_insert_sql("INSERT INTO evens SELECT id FROM src WHERE id % 2 = 0")
statements.add_insert_sql("INSERT INTO odds SELECT id FROM src WHERE id % 2 = 1")
statements.execute().wait()
