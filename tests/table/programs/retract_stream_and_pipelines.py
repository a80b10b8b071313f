"""to_retract_stream (add and retract messages as (flag, row) tuples), Table.insert_into and
its TablePipeline (execute, sink identifier) and StatementSet.add. One print sink per job:
the lines of two sinks of one job interleave in any order."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, Schema, StreamTableEnvironment, TableDescriptor
from pyflink.table.expressions import col

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t = t_env.from_elements([(1, 'a'), (2, 'b'), (3, 'a')], ['id', 'k'])

counts = t.group_by(col('k')).select(col('k'), col('id').count.alias('n'))
retract = t_env.to_retract_stream(counts, Types.ROW([Types.STRING(), Types.LONG()]))
retract.map(lambda m: 'add=%s k=%s n=%s' % (m[0], m[1][0], m[1][1]), Types.STRING()).print()
env.execute()
inserts = t_env.to_retract_stream(t, Types.ROW([Types.LONG(), Types.STRING()]))
inserts.map(lambda m: '%s %s' % (m[0], m[1]), Types.STRING()).print()
env.execute()

t_env.create_temporary_table(
    'sink', TableDescriptor.for_connector('print').schema(
        Schema.new_builder().column('id', DataTypes.BIGINT())
        .column('k', DataTypes.STRING()).build()).build())
pipeline = t.insert_into('sink')
print(pipeline.get_sink_identifier())
pipeline.execute().wait()
statements = t_env.create_statement_set()
statements.add(t.filter(col('id') > 1).insert_into('sink'))
statements.add(t.filter(col('id') == 1).insert_into('sink'))
statements.execute().wait()
