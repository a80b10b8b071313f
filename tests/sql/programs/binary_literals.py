"""Binary string literals (X'0AFF'): their type, how they print, compared, and cast to and
from strings."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql("""SELECT X'0AFF' AS b, X'0aff' = X'0AFF' AS same,
    CAST(X'48656C6C6F' AS STRING) AS text, CAST('Hi' AS BYTES) AS bytes_of_text""").print()
t_env.execute_sql("SELECT * FROM (VALUES (1, X'01'), (2, X'FF00')) AS t(id, b) "
                  "WHERE b <> X'01'").print()
t = t_env.sql_query("SELECT X'0AFF' AS b")
t.print_schema()
