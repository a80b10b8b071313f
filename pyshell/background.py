"""The Spark session, started in a background thread while the prompt is already up.

``SparkStarter`` starts the session (``pystream.session.get_session``), announces it in one
line, then warms up the streaming path (``pyshell.warmup``) so the first ``%preview`` does not
pay Spark's first-query cost. A preview or watch started meanwhile stops the warm-up (on a
small machine its tasks would wait for the warm-up's; what is warmed so far stays warm). A
session that was already running (``%load_ext pyshell`` in a notebook that used Spark) is
not warmed up. Whoever needs Spark calls ``session()``: it waits, with a one-line "waiting
for Spark…" note instead of a silent hang.
``shutdown()`` stops every query and job, the session and its JVM.
"""
from __future__ import annotations

import sys
import threading
import time
from typing import Callable, Optional

from pyshell.errors import StartupError
from pyshell.jobs import stop_everything
from pyshell.launcher import describe_target
from pyshell.preview import Cancellation
from pyshell.render import duration
from pyshell.warmup import warm_up
from pystream import session
from pystream.session import get_session, log_path, settings

QUIET_WAIT = 0.5  # seconds: a shorter wait for the session needs no note
_starter: Optional["SparkStarter"] = None
_starter_lock = threading.Lock()


def say(text: str) -> None:
    """One line for the user (the prompt stays intact: IPython patches stdout)."""
    try:
        print(text, flush=True)
    except (ValueError, OSError):  # stdout closed at exit
        pass


class SparkStarter:
    """Starts the session in a thread; ``session()`` waits for it."""

    def __init__(self, warm_up: bool = True, announce: Callable[[str], None] = say):
        self.warm_up = warm_up
        self.announce = announce
        self.started_at = time.monotonic()
        self.ready_after: Optional[float] = None
        self.error: Optional[BaseException] = None
        self.ready = threading.Event()  # the session is up (or failed)
        self.warm = threading.Event()  # the warm-up is over (or skipped)
        self.closing = threading.Event()
        self.warm_up_cancel = Cancellation()
        self._thread: Optional[threading.Thread] = None
        self._on_ready: list = []
        self._lock = threading.Lock()

    def start(self) -> "SparkStarter":
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name="pystream-shell-start")
        self._thread.start()
        return self

    def _run(self) -> None:
        started_here = session.active_session() is None
        try:
            spark = session.get_session()
        except BaseException as e:  # noqa: BLE001 - reported to whoever waits
            self.error = e
            self.ready.set()
            self.warm.set()
            self.announce("Spark failed to start: %s" % short_startup_error(e))
            return
        self.ready_after = time.monotonic() - self.started_at
        if not self.closing.is_set():
            self.announce(ready_line(spark, self.ready_after))
        with self._lock:
            self.ready.set()
            callbacks, self._on_ready = self._on_ready, []
        for callback in callbacks:
            callback(spark)
        try:
            if self.warm_up and started_here and not self.closing.is_set():
                warm_up(self.warm_up_cancel)
        except BaseException:  # noqa: BLE001 - a failed warm-up only costs time later
            pass
        finally:
            self.warm.set()

    def when_ready(self, callback: Callable[[object], None]) -> None:
        """Call ``callback(spark)`` once the session is up (now, if it is)."""
        with self._lock:
            if not self.ready.is_set():
                self._on_ready.append(callback)
                return
        if self.error is None:
            callback(get_session())

    # -- waiting

    def waiting_note(self) -> str:
        return "waiting for Spark… (starting for %s)" % duration(
            time.monotonic() - self.started_at)

    def session(self):
        """The session, once it is up (waits, with a note)."""
        if not self.ready.wait(QUIET_WAIT):
            self.announce(self.waiting_note())
            while not self.ready.wait(0.1):  # interruptible by Ctrl-C
                pass
        if self.error is not None:
            raise StartupError("Spark did not start: %s" % short_startup_error(self.error))

        return get_session()

    def make_way(self) -> None:
        """Stop the warm-up (if it still runs): the user's query needs Spark's task slots
        more than the warm-up does."""
        self.warm_up_cancel.cancel("the user's query")

    # -- the end

    def shutdown(self) -> None:
        """Stop the warm-up, every running job and query, the session and its JVM."""
        self.closing.set()
        self.warm_up_cancel.cancel("closing")
        if self._thread is not None and self._thread.is_alive():
            if not self.ready.is_set():
                self.announce("stopping Spark (it was still starting)…")
            self._thread.join(timeout=120)
        if session.active_session() is not None:
            try:
                stop_everything()
            finally:
                session.stop_session()


def short_startup_error(error: BaseException) -> str:
    lines = [line for line in str(error).strip().splitlines() if line.strip()]
    text = lines[0] if lines else type(error).__name__
    if log_path():
        text += " (Spark's log: %s)" % log_path()
    return text


def web_ui(spark) -> Optional[str]:
    """The Web UI address of a classic session (None over Spark Connect or with the UI off)."""
    try:
        return spark.sparkContext.uiWebUrl
    except Exception:  # noqa: BLE001 - Spark Connect has no SparkContext
        return None


def ready_line(spark, seconds: float) -> str:
    ui = web_ui(spark)
    return "Spark %s is ready (%s, %s) · Web UI: %s" % (
        spark.version, describe_target(settings()), duration(seconds),
        ui or ("on the Connect server" if settings().is_remote else "off"))


def starter() -> Optional[SparkStarter]:
    """The shell's starter, if one was started in this process."""
    return _starter


def start(warm_up: bool = True) -> SparkStarter:
    """Start the session in the background (once per process)."""
    global _starter
    with _starter_lock:
        if _starter is None:
            _starter = SparkStarter(warm_up=warm_up).start()
        return _starter


def shutdown() -> None:
    """Stop everything the shell started (idempotent)."""
    global _starter
    with _starter_lock:
        current, _starter = _starter, None
    if current is not None:
        current.shutdown()
    else:
        session.stop_session()


class CellWatch:
    """Says "waiting for Spark…" when a cell blocks in ``get_session()`` (plain code such as
    ``env.execute()``) while the background start is still running."""

    def __init__(self, spark_starter: SparkStarter):
        self.starter = spark_starter
        self._done: Optional[threading.Event] = None

    def pre_run_cell(self, *args) -> None:
        if self.starter.ready.is_set():
            return
        done = self._done = threading.Event()
        thread_id = threading.get_ident()
        threading.Thread(target=self._watch, args=(done, thread_id), daemon=True,
                         name="pystream-shell-cellwatch").start()

    def post_run_cell(self, *args) -> None:
        if self._done is not None:
            self._done.set()
            self._done = None

    def _watch(self, done: threading.Event, thread_id: int) -> None:
        while not done.wait(0.2) and not self.starter.ready.is_set():
            if waiting_in_get_session(thread_id):
                self.starter.announce(self.starter.waiting_note())
                return


def waiting_in_get_session(thread_id: int) -> bool:
    """Whether thread ``thread_id`` is inside ``pystream.session.get_session``."""
    frame = sys._current_frames().get(thread_id)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "get_session" and code.co_filename.endswith("session.py"):
            return True
        frame = frame.f_back
    return False
