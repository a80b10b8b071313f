"""OBJECT_OF and OBJECT_UPDATE (Flink's STRUCTURED types) in SQL: objects printed with their
field names, fields read and replaced, their types (TYPEOF, the schema), NULL fields, in
BATCH and STREAMING. (PyFlink 2.3's Table API object_of fails in Py4J: no matching Java
method; pystream's is tested in test_beyond_pyflink.py.)"""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

ROWS = [('Bob', 21), ('Alice', None), (None, 7)]
SCHEMA = DataTypes.ROW([DataTypes.FIELD('name', DataTypes.STRING()),
                        DataTypes.FIELD('age', DataTypes.INT())])

for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.create_temporary_view('t', t_env.from_elements(ROWS, SCHEMA))
    t_env.execute_sql("""
        SELECT name, OBJECT_OF('com.example.User', 'name', name, 'age', age) AS u,
               OBJECT_UPDATE(OBJECT_OF('com.example.User', 'name', name, 'age', age),
                             'age', 30) AS older,
               OBJECT_OF('com.example.User', 'name', name, 'age', age).age AS age,
               OBJECT_UPDATE(OBJECT_OF('com.example.User', 'name', 'Bob', 'age', 14),
                             'name', name).name AS renamed
        FROM t""").print()
    t_env.execute_sql("""
        SELECT TYPEOF(OBJECT_OF('com.example.User', 'name', name, 'age', age)) AS t1,
               TYPEOF(OBJECT_UPDATE(OBJECT_OF('com.example.User', 'name', 'Bob', 'age', 14),
                                    'name', 'Alice')) AS t2
        FROM t WHERE age = 7""").print()
    print(t_env.sql_query("""
        SELECT OBJECT_OF('com.example.User', 'name', name, 'age', age) AS u FROM t""")
        .get_schema())
