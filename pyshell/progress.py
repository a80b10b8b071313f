"""A progress bar under a long bounded job: the tasks Spark has done of its running stages.

It appears on a terminal once a magic's job has run for a second, only while no streaming
query runs (those show their rows instead), and it leaves no trace when the job ends. Over
Spark Connect there is no status tracker to read: nothing is shown.
"""
from __future__ import annotations

import threading
from typing import Optional, Tuple

from pyshell.render import is_terminal
from pystream.session import is_remote

DELAY_SECONDS = 1.0
POLL_SECONDS = 0.25


def stage_tasks(tracker) -> Optional[Tuple[int, int]]:
    """(tasks done, tasks) of the running stages Spark's status ``tracker`` knows, or None
    when no stage runs."""
    done = total = 0
    for stage_id in tracker.getActiveStageIds():
        info = tracker.getStageInfo(stage_id)
        if info is not None:
            done += info.numCompletedTasks
            total += info.numTasks
    return (done, total) if total else None


class JobProgress:
    """``with JobProgress(spark, "preview"):`` around a magic's work."""

    def __init__(self, spark, label: str, delay: float = DELAY_SECONDS):
        self.spark, self.label, self.delay = spark, label, delay
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def __enter__(self) -> "JobProgress":
        if is_terminal() and not is_remote(self.spark):
            self._thread = threading.Thread(target=self._show, daemon=True,
                                            name="pystream-shell-progress")
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _show(self) -> None:
        if self._stop.wait(self.delay):
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        tracker = self.spark.sparkContext.statusTracker()
        bar = Progress(SpinnerColumn(), TextColumn(self.label), BarColumn(),
                       MofNCompleteColumn(), TextColumn("tasks"), TimeElapsedColumn(),
                       TextColumn("Ctrl-C stops"), console=Console(stderr=True),
                       transient=True, redirect_stdout=False, redirect_stderr=False)
        task = None
        try:
            while not self._stop.is_set():
                counts = None if self.spark.streams.active else stage_tasks(tracker)
                if counts is not None:
                    if task is None:
                        bar.start()
                        task = bar.add_task(self.label)
                    bar.update(task, completed=counts[0], total=counts[1])
                self._stop.wait(POLL_SECONDS)
        except Exception:  # noqa: BLE001 - the session went away: no bar, nothing else
            pass
        finally:
            if task is not None:
                bar.stop()
