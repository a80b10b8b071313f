"""``%chart``'s parts: rows in, series out; both renderers draw them; a live chart of an
unbounded stream and of a windowed SQL query stops its query."""
import datetime

import pytest

from pyshell.chart import (
    ChartRows,
    ChartSpec,
    chart,
    chart_data,
    choose_axes,
    png_chart,
    terminal_chart,
)
from pyshell.preview import Cancellation

T = datetime.datetime(2026, 1, 1, 12, 0, 0)
WINDOWS = [["a", T + datetime.timedelta(seconds=5 * i), i * 2] for i in range(4)] + \
          [["b", T + datetime.timedelta(seconds=5 * i), i] for i in range(4)]


def test_a_windowed_result_plots_its_last_numeric_field_by_window_end():
    assert choose_axes(["k", "window_end", "cnt"], WINDOWS, ChartSpec()) == ("window_end", "cnt")
    assert choose_axes(["k", "v"], [["a", 1.5]], ChartSpec(x="k")) == ("k", "v")
    with pytest.raises(ValueError, match="no field 'z'; the fields are k, v"):
        choose_axes(["k", "v"], [], ChartSpec(y="z"))


def test_one_series_per_key_each_with_its_last_points_in_x_order():
    data = chart_data(["k", "window_end", "cnt"], list(reversed(WINDOWS)),
                      ChartSpec(by="k", last=2), "caption")
    assert (data.x, data.y, sorted(data.series)) == ("window_end", "cnt", ["a", "b"])
    assert data.series["a"] == [(T + datetime.timedelta(seconds=10), 4.0),
                                (T + datetime.timedelta(seconds=15), 6.0)]


def test_values_without_an_x_field_plot_in_arrival_order():
    data = chart_data(["value"], [[3], [1], ["not a number"], [2]], ChartSpec(), "")
    assert data.series == {"value": [(0, 3.0), (1, 1.0), (3, 2.0)]}


@pytest.mark.parametrize("kind", ["line", "bar", "scatter"])
def test_the_terminal_chart_has_axes_labels_and_series(kind):
    data = chart_data(["k", "window_end", "cnt"], WINDOWS, ChartSpec(kind=kind, by="k"),
                      "watermark 12:00:10")
    text = terminal_chart(data, 90, 20)
    assert "window_end" in text and "cnt" in text and "watermark 12:00:10" in text
    assert "a" in text and "b" in text and len(text.splitlines()) >= 15


@pytest.mark.parametrize("kind", ["line", "bar", "scatter"])
def test_the_notebook_chart_is_a_png(kind):
    data = chart_data(["k", "window_end", "cnt"], WINDOWS, ChartSpec(kind=kind, by="k"), "c")
    assert png_chart(data)[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_updating_tables_changes_chart_its_current_rows():
    rows = ChartRows()
    assert rows.columns(["op", "k", "n"]) == ["k", "n"]
    for change in (["+I", "a", 1], ["-U", "a", 1], ["+U", "a", 2], ["+I", "b", 1]):
        rows.fold(change)
    assert rows.current == [("a", 2), ("b", 1)]


def test_a_live_chart_of_an_unbounded_stream_stops_after_its_rows(streaming_env, spark):
    from pystream.common import Types, WatermarkStrategy
    from pystream.datastream.connectors import DataGeneratorSource

    streaming_env.set_parallelism(1)
    ds = streaming_env.from_source(
        DataGeneratorSource(lambda i: (i % 2, i), rows_per_second=50),
        WatermarkStrategy.no_watermarks(), "gen", Types.TUPLE([Types.LONG(), Types.LONG()]))
    frames = []
    closing = chart(ds, ChartSpec(by="f0"), Cancellation(), frames.append, refresh=0.2,
                    rows=20, timeout=120)
    assert closing.startswith("stopped: 20 rows reached")
    assert frames and set(frames[-1].series) <= {"0", "1"}
    assert frames[-1].y == "f1" and sum(len(p) for p in frames[-1].series.values()) >= 20
    assert not [q for q in spark.streams.active if (q.name or "").startswith("pystream_")]


def test_a_chart_of_a_bounded_table_draws_its_rows_once(spark):
    from pystream.table import EnvironmentSettings, TableEnvironment

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    counts = t_env.sql_query("SELECT k, COUNT(*) AS n FROM (VALUES ('a'), ('b'), ('a')) "
                             "AS t(k) GROUP BY k")
    frames = []
    closing = chart(counts, ChartSpec(kind="bar", x="k"), Cancellation(), frames.append)
    assert closing.startswith("stopped: end of stream")
    assert frames[-1].series == {"n": [("a", 2.0), ("b", 1.0)]}
