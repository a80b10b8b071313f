"""JSON_OBJECT, JSON_ARRAY and JSON_STRING in SQL, json_string in the Table API: keys
sorted, NULL ON NULL / ABSENT ON NULL, a JSON value inside another as JSON, numbers,
booleans, strings with quotes, timestamps, decimals, arrays. (PyFlink 2.3's Table API
json_object and json_array fail to call Java: Py4JError.)"""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, json_string

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([(1, 'a', 1.5, None), (2, 'b"q', None, True)],
                        DataTypes.ROW([DataTypes.FIELD('id', DataTypes.INT()),
                                       DataTypes.FIELD('s', DataTypes.STRING()),
                                       DataTypes.FIELD('d', DataTypes.DOUBLE()),
                                       DataTypes.FIELD('b', DataTypes.BOOLEAN())]))
t_env.create_temporary_view('t', t)
t_env.execute_sql(
    "SELECT id, JSON_OBJECT('k' VALUE s, 'n' VALUE id) AS o1, "
    "JSON_OBJECT(KEY 'z' VALUE d, KEY 'a' VALUE b) AS o2, "
    "JSON_OBJECT('d' VALUE d ABSENT ON NULL) AS o3, "
    "JSON_OBJECT('o' VALUE JSON_OBJECT('x' VALUE id)) AS o4, JSON_OBJECT() AS o5 "
    "FROM t").print()
t_env.execute_sql(
    "SELECT id, JSON_ARRAY(id, s, d, b) AS a1, JSON_ARRAY(id, d NULL ON NULL) AS a2, "
    "JSON_ARRAY(JSON_ARRAY(1, 2), 'x') AS a3, JSON_ARRAY() AS a4, JSON_STRING(s) AS j1, "
    "JSON_STRING(d) AS j2, JSON_STRING(id) AS j3 FROM t").print()
t_env.execute_sql(
    "SELECT JSON_OBJECT('t' VALUE TIMESTAMP '2024-01-02 03:04:05.678') AS t, "
    "JSON_OBJECT('a' VALUE ARRAY[1, 2]) AS a, "
    "JSON_OBJECT('dec' VALUE CAST(1.50 AS DECIMAL(5, 2))) AS d").print()
t.select(col('id'), json_string(col('s'))).execute().print()
