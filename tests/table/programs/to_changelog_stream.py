"""to_changelog_stream of an updating table (STREAMING): each change a Row with its kind,
printed (+I, -U, +U), mapped in Python (the kind read with get_row_kind), collected."""
from pyflink.common import Types
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
changes.map(lambda r: '%s k=%s n=%d' % (r.get_row_kind(), r['k'], r['n']),
            Types.STRING()).print('mapped')
env.execute('changelog')
with changes.execute_and_collect() as rows:
    for row in rows:
        print('collected', row.get_row_kind(), row)
