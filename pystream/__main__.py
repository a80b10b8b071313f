"""``python -m pystream run ...``: the ``pystream`` command (see ``pystream.cli``)."""
import sys

from pystream.cli import main

if __name__ == "__main__":
    sys.exit(main())
