"""Table.to_changelog() and Table.from_changelog() in their default form (Flink 2.3's
TO_CHANGELOG and FROM_CHANGELOG): a STREAMING aggregate's changes as an append-only table led
by an 'op' column, an aggregate over that table, the changes read back, and a table of CDC
rows (op, ...) read as a changelog, alone and aggregated; changelogs compared in order."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([('a', 1), ('b', 5), ('a', 3), ('b', None), ('a', 2)], ['k', 'v'])
counts = t.group_by(col('k')).select(col('k'), col('v').sum.alias('total'),
                                     col('v').count.alias('n'))
changes = counts.to_changelog()
changes.print_schema()
changes.execute().print()
t_env.create_temporary_view('changes', changes)
t_env.execute_sql("SELECT op, COUNT(*) AS c FROM changes GROUP BY op").print()
back = changes.from_changelog()
back.print_schema()
back.execute().print()
cdc = t_env.from_elements([('INSERT', 'a', 1), ('INSERT', 'b', 2), ('UPDATE_BEFORE', 'a', 1),
                           ('UPDATE_AFTER', 'a', 10), ('DELETE', 'b', 2)], ['op', 'k', 'v'])
cdc.from_changelog().execute().print()
cdc.from_changelog().group_by(col('k')).select(col('k'), col('v').sum.alias('s')) \
    .execute().print()
