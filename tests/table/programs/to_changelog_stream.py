"""to_changelog_stream of an updating table (STREAMING): each change a Row with its kind,
printed (+I, -U, +U), mapped in Python (the kind read with get_row_kind), collected, and
turned back into a table with from_changelog_stream; a changelog of Rows made with
Row.of_kind in from_collection as a table, aggregated."""
from pyflink.common import Row, Types
from pyflink.common.types import RowKind
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.table.expressions import col

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
orders = t_env.from_elements([(1, 'a'), (2, 'b'), (3, 'a'), (4, 'a')], ['id', 'k'])
counts = orders.group_by(col('k')).select(col('k'), col('id').count.alias('n'))
changes = t_env.to_changelog_stream(counts)
changes.print('changes')
env.execute('changelog')  # one sink per job: two sinks print in either order
changes.map(lambda r: '%s k=%s n=%d' % (r.get_row_kind(), r['k'], r['n']),
            Types.STRING()).print('mapped')
env.execute('changelog')
with changes.execute_and_collect() as rows:
    for row in rows:
        print('collected', row.get_row_kind(), row)
back = t_env.from_changelog_stream(changes)
back.execute().print()
made = env.from_collection(
    [Row.of_kind(RowKind.INSERT, 'alice', 12), Row.of_kind(RowKind.INSERT, 'bob', 5),
     Row.of_kind(RowKind.UPDATE_BEFORE, 'alice', 12),
     Row.of_kind(RowKind.UPDATE_AFTER, 'alice', 100)],
    type_info=Types.ROW_NAMED(['name', 'score'], [Types.STRING(), Types.INT()]))
scores = t_env.from_changelog_stream(made)
scores.execute().print()
t_env.create_temporary_view('scores', scores)
t_env.execute_sql('SELECT SUM(score) AS total FROM scores').print()
