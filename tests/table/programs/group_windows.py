"""A tumbling group window over a rowtime declared on a stream, sunk to print."""
from pyflink.common import Types
from pyflink.common.time import Instant
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, Schema, StreamTableEnvironment, TableDescriptor
from pyflink.table.expressions import col, lit
from pyflink.table.window import Tumble

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection(
    [(Instant.of_epoch_milli(1000), 'a', 1), (Instant.of_epoch_milli(2000), 'b', 2),
     (Instant.of_epoch_milli(6000), 'a', 3), (Instant.of_epoch_milli(7000), 'a', 4)],
    type_info=Types.ROW([Types.INSTANT(), Types.STRING(), Types.INT()]))
table = t_env.from_data_stream(
    ds, Schema.new_builder().column_by_expression("ts", "CAST(f0 AS TIMESTAMP(3))")
    .column("f1", DataTypes.STRING()).column("f2", DataTypes.INT())
    .watermark("ts", "ts - INTERVAL '1' SECOND").build()).alias("ts", "k", "v")
table.print_schema()
t_env.create_temporary_table('sink', TableDescriptor.for_connector('print').schema(
    Schema.new_builder().column('k', DataTypes.STRING()).column('total', DataTypes.INT())
    .column('w_start', DataTypes.TIMESTAMP(3)).column('w_end', DataTypes.TIMESTAMP(3))
    .build()).build())
table.window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w')) \
    .group_by(col('k'), col('w')) \
    .select(col('k'), col('v').sum, col('w').start, col('w').end) \
    .execute_insert('sink').wait()
