"""``pystream-shell``: check what Spark needs, start it in the background, open IPython.

Only quick checks run before the prompt (no JVM, no pyspark import); the session and a
warm-up query start in a background thread (``pyshell.background``). Leaving the shell
stops every query and the session, and with it the JVM.
"""
from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

from pyshell import background, launcher
from pyshell.errors import StartupError
from pyshell.extension import MAGICS, load
from pyshell.namespace import banner_groups
from pyshell.render import banner
from pystream import session

PROFILE = "pystream"
SQL_BANNER = ("pystream-shell: Flink SQL on Spark. Statements end with ';' (they may span "
              "lines); %magics work; QUIT; leaves.")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the shell; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        options = launcher.parse_options(argv)
        if options.show_version:
            print(version_text())
            return 0
        launcher.check(options.settings)
        if options.init_file and not os.path.isfile(options.init_file):
            raise StartupError("File %s (from -i) does not exist." % options.init_file)
        launcher.install_py_files(options.settings)
    except StartupError as e:
        print(cannot_start(e), file=sys.stderr)
        return 1

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session.configure(options.settings)
    try:
        return run_ipython(options)
    finally:
        background.shutdown()


def version_text() -> str:
    v = launcher.versions()
    return "pystream-shell %s (Spark %s, Python %s)" % (v["pystream"], v["spark"],
                                                        v["python"])


def cannot_start(error: BaseException) -> str:
    """The one-screen message for a shell that cannot start."""
    return "pystream-shell: cannot start Spark.\n  %s" % str(error).replace("\n", "\n  ")


def banner_text(options: launcher.ShellOptions) -> str:
    return banner(launcher.versions(), launcher.describe_target(options.settings),
                  banner_groups(), MAGICS)


def run_ipython(options: launcher.ShellOptions) -> int:
    """IPython with the shell loaded; Spark starts once IPython is up (so it does not slow
    the prompt down), then the init file and the code run."""
    from IPython.terminal.ipapp import TerminalIPythonApp
    from traitlets.config import Config

    config = Config()
    config.BaseIPythonApplication.profile = PROFILE
    config.TerminalIPythonApp.display_banner = False  # ours, without IPython's tips
    config.TerminalInteractiveShell.term_title_format = "pystream-shell: {cwd}"
    app = TerminalIPythonApp.instance(config=config)
    app.initialize([])
    load(app.shell, warm_up=options.code is None)  # a one-shot -c needs no warm-up
    if options.sql:
        from pyshell.sql_mode import use_sql_mode

        use_sql_mode(app.shell)
    if options.init_file:
        app.shell.safe_execfile(options.init_file, app.shell.user_ns)
    if options.code is not None:
        return 0 if app.shell.run_cell(options.code, store_history=False).success else 1
    if options.banner:
        print(SQL_BANNER if options.sql else banner_text(options))
    app.start()
    return 0
