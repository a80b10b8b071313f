"""DDL results (OK), SHOW TABLES / DATABASES / CATALOGS, USE, CREATE DATABASE, DESCRIBE."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql("CREATE TABLE src (id BIGINT, name STRING) "
                  "WITH ('connector' = 'datagen', 'number-of-rows' = '3')").print()
t_env.execute_sql("CREATE TEMPORARY VIEW v AS SELECT id FROM src").print()
t_env.execute_sql("SHOW TABLES").print()
t_env.execute_sql("SHOW VIEWS").print()
t_env.execute_sql("SHOW CATALOGS").print()
t_env.execute_sql("CREATE DATABASE db1").print()
t_env.execute_sql("SHOW DATABASES").print()
t_env.execute_sql("USE db1").print()
t_env.execute_sql("SHOW CURRENT DATABASE").print()
t_env.execute_sql("USE default_database").print()
print(t_env.list_tables(), t_env.list_views(), t_env.list_databases())
