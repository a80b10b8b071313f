"""Flink's VARIANT (semi-structured JSON values): PARSE_JSON and TRY_PARSE_JSON (a
duplicate key kept last when allowed), JSON_STRING of a VARIANT, a VARIANT's fields and
elements by keys and indices (1-based; missing: NULL; a JSON null is not NULL), TYPEOF, a
VARIANT column printed, and a VARIANT inside JSON_OBJECT; BATCH, then STREAMING."""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

ROWS = [(1, 'a', '{"a": [10, 20, 30], "b": {"c": "x", "d": null}, "n": 1.50}'),
        (2, 'b', '[1, "two", null, true, 3.5e10]'),
        (3, 'n', '{"a": 1, "a": 2}'), (4, 'c', '{bad'), (None, None, None),
        (5, 'k', '"just text"'), (6, 'z', '-9223372036854775808')]
SCHEMA = DataTypes.ROW([DataTypes.FIELD('i', DataTypes.INT()),
                        DataTypes.FIELD('k', DataTypes.STRING()),
                        DataTypes.FIELD('s', DataTypes.STRING())])

for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.create_temporary_view('t', t_env.from_elements(ROWS, SCHEMA))
    t_env.execute_sql("""
        SELECT i, JSON_STRING(TRY_PARSE_JSON(s)) AS parsed,
               JSON_STRING(TRY_PARSE_JSON(s, TRUE)) AS last_key_kept,
               TRY_PARSE_JSON(s) IS NULL AS not_json, TYPEOF(TRY_PARSE_JSON(s)) AS type,
               JSON_STRING(PARSE_JSON('[10, 20, 30]')[i]) AS by_index
        FROM t""").print()
    t_env.execute_sql("""
        SELECT i, JSON_STRING(TRY_PARSE_JSON(s)['a']) AS a,
               JSON_STRING(TRY_PARSE_JSON(s)['a'][2]) AS a2,
               JSON_STRING(TRY_PARSE_JSON(s)['b']['c']) AS bc,
               TRY_PARSE_JSON(s)['b']['d'] IS NULL AS bd_null,
               JSON_STRING(TRY_PARSE_JSON(s)['b']['d']) AS bd,
               JSON_STRING(TRY_PARSE_JSON(s)['zz']) AS missing,
               JSON_STRING(TRY_PARSE_JSON(s)['a'][0]) AS a0,
               JSON_STRING(TRY_PARSE_JSON(s)['n']) AS n
        FROM t WHERE i IN (1, 3)""").print()
    t_env.execute_sql("""
        SELECT i, PARSE_JSON(s) AS v, JSON_OBJECT('v' VALUE PARSE_JSON(s)) AS wrapped,
               TYPEOF(PARSE_JSON('1')) AS literal_type
        FROM t WHERE i IN (1, 2, 5, 6)""").print()
    t_env.execute_sql("""
        SELECT JSON_STRING(PARSE_JSON('{"z": 1, "a": {"y": [true, false]}}')) AS sorted_keys,
               JSON_STRING(PARSE_JSON(' [ ] ')) AS empty_array,
               JSON_STRING(PARSE_JSON('{"a": 1, "a": 2}', TRUE)) AS dup""").print()
    for query in ("SELECT JSON_STRING(PARSE_JSON(s)['a']) FROM t WHERE i = 2",
                  "SELECT JSON_STRING(PARSE_JSON(s)[1]) FROM t WHERE i = 1"):
        try:
            t_env.execute_sql(query).print()
        except Exception:  # noqa: BLE001 - PyFlink's is Py4J's, pystream's Spark's
            print("a key of an array or an index of an object fails")
    try:
        t_env.execute_sql("SELECT JSON_STRING(PARSE_JSON(s)) FROM t WHERE i = 4").print()
    except Exception:  # noqa: BLE001 - PyFlink's is Py4J's, pystream's Spark's
        print("PARSE_JSON of text that is not JSON fails")
    try:
        t_env.execute_sql("SELECT JSON_STRING(PARSE_JSON(s)) FROM t WHERE i = 3").print()
    except Exception:  # noqa: BLE001 - PyFlink's is Py4J's, pystream's Spark's
        print("PARSE_JSON of a duplicate key fails")
