"""``pystream-shell`` entry point."""
from __future__ import annotations

import sys


def main(argv=None) -> int:
    from IPython import start_ipython

    from pyshell.namespace import preload

    start_ipython(argv=list(sys.argv[1:] if argv is None else argv), user_ns=preload())
    return 0
