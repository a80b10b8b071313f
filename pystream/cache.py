"""pystream's cache directory on this machine (``$PYSTREAM_CACHE_DIR``, else
``$XDG_CACHE_HOME/pystream`` or ``~/.cache/pystream``)."""
from __future__ import annotations

import os


def cache_dir() -> str:
    """The directory, made if missing (only its owner can read it)."""
    base = os.environ.get("PYSTREAM_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pystream")
    os.makedirs(base, mode=0o700, exist_ok=True)
    return base
