"""TableEnvironment calls with PyFlink's parameters: built-in catalog and database names,
create_(temporary_)table with ignoreIfExists, dropping functions, RowType.add and the forms
of to_timestamp_ltz."""
from pyflink.table import DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment
from pyflink.table.expressions import col, to_timestamp_ltz
from pyflink.table.udf import udf

settings = EnvironmentSettings.new_instance().in_batch_mode() \
    .with_built_in_catalog_name('cat').with_built_in_database_name('db').build()
t_env = TableEnvironment.create(settings)
t_env.get_config().set('parallelism.default', '1')
t_env.get_config().set('table.local-time-zone', 'UTC')
print(t_env.get_current_catalog(), t_env.get_current_database())
descriptor = TableDescriptor.for_connector('datagen') \
    .schema(Schema.new_builder().column('x', DataTypes.INT()).build()) \
    .option('number-of-rows', '1').build()
t_env.create_temporary_table('g', descriptor)
t_env.create_temporary_table('g', descriptor, ignoreIfExists=True)
t_env.create_table('p', descriptor)
t_env.create_table('p', descriptor, ignoreIfExists=True)
for create in (lambda: t_env.create_temporary_table('g', descriptor),
               lambda: t_env.create_table('p', descriptor)):
    try:
        create()
    except Exception:  # noqa: BLE001 - the table exists: refused
        print('refused')
print(sorted(t_env.list_tables()))

t = t_env.from_elements([(1700000000,)], ['e'])
t.select(to_timestamp_ltz(col('e'), 0), to_timestamp_ltz(col('e') * 1000),
         to_timestamp_ltz(col('e') * 1000, 3), to_timestamp_ltz('2024-01-02 03:04:05'),
         to_timestamp_ltz('02/01/2024 03:04', 'dd/MM/yyyy HH:mm'),
         to_timestamp_ltz('2024-01-02 03:04:05', 'yyyy-MM-dd HH:mm:ss', 'Asia/Shanghai')) \
    .execute().print()
t_env.execute_sql("SELECT TO_TIMESTAMP_LTZ(1700000000, 0) AS s, "
                  "TO_TIMESTAMP_LTZ(1700000000123, 3) AS ms").print()

row = DataTypes.ROW([DataTypes.FIELD('a', DataTypes.INT())]) \
    .add(DataTypes.FIELD('b', DataTypes.STRING())).add('c', DataTypes.BIGINT())
print([(f.name, str(f.data_type)) for f in row.fields])
t_env.create_temporary_function('plus_one', udf(lambda x: x + 1, result_type=DataTypes.BIGINT()))
print(t_env.drop_temporary_function('plus_one'), t_env.drop_temporary_function('plus_one'))
