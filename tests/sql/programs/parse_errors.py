"""SQL that does not parse and an unknown table: the error classes and first lines."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
for sql in ["SELEC 1", "SELECT * FROM nowhere"]:
    try:
        t_env.execute_sql(sql)
    except Exception as e:  # noqa: BLE001 - PyFlink raises Py4JJavaError
        text = " ".join(c.__name__ for c in type(e).__mro__) + " " + str(e)
        for marker in ("SqlParserException", "ValidationException"):
            if marker in text:
                print(marker)
t_env.execute_sql("SELECT 1 AS x").print()
