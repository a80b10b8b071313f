"""Loading the shell into an IPython session: names, magics, short errors, clean exit."""
from __future__ import annotations

import atexit
import sys

from pyshell import background, namespace
from pyshell.errors import StartupError, short_error
from pyshell.sql_complete import complete_in_call, complete_sql, sql_words
from pystream.errors import PystreamError

MAGICS = ("preview", "head", "watch", "chart", "jobs", "stop", "explain", "conf", "sql")


def load(ipython, warm_up: bool = True) -> background.SparkStarter:
    """Start Spark in the background and give ``ipython`` the shell's names and magics.

    Names the user already has are left alone. Exiting stops every query and the session.
    """
    from pyshell.magics import PystreamMagics

    starter = background.start(warm_up=warm_up)
    stand_in = namespace.SparkStandIn(starter.session)
    names = namespace.preload(stand_in)
    ipython.push({k: v for k, v in names.items() if k not in ipython.user_ns})
    starter.when_ready(lambda spark: _replace_stand_in(ipython, stand_in, spark))

    ipython.register_magics(PystreamMagics(ipython, starter))
    for kind in ("line", "cell"):
        ipython.magics_manager.register_alias("head", "preview", kind)
    ipython.set_custom_exc((PystreamError, StartupError), _short_traceback)
    watch = background.CellWatch(starter)
    ipython.events.register("pre_run_cell", watch.pre_run_cell)
    ipython.events.register("post_run_cell", watch.post_run_cell)
    ipython.set_hook("complete_command", _sql_line_completions(ipython), str_key="%sql")
    ipython.Completer.custom_matchers.append(_table_call_completions(ipython))
    _highlight_sql_magics(ipython)
    atexit.register(background.shutdown)
    return starter


def _sql_line_completions(ipython):
    """IPython's completer hook for ``%sql`` lines: SQL keywords and t_env's names."""
    def complete(_self, event):
        return complete_sql(event.text_until_cursor,
                            sql_words(ipython.user_ns.get("t_env")))
    return complete


def _table_call_completions(ipython):
    """An IPython matcher for the strings of Table API calls: table names in
    ``t_env.from_path('...``, SQL in ``t_env.sql_query('...`` (see ``complete_in_call``)."""
    from IPython.core.completer import SimpleCompletion, completion_matcher


    @completion_matcher(identifier="pystream.tables", api_version=2, priority=1)
    def complete(context):
        found = complete_in_call(context.text_until_cursor, ipython.user_ns.get("t_env"))
        return {"completions": [SimpleCompletion(text) for text in found],
                "suppress": bool(found)}
    return complete


def _highlight_sql_magics(ipython) -> None:
    """``%sql`` and ``%%sql`` input coloured by pygments' SQL lexer, the rest as IPython
    colours it (a terminal shell only)."""
    from prompt_toolkit.lexers import Lexer, PygmentsLexer
    from pygments.lexers.sql import SqlLexer

    sql = PygmentsLexer(SqlLexer)

    class SqlMagicLexer(Lexer):
        def __init__(self, python):
            self.python = python

        def lex_document(self, document):
            text = document.text.lstrip()
            lexer = sql if text.startswith(("%sql", "%%sql")) else self.python
            return lexer.lex_document(document)

    set_prompt_lexer(ipython, SqlMagicLexer)


def set_prompt_lexer(ipython, make) -> None:
    """The prompt's lexer: ``make(IPython's lexer)``. IPython passes its lexer anew to each
    prompt (``_extra_prompt_options``), so the options are wrapped (terminal shells only)."""
    options = getattr(ipython, "_extra_prompt_options", None)
    if options is None:
        return

    def with_lexer():
        chosen = options()
        chosen["lexer"] = make(chosen.get("lexer"))
        return chosen
    ipython._extra_prompt_options = with_lexer


def _replace_stand_in(ipython, stand_in, spark) -> None:
    if ipython.user_ns.get("spark") is stand_in:
        ipython.user_ns["spark"] = spark


def _short_traceback(shell, etype, value, tb, tb_offset=None):
    """pystream's errors in a cell: the short message only (``%tb`` shows the rest)."""
    sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb  # for %tb
    text = short_error(value)
    print(text, file=sys.stderr, flush=True)
    return [text]
