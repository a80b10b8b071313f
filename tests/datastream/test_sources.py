"""Built-in sources in both runtime modes."""
import socket
import threading
import time

import pytest

from pystream.common import Types, WatermarkStrategy
from pystream.datastream.connectors import DataGeneratorSource, NumberSequenceSource
from pystream.errors import PystreamError
from tests.helpers import collect, collect_sorted


def test_number_sequence_source(env):
    ds = env.from_source(NumberSequenceSource(1, 10), WatermarkStrategy.no_watermarks(), "seq")
    assert (ds.get_type(), collect_sorted(ds, key=int)) == (Types.LONG(), list(range(1, 11)))


def test_bounded_data_generator(env):
    source = DataGeneratorSource(lambda i: (i % 2, "r%d" % i), count=4)
    ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "gen",
                         Types.TUPLE([Types.LONG(), Types.STRING()]))
    assert collect_sorted(ds) == [(0, "r0"), (0, "r2"), (1, "r1"), (1, "r3")]


def test_bounded_data_generator_keeps_its_rate(env):
    """20 records at 10 per second: all of them, in index order, over at least ~2 s."""
    source = DataGeneratorSource(lambda i: i * 10, count=20, rows_per_second=10)
    ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "gen", Types.LONG())
    started = time.monotonic()
    records = collect(ds)
    assert (records, time.monotonic() - started >= 1.8) == ([i * 10 for i in range(20)], True)


def test_unbounded_source_in_batch_mode_is_an_error(batch_env):
    ds = batch_env.from_source(DataGeneratorSource(lambda i: i), WatermarkStrategy.no_watermarks(),
                               "gen", Types.LONG())
    with pytest.raises(PystreamError, match="UNBOUNDED source"):
        collect(ds)


@pytest.fixture
def line_server():
    """A TCP server on 127.0.0.1 that sends three lines to its first client, then waits."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    done = threading.Event()

    def serve():
        conn, _ = server.accept()
        conn.sendall(b"hello\nstream\nworld\n")
        done.wait(60)
        conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    done.set()
    server.close()


def test_socket_text_stream(streaming_env, line_server):
    ds = streaming_env.socket_text_stream("127.0.0.1", line_server).map(str.upper, Types.STRING())
    assert sorted(ds.execute_and_collect(limit=3)) == ["HELLO", "STREAM", "WORLD"]
