"""from_changelog_stream of a full changelog (ChangelogMode.all()), an aggregate over it
(the last row of a key retracted: -D, then +I), and blackhole and print sinks given as
descriptors without a schema (Flink takes the table's)."""
from pyflink.common import Row, RowKind, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import ChangelogMode, StreamTableEnvironment, TableDescriptor

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)

full = env.from_collection(
    [Row.of_kind(RowKind.INSERT, "Alice", 12), Row.of_kind(RowKind.UPDATE_BEFORE, "Alice", 12),
     Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100)],
    type_info=Types.ROW([Types.STRING(), Types.INT()]))
t_env.from_changelog_stream(full, changelog_mode=ChangelogMode.all()).execute().print()
t_env.create_temporary_view("FullLog", t_env.from_changelog_stream(full))
t_env.execute_sql("SELECT f0 AS name, SUM(f1) AS score FROM FullLog GROUP BY f0").print()

print(ChangelogMode.insert_only() == ChangelogMode.insert_only())
t_env.from_elements([(1, "a")], ["n", "s"]).execute_insert(
    TableDescriptor.for_connector("blackhole").build()).wait()
t_env.from_elements([(2, "b")], ["n", "s"]).execute_insert(
    TableDescriptor.for_connector("print").build()).wait()
print("done")
