"""FileSource and FileSink on the local file system, in both runtime modes."""
from __future__ import annotations

import datetime
import os
import re

import pytest

from pystream.common import Duration, Row, Types, WatermarkStrategy
from pystream.common.serialization import Encoder
from pystream.datastream import StreamExecutionEnvironment
from pystream.datastream.connectors import (
    BucketAssigner,
    FileSink,
    FileSource,
    NumberSequenceSource,
    OutputFileConfig,
    RollingPolicy,
    StreamFormat,
)
from pystream.datastream.formats.csv import CsvBulkWriters, CsvReaderFormat, CsvSchema
from pystream.datastream.formats.json import JsonReaderFormat, JsonRowDeserializationSchema
from pystream.datastream.formats.parquet import (
    ParquetBulkWriters,
    ParquetColumnarRowInputFormat,
)
from pystream.datastream.functions import MapFunction, RuntimeContext
from pystream.datastream.state import ValueStateDescriptor
from pystream.errors import JobExecutionError, PystreamError
from pystream.table import DataTypes
from tests.helpers import collect_sorted


def write(path, text: str) -> str:
    """Write a file atomically (as a producer of a monitored directory should)."""
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(str(path) + ".tmp", "w") as f:
        f.write(text)
    os.replace(str(path) + ".tmp", str(path))
    return str(path)


def part_files(base) -> dict:
    """``{path relative to base: lines}`` of the visible files under ``base``."""
    found = {}
    for root, _, names in os.walk(base):
        for name in names:
            if not name.startswith((".", "_")):
                path = os.path.join(root, name)
                with open(path) as f:
                    found[os.path.relpath(path, base)] = f.read().splitlines()
    return found


def all_lines(base) -> list:
    return sorted(line for lines in part_files(base).values() for line in lines)


class MyMapFunction(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        state_desc = ValueStateDescriptor('cnt', Types.LONG())
        self.cnt_state = runtime_context.get_state(state_desc)

    def map(self, value):
        cnt = self.cnt_state.value()
        if cnt is None or cnt < 2:
            self.cnt_state.update(1 if cnt is None else cnt + 1)
            return value[0], value[1] + 1
        else:
            return value[0], value[1]


def test_seed_state_access_demo_file_sink(env, tmp_path):
    """The seed's state_access_demo (1..20 instead of 1..10000): part files named
    pre-<uuid>-<n>suf in an hourly bucket, holding the rows as Flink writes them (checked
    on PyFlink 2.3)."""
    seq_num_source = NumberSequenceSource(1, 20)
    ds = env.from_source(source=seq_num_source,
                         watermark_strategy=WatermarkStrategy.for_monotonous_timestamps(),
                         source_name='seq_num_source', type_info=Types.LONG())
    ds = ds.map(lambda a: Row(a % 4, 1), output_type=Types.ROW([Types.LONG(), Types.LONG()])) \
           .key_by(lambda a: a[0]) \
           .map(MyMapFunction(), output_type=Types.ROW([Types.LONG(), Types.LONG()]))
    file_sink = FileSink \
        .for_row_format(str(tmp_path), Encoder.simple_string_encoder()) \
        .with_output_file_config(OutputFileConfig.builder().with_part_prefix('pre')
                                 .with_part_suffix('suf').build()) \
        .build()
    ds.sink_to(file_sink)
    env.execute('state_access_demo')
    name = re.compile(r"\d{4}-\d\d-\d\d--\d\d/pre-[0-9a-f-]{36}-\d+suf")
    assert ({bool(name.fullmatch(p)) for p in part_files(tmp_path)}, all_lines(tmp_path)) == (
        {True}, sorted(["+I[%d, 1]" % k for k in range(4)] * 3
                       + ["+I[%d, 2]" % k for k in range(4)] * 2))


def test_replayed_batch_rewrites_the_same_files(spark, tmp_path):
    from pystream.runtime.files import FileBatchCommitter, PartFileSpec

    spec = PartFileSpec(base_path=str(tmp_path / "out"), type_info=Types.LONG(),
                        encoder=Encoder.simple_string_encoder(), writer_factory=None,
                        bucket_pattern="yyyy-MM-dd--HH", timezone_id=None, prefix="part",
                        suffix=".txt", part_size=None, label="'sink'")
    commit = FileBatchCommitter(spec, str(tmp_path / "checkpoint"))
    batch = spark.range(0, 6, 1, 2).withColumnRenamed("id", "value")
    commit(batch, 7)
    first = part_files(tmp_path / "out")
    commit(batch, 7)  # Spark replays a batch whose commit it did not record
    assert part_files(tmp_path / "out") == first


def test_rolling_policy_rolls_at_part_size(batch_env, tmp_path):
    sink = (FileSink.for_row_format(str(tmp_path), Encoder.simple_string_encoder())
            .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner())
            .with_rolling_policy(RollingPolicy.default_rolling_policy(part_size=4)).build())
    batch_env.set_parallelism(1)  # one writer: its part files roll at 4 bytes
    batch_env.from_collection(["aa", "bb", "cc", "dd", "ee"], Types.STRING()).sink_to(sink)
    batch_env.execute("rolling")
    assert sorted((re.sub(r"-[0-9a-f-]{36}-", "-<uuid>-", p), lines)
                  for p, lines in part_files(tmp_path).items()) == [
        ("part-<uuid>-0", ["aa", "bb"]), ("part-<uuid>-1", ["cc", "dd"]),
        ("part-<uuid>-2", ["ee"])]


