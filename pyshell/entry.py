"""The ``pystream-shell`` command: the shell when its libraries are installed (the ``shell``
extra), else a sentence saying how to install them, instead of an ImportError."""
from __future__ import annotations

import importlib.util
import sys
from typing import Optional, Sequence

from pyshell.app import main as shell

SHELL_LIBRARIES = ("IPython", "prompt_toolkit", "pygments", "rich", "plotext")


def missing_libraries() -> list:
    """The shell's libraries that are not installed."""
    return [name for name in SHELL_LIBRARIES if importlib.util.find_spec(name) is None]


def main(argv: Optional[Sequence[str]] = None) -> int:
    missing = missing_libraries()
    if missing:
        print("pystream-shell: %s not installed here; the shell comes with the shell extra: "
              "pip install 'pystream-spark[shell]'" % ", ".join(missing), file=sys.stderr)
        return 1

    return shell(argv)
