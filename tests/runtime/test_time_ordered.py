"""One partition of a streaming OVER aggregation, list in, list out (no Spark): which rows
are late and what each row's frame holds. The input is tests/sql/programs/over_aggregates.py's
partition 'a' (times in seconds), whose results PyFlink 2.3 recorded."""
from __future__ import annotations

from pystream.runtime.changelog import AggregateSpec
from pystream.runtime.time_ordered import END_OF_INPUT, OverFrame, OverPartition

# (time in seconds, value), in arrival order; the watermark trails the largest time by 1 s
PARTITION_A = [(1, 1), (2, 2), (4, 8), (4, 3), (10, 4), (7, 9), (12, 16)]
# the watermark each row of 'a' came at: b's rows (2 s, 5 s) moved it too
WATERMARKS = [None, 0, 1, 3, 4, 9, 9]


def run(rows: bool, preceding, spec: str = "sum"):
    """The (value, result) pairs the partition emits, replaying each row's watermark."""
    partition = OverPartition(OverFrame(rows, preceding, [AggregateSpec(spec, ("v",))]))
    out = []
    for (time, value), watermark in zip(PARTITION_A, WATERMARKS):
        watermark = float("-inf") if watermark is None else watermark * 1000
        out += partition.advance(watermark)
        partition.arrive(time * 1000, {"v": value}, watermark)
    out += partition.advance(END_OF_INPUT)
    return [(row["v"], results[0]) for row, results in out]


def test_an_unbounded_frame_drops_a_row_behind_the_watermark():
    assert run(rows=True, preceding=None) == [(1, 1), (2, 3), (8, 11), (3, 14), (4, 18),
                                              (16, 34)]


def test_a_range_frame_gives_rows_of_equal_time_the_same_results():
    assert run(rows=False, preceding=None) == [(1, 1), (2, 3), (8, 14), (3, 14), (4, 18),
                                               (16, 34)]


def test_a_bounded_rows_frame_keeps_a_row_later_than_its_last_timer():
    """The row of 7 s came after the watermark passed 4 s only: Flink's bounded ROWS frame
    keeps it (its last timer fired at 4 s) and emits it before the row of 10 s."""
    assert run(rows=True, preceding=2) == [(1, 1), (2, 3), (8, 11), (3, 13), (9, 20), (4, 16),
                                           (16, 29)]


def test_a_bounded_range_frames_cleanup_timer_makes_a_later_row_late():
    """Flink's cleanup timer of 4 s + 7.5 s... registered at 1 s + 7.5 s fired at the
    watermark of 9 s, past the row of 7 s: dropped."""
    assert run(rows=False, preceding=5000) == [(1, 1), (2, 3), (8, 14), (3, 14), (4, 4),
                                               (16, 20)]


def test_a_partition_is_saved_between_micro_batches_without_its_frame():
    frame = OverFrame(True, None, [AggregateSpec("count_star", ())])
    partition = OverPartition(frame)
    partition.arrive(1000, {}, float("-inf"))
    partition = OverPartition.restore(partition.save(), frame)
    assert [r for _, r in partition.advance(1000)] == [(1,)]
    assert partition.arrive(500, {}, 1000) is False


def test_a_temporal_sort_emits_each_time_sorted_by_the_other_keys():
    """tests/sql/programs/sort_streaming.py's rows (ORDER BY ts, v DESC): the row of 7 s
    comes at the watermark of 9 s, after the last timer fired at 4 s: kept."""
    from pystream.runtime.time_ordered import SortOrder

    rows = [("a", 1, 3), ("b", 5, 1), ("a", 8, 4), ("c", 3, 4), ("b", 7, 10), ("a", 9, 7),
            ("c", 2, 12), ("a", 6, 11)]
    watermarks = [None, 2, 2, 3, 3, 9, 9, 11]
    buffer = SortOrder([("v", False, False)]).new()
    out = []
    for (k, v, time), watermark in zip(rows, watermarks):
        watermark = float("-inf") if watermark is None else watermark * 1000
        out += buffer.advance(watermark)
        buffer.arrive(time * 1000, {"k": k, "v": v}, watermark)
    out += buffer.advance(END_OF_INPUT)
    assert [(row["k"], row["v"]) for row, _ in out] == [
        ("b", 5), ("a", 1), ("a", 8), ("c", 3), ("a", 9), ("b", 7), ("a", 6), ("c", 2)]
    assert buffer.arrive(5000, {"k": "z", "v": 0}, 11000) is False  # behind its last timer


def test_the_watermark_moves_after_a_record_that_moves_it_more_than_200_ms():
    """Flink's SQL watermark assigner (delay 0 here): emitted after 1000 (from 0), not after
    1100 or 1150, again after 1300; the row of 1050 comes at the watermark of 1000."""
    import pandas as pd

    from pystream.runtime.time_ordered import EmittedWatermarks

    frame = pd.DataFrame({"s": [0, 1, 2, 3, 4, 5], "c": [1000.0, 1100.0, 1150.0, 1050.0,
                                                        1300.0, 1250.0]})
    out = pd.concat(EmittedWatermarks("s", "c", "w")(iter([frame])))
    assert [None if w != w else w for w in out["w"]] == [None, 1000, 1000, 1000, 1000, 1300]