def test_read_text_file_and_file_source(env, tmp_path):
    write(tmp_path / "in" / "a.txt", "one\ntwo\n")
    write(tmp_path / "in" / "sub" / "b.txt", "three\n")
    write(tmp_path / "in" / ".hidden", "skipped\n")
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                 str(tmp_path / "in")).build()
    from_source = env.from_source(source, WatermarkStrategy.no_watermarks(), "files")
    assert (collect_sorted(env.read_text_file(str(tmp_path / "in" / "a.txt"))),
            collect_sorted(from_source)) == (["one", "two"], ["one", "three", "two"])


def test_csv_reader_format_with_header(env, tmp_path):
    write(tmp_path / "people.csv", 'id|name|tags\n1|"Ann|Lee"|a;b\n2|Bob|\n')
    schema = (CsvSchema.builder().add_number_column("id", number_type=DataTypes.INT())
              .add_string_column("name").add_array_column("tags", separator=";")
              .set_column_separator("|").set_use_header().build())
    source = FileSource.for_record_stream_format(CsvReaderFormat.for_schema(schema),
                                                 str(tmp_path / "people.csv")).build()
    ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "csv")
    assert collect_sorted(ds) == [Row(id=1, name="Ann|Lee", tags=["a", "b"]),
                                  Row(id=2, name="Bob", tags=[])]


JSON_ROW = Types.ROW_NAMED(["id", "name"], [Types.INT(), Types.STRING()])


def json_source(path, ignore: bool = False) -> FileSource:
    builder = JsonRowDeserializationSchema.builder().type_info(JSON_ROW)
    if ignore:
        builder.ignore_parse_errors()
    return FileSource.for_record_stream_format(JsonReaderFormat.for_schema(builder.build()),
                                               path).build()


def test_json_reader_format_ignoring_parse_errors(env, tmp_path):
    path = write(tmp_path / "events.json", '{"id": 1, "name": "a"}\nnot json\n{"id": 2}\n')
    ds = env.from_source(json_source(path, ignore=True), WatermarkStrategy.no_watermarks(),
                         "json")
    assert collect_sorted(ds) == [Row(id=1, name="a"), Row(id=2, name=None)]


def test_malformed_json_line_names_file_and_line(batch_env, tmp_path):
    path = write(tmp_path / "events.json", '{"id": 1, "name": "a"}\n{"id": oops}\n')
    ds = batch_env.from_source(json_source(path), WatermarkStrategy.no_watermarks(), "json")
    with pytest.raises(JobExecutionError,
                       match=r"Failed to deserialize JSON '\{\"id\": oops\}'.*events\.json"):
        collect_sorted(ds)


def test_missing_path_is_a_clear_error(batch_env, tmp_path):
    with pytest.raises(PystreamError, match=r"path .*nowhere does not exist"):
        collect_sorted(batch_env.read_text_file(str(tmp_path / "nowhere")))


def test_monitor_continuously_reads_new_files(streaming_env, tmp_path):
    directory = tmp_path / "in"
    write(directory / "1.txt", "a\nb\n")
    source = (FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                  str(directory))
              .monitor_continuously(Duration.of_millis(100)).build())
    ds = streaming_env.from_source(source, WatermarkStrategy.no_watermarks(), "monitor")
    with ds.execute_and_collect("monitor") as results:
        first = sorted([next(results), next(results)])
        write(directory / "2.txt", "c\n")
        assert (first, next(results)) == (["a", "b"], "c")


ROW_TYPE = DataTypes.ROW([DataTypes.FIELD("id", DataTypes.INT()),
                          DataTypes.FIELD("name", DataTypes.STRING()),
                          DataTypes.FIELD("day", DataTypes.DATE())])
ROWS = [Row(1, "a", datetime.date(2024, 1, 2)), Row(2, "b, c", None)]


def test_parquet_bulk_writer_and_reader(env, tmp_path):
    sink = (FileSink.for_bulk_format(str(tmp_path / "out"),
                                     ParquetBulkWriters.for_row_type(ROW_TYPE))
            .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
    env.from_collection(ROWS, ROW_TYPE.to_type_info()).sink_to(sink)
    env.execute("parquet out")
    source = FileSource.for_bulk_file_format(ParquetColumnarRowInputFormat(ROW_TYPE),
                                             str(tmp_path / "out")).build()
    env2 = StreamExecutionEnvironment.get_execution_environment()
    env2.set_runtime_mode(env.get_runtime_mode())
    ds = env2.from_source(source, WatermarkStrategy.no_watermarks(), "parquet in")
    assert collect_sorted(ds) == [Row(id=1, name="a", day=datetime.date(2024, 1, 2)),
                                  Row(id=2, name="b, c", day=None)]


def test_csv_bulk_writer(batch_env, tmp_path):
    schema = (CsvSchema.builder().add_number_column("id", number_type=DataTypes.INT())
              .add_string_column("name").add_string_column("day").set_use_header().build())
    sink = (FileSink.for_bulk_format(str(tmp_path), CsvBulkWriters.for_schema(schema))
            .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
    batch_env.from_collection(ROWS, ROW_TYPE.to_type_info()).sink_to(sink).set_parallelism(1)
    batch_env.execute("csv out")
    assert list(part_files(tmp_path).values()) == [
        ["id,name,day", "1,a,2024-01-02", '2,"b, c",']]
