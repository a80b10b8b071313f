"""Aggregates over an upsert changelog (from_changelog_stream with ChangelogMode.upsert()),
grouped by its primary key: Flink's planner removes an aggregate whose groups are one row
each when its functions give that row's value (MAX, SUM, an expression of them: the
normalised changes, -U/+U), and keeps it otherwise (AVG, COUNT: -D/+I); the changes in
arrival order."""
from pyflink.common import Row, RowKind, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import ChangelogMode, Schema, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection(
    [Row.of_kind(RowKind.INSERT, "Alice", 12), Row.of_kind(RowKind.INSERT, "Bob", 5),
     Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100), Row.of_kind(RowKind.UPDATE_AFTER, "Bob", 5),
     Row.of_kind(RowKind.INSERT, "Carol", 7), Row.of_kind(RowKind.DELETE, "Bob", 5)],
    type_info=Types.ROW([Types.STRING(), Types.INT()]))
table = t_env.from_changelog_stream(ds, Schema.new_builder().primary_key("f0").build(),
                                    ChangelogMode.upsert())
t_env.create_temporary_view("InputTable", table)
t_env.execute_sql("SELECT * FROM InputTable").print()
t_env.execute_sql("SELECT f0, MAX(f1) AS m FROM InputTable GROUP BY f0").print()
t_env.execute_sql("SELECT f0, SUM(f1) + 1 AS m, MIN(f1) AS lo FROM InputTable GROUP BY f0").print()
t_env.execute_sql("SELECT f0, AVG(f1) AS m FROM InputTable GROUP BY f0").print()
t_env.execute_sql("SELECT f0, SUM(f1) AS s, COUNT(*) AS n FROM InputTable GROUP BY f0").print()
t_env.execute_sql("SELECT f1, COUNT(*) AS n FROM InputTable GROUP BY f1").print()
