"""pystream-shell: an IPython REPL for writing, running and debugging pystream jobs."""


def load_ipython_extension(ipython):  # pragma: no cover - filled in by the shell
    from pyshell.namespace import preload

    ipython.push(preload())
