"""JSON_VALUE, JSON_QUERY and JSON_EXISTS with their clauses, in SQL and in the Table API:
RETURNING, lax and strict paths (a path without a mode is strict), NULL / ERROR / DEFAULT
ON EMPTY and ON ERROR, array wrappers, JSON nulls and text that is not JSON."""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expression import (
    JsonExistsOnError,
    JsonQueryOnEmptyOrError,
    JsonQueryWrapper,
    JsonValueOnEmptyOrError,
)
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
docs = t_env.sql_query("""SELECT * FROM (VALUES
    (1, '{"a": 1, "b": {"c": "x", "n": null}, "l": [10, 20], "t": true}'),
    (2, '{"a": "y", "l": [{"c": "c1"}, {"c": "c2"}]}'),
    (3, 'not json'),
    (4, CAST(NULL AS STRING))) AS d(id, j)""")
t_env.create_temporary_view("docs", docs)

t_env.execute_sql("""SELECT id,
    JSON_VALUE(j, '$.a') AS a,
    JSON_VALUE(j, '$.b.c') AS c,
    JSON_VALUE(j, '$.b') AS object_value,
    JSON_VALUE(j, '$.l[1]' RETURNING INT) AS l1,
    JSON_VALUE(j, '$.t' RETURNING BOOLEAN) AS t,
    JSON_VALUE(j, 'lax $.zz' DEFAULT 'none' ON EMPTY) AS lax_missing,
    JSON_VALUE(j, 'strict $.zz' DEFAULT 'none' ON EMPTY DEFAULT 'bad' ON ERROR) AS strict_missing,
    JSON_VALUE(j, '$.zz' DEFAULT 'none' ON EMPTY) AS missing,
    JSON_VALUE(j, '$.b.n' DEFAULT 'none' ON EMPTY) AS json_null
    FROM docs ORDER BY id""").print()

t_env.execute_sql("""SELECT id,
    JSON_QUERY(j, '$.b') AS b,
    JSON_QUERY(j, '$.a') AS scalar,
    JSON_QUERY(j, '$.a' WITH CONDITIONAL ARRAY WRAPPER) AS conditional,
    JSON_QUERY(j, '$.b' WITH CONDITIONAL ARRAY WRAPPER) AS conditional_object,
    JSON_QUERY(j, '$.l' WITH CONDITIONAL ARRAY WRAPPER) AS conditional_array,
    JSON_QUERY(j, '$.l' WITH UNCONDITIONAL ARRAY WRAPPER) AS unconditional,
    JSON_QUERY(j, 'lax $.l[*].c') AS wildcard,
    JSON_QUERY(j, 'lax $.zz' EMPTY ARRAY ON EMPTY) AS lax_missing,
    JSON_QUERY(j, 'strict $.zz' EMPTY OBJECT ON ERROR) AS strict_missing,
    JSON_QUERY(j, '$.a' EMPTY ARRAY ON ERROR) AS scalar_error
    FROM docs ORDER BY id""").print()

t_env.execute_sql("""SELECT id,
    JSON_EXISTS(j, '$.a') AS a,
    JSON_EXISTS(j, '$.b.n') AS json_null,
    JSON_EXISTS(j, '$.l[5]') AS out_of_range,
    JSON_EXISTS(j, 'strict $.zz' TRUE ON ERROR) AS strict_true,
    JSON_EXISTS(j, 'strict $.zz' UNKNOWN ON ERROR) AS strict_unknown,
    JSON_EXISTS(j, 'lax $.zz' TRUE ON ERROR) AS lax_true
    FROM docs ORDER BY id""").print()

docs.select(
    col("id"),
    col("j").json_value("$.l[0]", DataTypes.INT()).alias("first"),
    col("j").json_value("lax $.zz", DataTypes.STRING(), JsonValueOnEmptyOrError.DEFAULT,
                        "none").alias("lax_missing"),
    col("j").json_value("strict $.zz", DataTypes.STRING(), JsonValueOnEmptyOrError.NULL,
                        None, JsonValueOnEmptyOrError.DEFAULT, "bad").alias("strict"),
    col("j").json_query("$.a", JsonQueryWrapper.UNCONDITIONAL_ARRAY).alias("wrapped"),
    col("j").json_query("strict $.zz", JsonQueryWrapper.WITHOUT_ARRAY,
                        JsonQueryOnEmptyOrError.NULL,
                        JsonQueryOnEmptyOrError.EMPTY_ARRAY).alias("empty_array"),
    col("j").json_exists("strict $.zz", JsonExistsOnError.TRUE).alias("exists_on_error"),
).order_by(col("id")).execute().print()
