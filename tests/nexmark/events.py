"""The suite's Nexmark events: a small seeded file, the same for PyFlink's recording and CI."""
from __future__ import annotations

from pathlib import Path

from bench.nexmark.events import write_events

QUERIES = ["q0", "q1", "q2", "q3", "q4", "q5", "q6", "q6_corrected", "q7", "q8", "q9", "q10",
           "q11", "q14", "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22", "q23"]
EVENTS, RATE, SEED = 2000, 100, 0  # 20 seconds of event time


def small_events(directory: Path) -> Path:
    return write_events(directory / "events.json", EVENTS, RATE, SEED)
