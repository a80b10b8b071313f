"""Python functions in SQL: a scalar function by name, LATERAL TABLE with a comma join and
with LEFT JOIN ... ON TRUE, and a pandas aggregate function, registered with
create_temporary_function / create_temporary_system_function."""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.udf import udaf, udf, udtf


@udf(result_type=DataTypes.STRING())
def shout(s):
    return s.upper() + "!"


@udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])
def words_of(s):
    for word in s.split():
        yield word, len(word)


t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.create_temporary_system_function("shout", shout)
t_env.create_temporary_function("words_of", words_of)
t_env.create_temporary_function("longest", udaf(lambda n: int(n.max()),
                                                 result_type=DataTypes.INT(), func_type="pandas"))
t_env.execute_sql("CREATE TEMPORARY VIEW lines AS SELECT * FROM (VALUES (1, 'to be or'), "
                  "(2, ''), (3, 'not')) AS T(id, line)")
t_env.execute_sql("SELECT id, shout(line) AS loud FROM lines ORDER BY id").print()
t_env.execute_sql("SELECT id, word, n FROM lines, LATERAL TABLE(words_of(line)) AS T(word, n) "
                  "ORDER BY id, word").print()
t_env.execute_sql("SELECT id, word FROM lines LEFT JOIN LATERAL TABLE(words_of(line)) "
                  "AS T(word, n) ON TRUE ORDER BY id, word").print()
t_env.execute_sql("SELECT id, longest(n) AS m FROM lines, "
                  "LATERAL TABLE(words_of(line)) AS T(word, n) GROUP BY id ORDER BY id").print()
