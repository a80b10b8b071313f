"""The catalog API as Flink's "Catalogs" page teaches it from Python: a catalog from the
table environment, its databases, tables and views, and SQL over what it made."""
from pyflink.common import Configuration
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment, TableSchema
from pyflink.table.catalog import CatalogBaseTable, CatalogDatabase, CatalogDescriptor, ObjectPath

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql("CREATE TABLE orders (id INT, item STRING) WITH ('connector' = 'datagen', "
                  "'number-of-rows' = '3')")
t_env.execute_sql("CREATE VIEW items AS SELECT item FROM orders")

catalog = t_env.get_catalog(t_env.get_current_catalog())
print(type(catalog).__name__, catalog.get_default_database())
print(catalog.list_databases())
print(catalog.database_exists("default_database"), catalog.database_exists("nope"))
print(sorted(catalog.list_tables("default_database")))
print(catalog.list_views("default_database"))
print(catalog.table_exists(ObjectPath("default_database", "orders")),
      catalog.table_exists(ObjectPath.from_string("default_database.nope")))

table = catalog.get_table(ObjectPath("default_database", "orders"))
print(type(table).__name__, sorted(table.get_options().items()), table.get_comment())
view = catalog.get_table(ObjectPath("default_database", "items"))
print(type(view).__name__, view.get_options(), repr(view.get_comment()))

catalog.create_database("shop", CatalogDatabase.create_instance({"owner": "ann"}, "the shop"),
                        False)
catalog.create_database("shop", CatalogDatabase.create_instance({}, None), True)
print(catalog.list_databases())
database = catalog.get_database("shop")
print(database.get_properties(), database.get_comment())
try:
    catalog.create_database("shop", CatalogDatabase.create_instance({}, None), False)
except Exception as e:  # noqa: BLE001
    print(type(e).__name__, str(e).splitlines()[0].split("Exception: ", 1)[-1])

schema = TableSchema(["sku", "price"], [DataTypes.STRING(), DataTypes.DOUBLE()])
prices = CatalogBaseTable.create_table(
    schema, partition_keys=[], comment="prices of the shop",
    properties={"connector": "datagen", "number-of-rows": "2", "fields.sku.length": "3"})
catalog.create_table(ObjectPath("shop", "prices"), prices, False)
print(catalog.list_tables("shop"))
got = catalog.get_table(ObjectPath("shop", "prices"))
print(got.get_comment(), got.get_options()["number-of-rows"])
got.get_unresolved_schema()
print(t_env.execute_sql("SELECT COUNT(*) AS n FROM shop.prices").collect().__next__())
t_env.sql_query("SELECT sku FROM shop.prices").print_schema()

catalog.rename_table(ObjectPath("shop", "prices"), "costs", False)
print(catalog.list_tables("shop"))
catalog.drop_table(ObjectPath("shop", "costs"), False)
catalog.drop_table(ObjectPath("shop", "costs"), True)
print(catalog.list_tables("shop"))
try:
    catalog.drop_table(ObjectPath("shop", "costs"), False)
except Exception as e:  # noqa: BLE001
    print(type(e).__name__, str(e).splitlines()[0].split("Exception: ", 1)[-1])
try:
    catalog.get_table(ObjectPath("shop", "costs"))
except Exception as e:  # noqa: BLE001
    print(type(e).__name__, str(e).splitlines()[0].split("Exception: ", 1)[-1])

catalog.drop_database("shop", False)
catalog.drop_database("shop", True)
print(catalog.list_databases())

print(t_env.get_catalog("nope"))
config = Configuration()
config.set_string("type", "generic_in_memory")
t_env.create_catalog("other", CatalogDescriptor.of("other", config))
print(t_env.list_catalogs())
other = t_env.get_catalog("other")
print(other.get_default_database(), other.list_databases(), other.list_tables("default"))
t_env.use_catalog("other")
t_env.execute_sql("CREATE TABLE t (x INT) WITH ('connector' = 'datagen')")
print(other.list_tables("default"), catalog.table_exists(ObjectPath("default", "t")))
