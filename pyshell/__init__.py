"""pystream-shell: an IPython REPL for writing, running and debugging pystream jobs.

In plain IPython or Jupyter, ``%load_ext pyshell`` starts Spark in the background and adds
the shell's names (``env``, ``spark``, pystream's API) and magics (``%preview``, ``%watch``,
``%jobs``, ``%stop``, ``%explain``, ``%conf``).
"""


def load_ipython_extension(ipython) -> None:
    from pyshell.extension import load

    load(ipython)
