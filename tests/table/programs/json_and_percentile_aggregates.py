"""JSON_ARRAYAGG, JSON_OBJECTAGG, PERCENTILE and LISTAGG per group, in SQL and the Table
API (json_array_agg, json_object_agg, Expression.percentile): BATCH, then the changelog of
a STREAMING group-by."""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import JsonOnNull, col, json_array_agg, json_object_agg

ROWS = [('a', 'apple', 3, 1.5), ('a', 'pear', None, 2.5), ('a', 'fig', 7, None),
        ('b', 'kiwi', 1, 4.0), ('c', None, None, None)]
SCHEMA = DataTypes.ROW([DataTypes.FIELD('k', DataTypes.STRING()),
                        DataTypes.FIELD('name', DataTypes.STRING()),
                        DataTypes.FIELD('n', DataTypes.INT()),
                        DataTypes.FIELD('price', DataTypes.DOUBLE())])
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
fruit = t_env.from_elements(ROWS, SCHEMA)
t_env.create_temporary_view('fruit', fruit)
t_env.execute_sql("""
    SELECT k, JSON_ARRAYAGG(n) AS ns, JSON_ARRAYAGG(n NULL ON NULL) AS with_nulls,
           JSON_ARRAYAGG(name ABSENT ON NULL) AS names, LISTAGG(name, '|') AS listed
    FROM fruit GROUP BY k""").print()
t_env.execute_sql("""
    SELECT k, JSON_OBJECTAGG(KEY name VALUE n) AS by_name,
           JSON_OBJECTAGG(name VALUE n ABSENT ON NULL) AS present
    FROM fruit WHERE name IS NOT NULL GROUP BY k""").print()
t_env.execute_sql("""
    SELECT k, PERCENTILE(price, 0.5) AS median, PERCENTILE(n, 0.25) AS q1,
           PERCENTILE(n, 1.0) AS top, PERCENTILE(price, ARRAY[0.0, 0.5, 1.0]) AS spread
    FROM fruit GROUP BY k""").print()
t_env.execute_sql("""
    SELECT JSON_ARRAYAGG(k) AS ks, PERCENTILE(n, 0.5) AS median,
           PERCENTILE(n, 0.5, 2) AS weighted FROM fruit""").print()
fruit.where(col('name').is_not_null).group_by(col('k')).select(
    col('k'), json_array_agg(JsonOnNull.NULL, col('n')).alias('ns'),
    json_object_agg(JsonOnNull.ABSENT, col('name'), col('n')).alias('obj'),
    col('price').percentile(0.5).alias('median')).execute().print()

s_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
s_env.get_config().set("parallelism.default", "1")
s_env.create_temporary_view('fruit', s_env.from_elements(ROWS, SCHEMA))
s_env.execute_sql("""
    SELECT k, JSON_ARRAYAGG(n NULL ON NULL) AS ns, JSON_OBJECTAGG(KEY name VALUE price) AS obj,
           PERCENTILE(n, 0.5) AS median, LISTAGG(name) AS names
    FROM fruit WHERE name IS NOT NULL GROUP BY k""").print()
