"""``%chart`` figures: time to the first chart frame with rows, once the session is ready.

    python -m bench.chart_bench [--runs 3] [--master local[2]]

Two sources, each charted ``--runs`` times in one warm session: the teaching generator (a
DataStream at 20 rows/s, one series per key) and a windowed COUNT per user over an endless
datagen table (1-second tumbling windows on LOCALTIMESTAMP; its first rows come when the
watermark passes the first window's end). Prints, per run, the seconds from the call to the
first frame holding rows (terminal renderer: plotext; notebook renderer: matplotlib), and the
time to draw one frame of each renderer.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

from pyshell.chart import ChartSpec, chart, png_chart, terminal_chart
from pyshell.preview import Cancellation

WINDOWED = """SELECT window_end, user_id, COUNT(*) AS clicks
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' SECOND))
GROUP BY window_start, window_end, user_id"""


def first_frame_seconds(source, spec: ChartSpec) -> float:
    """Seconds from the call until a frame holds rows (the chart then stops)."""
    cancel, started, first = Cancellation(), time.monotonic(), []

    def show(data):
        if any(data.series.values()) and not first:
            first.append(time.monotonic() - started)
            cancel.cancel("rows")

    chart(source, spec, cancel, show, refresh=0.1, timeout=120)
    return first[0] if first else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    os.environ.setdefault("PYSTREAM_SERVER", "off")
    from pystream import session
    from pystream.common import Types, WatermarkStrategy
    from pystream.datastream import StreamExecutionEnvironment
    from pystream.datastream.connectors import DataGeneratorSource
    from pystream.table import EnvironmentSettings, TableEnvironment

    session.configure(master=args.master, conf={"spark.ui.enabled": "false"})
    started = time.monotonic()
    session.get_session()
    ready = time.monotonic() - started
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    ds = env.from_source(DataGeneratorSource(lambda i: (i % 3, i), rows_per_second=20),
                         WatermarkStrategy.no_watermarks(), "gen",
                         Types.TUPLE([Types.LONG(), Types.LONG()]))
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("""CREATE TABLE clicks (user_id INT, ts AS LOCALTIMESTAMP,
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen',
        'rows-per-second' = '20', 'fields.user_id.min' = '1', 'fields.user_id.max' = '3')""")
    windowed = t_env.sql_query(WINDOWED)
    stream_runs = [first_frame_seconds(ds, ChartSpec(by="f0")) for _ in range(args.runs)]
    sql_runs = [first_frame_seconds(windowed, ChartSpec(by="user_id"))
                for _ in range(args.runs)]
    frames = []
    chart(windowed, ChartSpec(by="user_id"), Cancellation(), frames.append, rows=9,
          timeout=120)
    draw = []
    for render in (terminal_chart, png_chart):
        t = time.monotonic()
        render(frames[-1])
        draw.append(time.monotonic() - t)
    print("pystream %%chart · master %s · %d cores · session ready in %.1f s"
          % (args.master, os.cpu_count(), ready))
    print("first frame, generator 20 rows/s      %s s (median %.2f)"
          % (", ".join("%.2f" % s for s in stream_runs), statistics.median(stream_runs)))
    print("first frame, windowed SQL (1 s windows) %s s (median %.2f)"
          % (", ".join("%.2f" % s for s in sql_runs), statistics.median(sql_runs)))
    print("one frame drawn: plotext %.3f s, matplotlib PNG %.3f s" % tuple(draw))


if __name__ == "__main__":
    main()
