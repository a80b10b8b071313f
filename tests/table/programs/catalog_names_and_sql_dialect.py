"""Catalog names and the SQL dialect setting: ObjectPath (database and object), an
ObjectIdentifier's object path, TableConfig's SQL dialect."""
from pyflink.table import EnvironmentSettings, SqlDialect, TableEnvironment
from pyflink.table.catalog import ObjectIdentifier, ObjectPath
from pyflink.table.expressions import col, current_database

path = ObjectPath('db', 'orders')
print(path, path.get_database_name(), path.get_object_name(), path.get_full_name())
print(path == ObjectPath('db', 'orders'), path == ObjectPath('db', 'other'),
      hash(path) == hash(ObjectPath('db', 'orders')))
print(ObjectPath.from_string('shop.items'),
      ObjectPath.from_string('shop.items') == ObjectPath('shop', 'items'))
print([str(p) for p in sorted([ObjectPath('b', 'x'), ObjectPath('a', 'y'), ObjectPath('a', 'b')])])
print(path.compare_to(ObjectPath('db', 'orders')), path.compare_to(ObjectPath('da', 'z')) > 0,
      path.compare_to(ObjectPath('db', 'p')) < 0)
for text in ['noseparator', 'a.b.c', '.x']:
    try:
        print(ObjectPath.from_string(text))
    except Exception:  # noqa: BLE001 - PyFlink's is Py4J's, pystream's a ValidationException
        print('cannot split', text)
identifier = ObjectIdentifier.of('cat', 'db', 'orders')
print(identifier.to_object_path(), identifier.to_object_path() == path)
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
config = t_env.get_config()
print(config.get_sql_dialect() == SqlDialect.DEFAULT, SqlDialect.DEFAULT, SqlDialect.HIVE)
config.set_sql_dialect(SqlDialect.DEFAULT)
print(config.get_sql_dialect() == SqlDialect.DEFAULT, config.get('table.sql-dialect', None))
t_env.execute_sql("CREATE DATABASE sales")
t_env.use_database("sales")
t_env.from_elements([(1,)], ['a']).select(col('a'), current_database().alias('db')) \
    .execute().print()
t_env.execute_sql("SELECT CURRENT_DATABASE() AS db").print()
