"""``python -m pyshell``: the same as ``pystream-shell``."""
import sys

from pyshell.entry import main

if __name__ == "__main__":
    sys.exit(main())
