"""``pystream-shell --sql``: a prompt where every statement is Flink SQL, as in Flink's SQL
client. A statement ends with ``;`` (it may span lines); lines starting with ``%`` or ``!``
are IPython's; ``QUIT;`` or ``EXIT;`` leaves. Each statement runs as ``%%sql`` does."""
from __future__ import annotations

from typing import List

from IPython.terminal.prompts import Prompts, Token

from pyshell.extension import set_prompt_lexer
from pyshell.sql_complete import complete_sql, sql_words

__all__ = ["use_sql_mode", "as_sql_cell", "is_complete"]

QUIT = {"quit", "exit", "quit;", "exit;"}


def as_sql_cell(lines: List[str]) -> List[str]:
    """An input cell as IPython should run it: SQL becomes a ``%%sql`` cell; magics, shell
    escapes and QUIT stay as they are (QUIT as IPython's ``exit``)."""
    text = "".join(lines).strip()
    if not text or text.startswith(("%", "!")):
        return lines
    if text.lower() in QUIT:
        return ["exit\n"]
    return ["%%sql\n"] + lines


def is_complete(text: str) -> bool:
    """Whether the SQL typed so far is a whole statement (it ends with ``;``), or something
    that runs at once (empty, a magic, a shell escape, QUIT)."""
    stripped = text.strip()
    return not stripped or stripped.startswith(("%", "!")) or stripped.endswith(";") or \
        stripped.lower() in QUIT


class SqlPrompts(Prompts):
    """``Flink SQL>`` and its continuation, as Flink's SQL client shows them."""

    def in_prompt_tokens(self):
        return [(Token.Prompt, "Flink SQL> ")]

    def continuation_prompt_tokens(self, width=None, *, lineno=None, wrap_count=None):
        return [(Token.Prompt, "> ".rjust(len("Flink SQL> ")))]

    def out_prompt_tokens(self):
        return []


def use_sql_mode(shell) -> None:
    """Make ``shell`` (an IPython TerminalInteractiveShell) take Flink SQL statements."""
    shell.input_transformers_cleanup.append(as_sql_cell)  # before %%sql is recognised
    shell.prompts = SqlPrompts(shell)
    manager = shell.input_transformer_manager
    python_check = manager.check_complete

    def check_complete(cell: str):
        if cell.strip().startswith(("%", "!")):
            return python_check(cell)
        return ("complete", None) if is_complete(cell) else ("incomplete", 0)

    manager.check_complete = check_complete
    shell.Completer.custom_matchers.append(_sql_matcher(shell))
    _highlight_sql(shell)


def _sql_matcher(shell):
    """Completions of SQL words at the prompt (each line is SQL)."""
    def matcher(text: str):
        return complete_sql(text, sql_words(shell.user_ns.get("t_env")))
    return matcher


def _highlight_sql(shell) -> None:
    """The prompt's input coloured by pygments' SQL lexer (a terminal shell only)."""
    from prompt_toolkit.lexers import PygmentsLexer
    from pygments.lexers.sql import SqlLexer


    set_prompt_lexer(shell, lambda _ipython_lexer: PygmentsLexer(SqlLexer))
