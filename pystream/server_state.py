"""Where the warm local server (``pystream server``) is: the record ``start`` writes (its
URL, process session and log, in a directory only its owner can read), its token, and
whether it answers. Sessions read it to run jobs on the server; ``pystream.server`` starts
and stops the server and writes it."""
from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from typing import Optional

__all__ = ["ServerInfo", "LOOPBACK", "state_dir", "private_dir", "state_file", "token_file",
           "write_private", "token", "with_token", "recorded", "running", "url_for_jobs",
           "port_open", "alive"]


@dataclass(frozen=True)
class ServerInfo:
    """A started server: its URL (without the token), the leader of its process session, its
    log."""

    url: str
    pid: int
    master: str
    log: str


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def state_dir(environ=os.environ) -> str:
    return environ.get("PYSTREAM_SERVER_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "pystream", "server")


def private_dir() -> str:
    """The state directory, made (or made again) readable by its owner only."""
    directory = state_dir()
    os.makedirs(directory, mode=0o700, exist_ok=True)
    os.chmod(directory, 0o700)
    return directory


def state_file() -> str:
    return os.path.join(state_dir(), "server.json")


def token_file() -> str:
    return os.path.join(state_dir(), "token")


def write_private(path: str, text: str) -> None:
    """``text`` into ``path``, a file only its owner can read (made so before it is written)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as f:
        f.write(text)


def token() -> Optional[str]:
    """The running server's token (None: no file, or a server started without one)."""
    try:
        with open(token_file(), encoding="utf-8") as f:
            return f.read().strip() or None
    except OSError:
        return None


def with_token(url: str, value: Optional[str]) -> str:
    """``sc://host:port`` with Spark Connect's ``;token=`` parameter (when there is one)."""
    return "%s/;token=%s" % (url, value) if value else url


def recorded() -> Optional[ServerInfo]:
    """The server ``start`` recorded, if any (it may have died since)."""
    try:
        with open(state_file(), encoding="utf-8") as f:
            return ServerInfo(**json.load(f))
    except (OSError, ValueError, TypeError):
        return None


def running() -> Optional[ServerInfo]:
    """The recorded server if it answers on its port."""
    info = recorded()
    if info is None or not alive(info.pid):
        return None
    port = int(info.url.rsplit(":", 1)[1])
    return info if port_open("127.0.0.1", port, timeout=0.5) else None


def url_for_jobs(environ=os.environ) -> Optional[str]:
    """The URL jobs of this process should use, token included: the running server's, unless
    PYSTREAM_SERVER is ``off``."""
    if environ.get("PYSTREAM_SERVER", "").lower() in ("off", "0", "false", "no"):
        return None
    info = running()
    return with_token(info.url, token()) if info else None


def port_open(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not is_zombie(pid)


def is_zombie(pid: int) -> bool:
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except (OSError, IndexError):
        return False
