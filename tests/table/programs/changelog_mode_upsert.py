"""from_changelog_stream of an upsert changelog by primary key (the docs' ChangelogMode.upsert()
example, with an unchanged upsert and a delete added) into an aggregate."""
from pyflink.common import Row, RowKind, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import ChangelogMode, Schema, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)

ds = env.from_collection(
    [Row.of_kind(RowKind.INSERT, "Alice", 12), Row.of_kind(RowKind.INSERT, "Bob", 5),
     Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100), Row.of_kind(RowKind.UPDATE_AFTER, "Bob", 5),
     Row.of_kind(RowKind.DELETE, "Bob", 5)],
    type_info=Types.ROW([Types.STRING(), Types.INT()]))
table = t_env.from_changelog_stream(ds, Schema.new_builder().primary_key("f0").build(),
                                    ChangelogMode.upsert())
t_env.create_temporary_view("InputTable", table)
t_env.execute_sql("SELECT f0 AS name, SUM(f1) AS score FROM InputTable GROUP BY f0").print()
