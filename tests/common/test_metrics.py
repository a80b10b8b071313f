"""pystream.metrics: what a function reads back from its own metrics (kept in its task)."""
from pystream.metrics import MetricGroup


def test_counters_meters_distributions_and_nested_groups():
    root = MetricGroup()
    group = root.add_group("pystream").add_group("key", "value")
    seen, events, sizes = group.counter("seen"), group.meter("events"), group.distribution("d")
    for value in (1, 2, 3):
        seen.inc()
        seen.inc(2)
        seen.dec()
        events.mark_event(value)
        sizes.update(value)
    group.gauge("last", lambda: 3)
    assert (seen.get_count(), events.get_count(), (sizes.count, sizes.sum, sizes.min, sizes.max),
            group.get_scope(), root.add_group("pystream").add_group("key", "value") is group,
            group.counter("seen") is seen) == (
        6, 6, (3, 6, 1, 3), ("pystream", "key", "value"), True, True)
