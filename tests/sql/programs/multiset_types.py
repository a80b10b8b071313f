"""MULTISET as a type in SQL text (MULTISET<T>, and T MULTISET as the last column), nested
in other types and NOT NULL; the type COLLECT gives; both modes."""
# oracle: ordered
from pyflink.table import EnvironmentSettings, TableEnvironment

for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""
        CREATE TABLE src (
            m MULTISET<STRING>,
            nn MULTISET<BIGINT NOT NULL> NOT NULL,
            a ARRAY<MULTISET<INT>>,
            r ROW<tags MULTISET<STRING>, k INT>,
            mp MAP<STRING, MULTISET<DOUBLE>>,
            n INT MULTISET
        ) WITH ('connector' = 'datagen', 'number-of-rows' = '0')""")
    t_env.from_path("src").print_schema()
    t_env.execute_sql("DESCRIBE src").print()
    words = t_env.sql_query("SELECT * FROM (VALUES ('a'), ('b'), ('a')) AS v(w)")
    t_env.create_temporary_view("words", words)
    collected = t_env.sql_query("SELECT COLLECT(w) AS c FROM words")
    collected.print_schema()
    t_env.sql_query(
        "SELECT TYPEOF(c) AS t FROM (SELECT COLLECT(w) AS c FROM words)"
    ).execute().print()
