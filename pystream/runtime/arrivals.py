"""Flink's periodic watermarks over a bounded STREAMING input.

Spark reads a bounded input in one micro-batch, so its watermark moves once, after every
record. Flink's watermark assigner emits its watermark every ``pipeline.auto-watermark-interval``
(200 ms) of processing time while the records flow: a function that pauses (a slow lookup,
a ``time.sleep``) lets the watermark pass the records before the pause, and timers and
windows fire before the records after it. pystream replays that in three steps:

- the Python stages from the source to the assigner run record by record and stamp each
  record with when it left them (``RecordClock``): the time the stage's functions took, as
  if each stage took the records one after another as they came (Flink's chained operators
  do), from the moment the first record arrived;
- the assigner's stage, at parallelism 1, gives each record the watermark emitted before it
  arrived (``PeriodicEmission``): a tick every interval of those times;
- the keyed operator fires the timers that watermark passed before it takes the record
  (``runtime.keyed_stream``).
"""
from __future__ import annotations

from typing import Optional


class RecordClock:
    """When the records of one stage leave it, in milliseconds since the first arrived."""

    __slots__ = ("now",)

    def __init__(self):
        self.now = 0.0

    def leave(self, arrived: Optional[float], took_ms: float) -> float:
        """A record that ``arrived`` (None: at the start) and took ``took_ms`` here: it leaves
        once the records before it left and its own work is done."""
        self.now = max(self.now, arrived or 0.0) + took_ms
        return self.now


class PeriodicEmission:
    """The watermarks a bounded-out-of-orderness assigner emits, one tick every
    ``interval_ms`` (0: never, as in Flink) from the first record's arrival."""

    def __init__(self, delay_ms: int, interval_ms: int):
        self.delay_ms = delay_ms
        self.interval_ms = interval_ms
        self.origin: Optional[float] = None
        self.ticks = 0
        self.current: Optional[int] = None  # the largest timestamp seen, less the delay
        self.emitted: Optional[int] = None

    def came_with(self, arrival: Optional[float], timestamp: Optional[int]) -> Optional[int]:
        """The watermark emitted before a record that arrives at ``arrival`` (None: none
        yet); then the record's ``timestamp`` counts."""
        arrival = arrival or 0.0
        if self.origin is None:
            self.origin = arrival
        if self.interval_ms > 0:
            ticks = int((arrival - self.origin) // self.interval_ms)
            if ticks > self.ticks:
                self.ticks = ticks
                if self.current is not None:
                    self.emitted = self.current
        emitted = self.emitted
        if timestamp is not None:
            candidate = timestamp - self.delay_ms
            self.current = candidate if self.current is None else max(self.current, candidate)
        return emitted
