"""Flink's periodic watermarks replayed over a bounded input (``pystream.runtime.arrivals``):
when records leave a stage, and the watermark each one comes with."""
from pystream.runtime.arrivals import PeriodicEmission, RecordClock


def departures(clock: RecordClock, records):
    """``(arrived, took_ms)`` pairs -> when each record leaves."""
    return [clock.leave(arrived, took) for arrived, took in records]


def watermarks(emission: PeriodicEmission, records):
    """``(arrival, timestamp)`` pairs -> the watermark each record comes with."""
    return [emission.came_with(arrival, ts) for arrival, ts in records]


def test_a_first_stage_counts_the_time_its_functions_took():
    assert departures(RecordClock(), [(None, 0.1), (None, 0.1), (None, 2000.0),
                                      (None, 0.1)]) == [0.1, 0.2, 2000.2, 2000.3]


def test_a_later_stage_takes_a_record_once_it_arrived_and_the_one_before_left():
    assert departures(RecordClock(), [(1.0, 5.0), (2.0, 1.0), (100.0, 1.0)]) == \
        [6.0, 7.0, 101.0]


def test_records_that_come_at_once_see_no_watermark():
    emission = PeriodicEmission(delay_ms=1, interval_ms=200)
    assert watermarks(emission, [(0.0, 1000), (0.1, 3000), (0.2, 6000), (0.3, 2000)]) == \
        [None, None, None, None]


def test_a_pause_lets_the_watermark_of_the_records_before_it_out():
    emission = PeriodicEmission(delay_ms=1, interval_ms=200)
    assert watermarks(emission, [(0.0, 1000), (0.1, 6000), (2000.1, 2000), (2000.2, 0),
                                 (2000.3, 7000)]) == [None, None, 5999, 5999, 5999]


def test_the_watermark_ticks_every_interval_and_never_goes_back():
    emission = PeriodicEmission(delay_ms=101, interval_ms=200)
    assert watermarks(emission, [(0.0, 1000), (150.0, 2000), (250.0, 500), (450.0, 3000),
                                 (650.0, 0)]) == [None, None, 1899, 1899, 2899]


def test_an_interval_of_zero_emits_no_periodic_watermark():
    emission = PeriodicEmission(delay_ms=1, interval_ms=0)
    assert watermarks(emission, [(0.0, 1000), (5000.0, 2000)]) == [None, None]
