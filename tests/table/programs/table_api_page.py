"""The Python examples of Flink's "Table API" page (operations), over one small table of
orders with an event-time attribute, in STREAMING mode: each result's changelog in order.
The operations of two inputs (joins, IN, UNION) are left to programs of their own: which
input's rows come first is a race in Flink."""
import os
import tempfile

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import CURRENT_RANGE, UNBOUNDED_RANGE, col, concat, lit
from pyflink.table.udf import udtf
from pyflink.table.window import Over, Session, Slide, Tumble

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.get_config().set("table.local-time-zone", "UTC")
directory = tempfile.mkdtemp()
with open(os.path.join(directory, "orders.csv"), "w") as f:
    f.write("red,1,apple,2024-01-01 10:00:01\n"
            "blue,2,pear,2024-01-01 10:02:00\n"
            "red,3,fig,2024-01-01 10:04:30\n"
            "red,3,plum kiwi,2024-01-01 10:07:00\n"
            "blue,5,lime,2024-01-01 10:12:00\n"
            "green,7,apple,2024-01-01 10:13:00\n")
t_env.execute_sql("""
    CREATE TABLE Orders (a STRING, b INT, c STRING, rowtime TIMESTAMP(3),
                         WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND)
    WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % directory)
orders = t_env.from_path("Orders")


def show(title, table):
    print("--", title)
    with table.execute().collect() as results:
        for row in results:
            print(row.get_row_kind(), row)


show("select", orders.select(col("a"), col("c").alias("d")))
show("where", orders.where(col("a") == "red").select(col("a"), col("b")))
show("filter", orders.filter(col("b") % 2 == 0).select(col("c")))
show("add_columns", orders.add_columns(concat(col("c"), "sunny")))
show("add_or_replace_columns",
     orders.add_or_replace_columns(concat(col("c"), "sunny").alias("desc"))
     .select(col("a"), col("desc")))
show("drop_columns", orders.drop_columns(col("b"), col("c")).select(col("a")))
show("rename_columns", orders.rename_columns(col("b").alias("b2"), col("c").alias("c2"))
     .select(col("b2"), col("c2")))
show("group_by", orders.group_by(col("a")).select(col("a"), col("b").sum.alias("d")))
show("group_by distinct",
     orders.group_by(col("a")).select(col("a"), col("b").sum.distinct.alias("d")))
show("tumble", orders.window(Tumble.over(lit(5).minutes).on(col("rowtime")).alias("w"))
     .group_by(col("a"), col("w"))
     .select(col("a"), col("w").start, col("w").end, col("w").rowtime, col("b").sum.alias("d")))
show("slide", orders.window(Slide.over(lit(10).minutes).every(lit(5).minutes)
                            .on(col("rowtime")).alias("w"))
     .group_by(col("w")).select(col("w").start, col("b").count.alias("n")))
show("session", orders.window(Session.with_gap(lit(3).minutes).on(col("rowtime")).alias("w"))
     .group_by(col("a"), col("w")).select(col("a"), col("w").end, col("c").count))
show("over", orders.over_window(
    Over.partition_by(col("a")).order_by(col("rowtime"))
    .preceding(UNBOUNDED_RANGE).following(CURRENT_RANGE).alias("w"))
    .select(col("a"), col("b").avg.over(col("w")), col("b").max.over(col("w")),
            col("b").min.over(col("w"))))
show("distinct", orders.select(col("a")).distinct())


@udtf(result_types=[DataTypes.STRING()])
def split(text):
    yield from text.split(" ")


show("join_lateral", orders.join_lateral(split(col("c")).alias("s")).select(col("a"), col("s")))
show("left_outer_join_lateral",
     orders.left_outer_join_lateral(split(col("c")).alias("s")).select(col("c"), col("s")))
show("order_by fetch", orders.order_by(col("rowtime").asc).fetch(3).select(col("c")))
