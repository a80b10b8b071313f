"""``breakpoint()`` in a user function, in local mode: the debugger comes to the user's
terminal.

A Spark Python worker has no terminal. Its ``breakpoint()`` serves ``pdb`` on a loopback
port and announces the port with a marked line on stderr; pystream's driver, which echoes
such lines (``pystream.session``), connects and relays: pdb's output to the terminal, one
line of the user's input per ``(Pdb)`` prompt. When the user continues the connection
closes and the function runs on. Without a terminal the driver answers ``c`` (the job never
hangs on a forgotten breakpoint), and a worker nobody connects to goes on after a minute.
"""
from __future__ import annotations

import os
import pdb
import socket
import sys
import threading
from typing import Optional

MARK = "\x1fpystream-breakpoint\x1f"
PROMPT = "(Pdb) "
ACCEPT_SECONDS = 60.0


class _SocketPdb(pdb.Pdb):
    """pdb over a socket; the socket closes when the user continues or quits."""

    def __init__(self, connection: socket.socket):
        self._connection = connection
        self._file = connection.makefile("rw", buffering=1, encoding="utf-8")
        super().__init__(stdin=self._file, stdout=self._file)
        self.use_rawinput = False
        self.prompt = PROMPT

    def _close(self) -> None:
        try:
            self._file.close()
            self._connection.close()
        except OSError:
            pass

    def set_continue(self) -> None:
        super().set_continue()
        self._close()

    def set_quit(self) -> None:
        super().set_quit()
        self._close()


def _breakpoint(*args, **kwargs) -> None:
    frame = sys._getframe(1)
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(ACCEPT_SECONDS)
    where = "%s (%s:%d)" % (frame.f_code.co_name, os.path.basename(frame.f_code.co_filename),
                            frame.f_lineno)
    sys.stderr.write("%s%d %s\n" % (MARK, server.getsockname()[1], where))
    sys.stderr.flush()
    try:
        connection, _ = server.accept()
    except OSError:  # nobody came: the function goes on
        return
    finally:
        server.close()
    _SocketPdb(connection).set_trace(frame)


def install() -> None:
    """In a worker: ``breakpoint()`` serves pdb to the driver."""
    sys.breakpointhook = _breakpoint


# -- the driver's side

_relaying = threading.Lock()  # one debugging session at a time at the terminal


def announced(line: str) -> Optional[tuple]:
    """(port, where) of a worker's breakpoint line, or None."""
    at = line.find(MARK)  # after the start of a print(), maybe (see user_logs.echoed)
    if at < 0:
        return None
    port, _, where = line[at + len(MARK):].strip().partition(" ")
    return int(port), where


def relay(port: int, where: str) -> None:
    """Connect to a worker's debugger and relay it to this terminal (in its own thread);
    without a terminal, continue at once."""
    interactive = sys.stdin is not None and sys.stdin.isatty()
    threading.Thread(target=_relay, args=(port, where, interactive), daemon=True,
                     name="pystream-breakpoint").start()


def _relay(port: int, where: str, interactive: bool) -> None:
    with _relaying:
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError:
            return
        with connection:
            connection.settimeout(None)
            if not interactive:
                sys.stderr.write("pystream: breakpoint() in %s: continued (no terminal)\n"
                                 % where)
                connection.sendall(b"c\n")
                return
            sys.stdout.write("pystream: breakpoint() in %s (pdb; c continues)\n" % where)
            tail = ""
            while True:
                data = connection.recv(4096)
                if not data:
                    return
                text = data.decode("utf-8", "replace")
                sys.stdout.write(text)
                sys.stdout.flush()
                tail = (tail + text)[-len(PROMPT):]
                if tail == PROMPT:
                    line = sys.stdin.readline() or "c\n"
                    connection.sendall(line.encode("utf-8"))
