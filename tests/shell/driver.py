"""Drive a real ``pystream-shell`` in a pseudo-terminal (pexpect): for tests and the bench."""
from __future__ import annotations

import os
import re
import signal
import socket
import sys
import time
from typing import List, Optional

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z])")
WAIT = 180  # seconds: Spark starts slowly on a busy machine; never a timing assertion


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prompt(number: int) -> str:
    """IPython's ``In [n]:`` prompt, colours and all."""
    return r"In \[(?:\x1b\[[0-9;]*m)*%d(?:\x1b\[[0-9;]*m)*\]: " % number


def plain(text: str) -> str:
    """Terminal output without escape sequences and carriage returns."""
    return ANSI.sub("", text).replace("\r", "")


def descendants(pid: int) -> List[int]:
    """PIDs of the processes below ``pid``."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def command_name(pid: int) -> str:
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip()
    except OSError:
        return ""


class Shell:
    """One ``pystream-shell`` process; ``run(line)`` types a line and returns its output.

    The terminal echoes a Ctrl-C as ``^C`` wherever the output is, also inside the bytes of
    one character a live view is drawing: such bytes are read as U+FFFD."""

    def __init__(self, *args: str, ipython_dir: str, env: Optional[dict] = None):
        environ = dict(os.environ, PYTHONPATH=ROOT, IPYTHONDIR=ipython_dir, TERM="xterm",
                       PROMPT_TOOLKIT_NO_CPR="1", **(env or {}))
        self.started = time.monotonic()
        self.child = pexpect.spawn(sys.executable, ["-m", "pyshell", *args], env=environ,
                                   encoding="utf-8", codec_errors="replace", timeout=WAIT,
                                   dimensions=(50, 160), cwd=ipython_dir)
        self.number = 1
        self.banner = ""

    def wait_for_prompt(self) -> float:
        """Seconds from the start until the first prompt; the banner is kept."""
        self.child.expect(prompt(1))
        self.banner = plain(self.child.before)
        return time.monotonic() - self.started

    def wait_for(self, pattern: str) -> str:
        self.child.expect(pattern)
        return plain(self.child.before + self.child.after)

    def run(self, line: str) -> str:
        """Type ``line``, wait for the next prompt; the output in between."""
        self.child.sendline(line)
        self.number += 1
        self.child.expect(prompt(self.number))
        return plain(self.child.before)

    def interrupt_when(self, line: str, pattern: str) -> str:
        """Type ``line``, press Ctrl-C once ``pattern`` shows; the output until the prompt."""
        self.child.sendline(line)
        self.child.expect(pattern)
        shown = self.child.before + self.child.after
        self.child.sendintr()
        self.number += 1
        self.child.expect(prompt(self.number))
        return plain(shown + self.child.before)

    def java_processes(self) -> List[int]:
        return [p for p in descendants(self.child.pid) if command_name(p) == "java"]

    def exit(self) -> int:
        self.child.sendline("exit")
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus

    def kill(self) -> None:
        """End the shell and everything it started (its JVM, Spark's Python workers)."""
        if self.child.isalive():
            below = descendants(self.child.pid)
            self.child.terminate(force=True)
            for pid in below:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
