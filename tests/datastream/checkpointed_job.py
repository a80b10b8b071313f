"""A checkpointed STREAMING job for test_checkpoints: run as ``python checkpointed_job.py
INPUT_DIR OUTPUT_DIR CHECKPOINT_DIR PAUSE_FLAG``.

It reads the lines of files appearing in INPUT_DIR, keeps a running count per word in a
ValueState and writes ``word,count`` lines into part files under OUTPUT_DIR. While the file
PAUSE_FLAG exists, the record ``pause,<n>`` stops its task (after its state update, before
its batch is committed) and creates ``PAUSE_FLAG.reached``: the test kills the job there.
"""
import os
import sys
import time

from pystream.common import Configuration, Duration, Types, WatermarkStrategy
from pystream.common.serialization import Encoder
from pystream.datastream import StreamExecutionEnvironment
from pystream.datastream.connectors import BucketAssigner, FileSink, FileSource, StreamFormat
from pystream.datastream.functions import KeyedProcessFunction, MapFunction, RuntimeContext
from pystream.datastream.state import ValueStateDescriptor


class RunningCount(KeyedProcessFunction):
    def open(self, runtime_context: RuntimeContext):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.LONG()))

    def process_element(self, word, ctx):
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        yield "%s,%d" % (word, count)


class PauseAt(MapFunction):
    def __init__(self, flag: str):
        self.flag = flag

    def map(self, line):
        if line.startswith("pause,") and os.path.exists(self.flag):
            open(self.flag + ".reached", "w").close()
            time.sleep(600)
        return line


def main(input_dir: str, output_dir: str, checkpoint_dir: str, pause_flag: str) -> None:
    config = Configuration()
    config.set_string("execution.checkpointing.dir", checkpoint_dir)
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.enable_checkpointing(300)
    source = (FileSource.for_record_stream_format(StreamFormat.text_line_format(), input_dir)
              .monitor_continuously(Duration.of_millis(200)).build())
    sink = (FileSink.for_row_format(output_dir, Encoder.simple_string_encoder())
            .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
    (env.from_source(source, WatermarkStrategy.no_watermarks(), "words")
        .key_by(lambda word: word)
        .process(RunningCount(), Types.STRING())
        .map(PauseAt(pause_flag), Types.STRING())
        .sink_to(sink).uid("counts"))
    env.execute("running counts")


if __name__ == "__main__":
    main(*sys.argv[1:5])
