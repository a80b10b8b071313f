"""The shell's magics: thin wrappers that parse their arguments and call pure functions.

``%preview``/``%head``, ``%watch``, ``%chart``, ``%jobs``, ``%stop``, ``%explain``, ``%conf``,
``%sql``; ``%name?`` shows each one's help. A stream argument is any Python expression
giving a DataStream; in the cell form (``%%preview``) it is the cell's last expression.
Options may come before or after the expression: ``%preview ds.map(f) -n 5``.
"""
from __future__ import annotations

import ast
import sys
from typing import Dict, List, Optional, Tuple

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from pyshell import render
from pyshell.chart import ChartSpec, chart, live_chart_output
from pyshell.errors import StartupError, short_error
from pyshell.explain import graph_text, spark_plan
from pyshell.jobs import JobRegistry
from pyshell.launcher import describe_target
from pyshell.preview import Limits, compiled_frame, preview, preview_table, run_interruptible
from pyshell.progress import JobProgress
from pyshell.sql import run_statement, statements_of
from pyshell.watch import live_output, watch, watch_table
from pystream.common import Configuration
from pystream.datastream import DataStream
from pystream.datastream.planning import plan_of as stream_plan_of
from pystream.errors import PystreamError
from pystream.session import TIME_ZONE, set_session_time_zone, settings
from pystream.table import Table
from pystream.table.planning import plan_of as table_plan_of
from pystream.util.exceptions import SqlParserException

OPENING, CLOSING = "([{", ")]}"


# ---------------------------------------------------------------------------------------------
# pure helpers


def top_level_words(line: str) -> List[Tuple[int, int]]:
    """Spans of the words of ``line`` split at whitespace outside brackets and strings."""
    spans: List[Tuple[int, int]] = []
    depth, start, quote, i = 0, None, None, 0
    while i < len(line):
        ch = line[i]
        if start is None and not ch.isspace():
            start = i
        if quote is not None:
            if ch == "\\":
                i += 2
            elif line.startswith(quote, i):
                i, quote = i + len(quote), None
            else:
                i += 1
            continue
        if ch in "'\"":
            quote = line[i:i + 3] if line[i:i + 3] in ('"""', "'''") else ch
            i += len(quote)
            continue
        if ch in OPENING:
            depth += 1
        elif ch in CLOSING:
            depth = max(depth - 1, 0)
        elif ch.isspace() and depth == 0 and start is not None:
            spans.append((start, i))
            start = None
        i += 1
    if start is not None:
        spans.append((start, len(line)))
    return spans


def option_arity(parser) -> Dict[str, int]:
    """How many values each option of a magic_arguments parser takes (0 or 1)."""
    return {name: (0 if action.nargs == 0 else 1)
            for action in parser._actions for name in action.option_strings}


def split_line(line: str, arity: Dict[str, int]) -> Tuple[str, List[str]]:
    """Separate a magic's line into the Python expression and the option words.

    >>> split_line("ds.filter(lambda x: x > -1) -n 5", {"-n": 1})
    ('ds.filter(lambda x: x > -1)', ['-n', '5'])
    """
    words = [line[a:b] for a, b in top_level_words(line)]
    expression, options, k = [], [], 0
    while k < len(words):
        word = words[k]
        name = word.split("=", 1)[0]
        if word.startswith("-") and name in arity:
            options.append(word)
            if arity[name] and "=" not in word and k + 1 < len(words):
                options.append(words[k + 1])
                k += 1
        elif word[:2] in arity and arity[word[:2]] and not word.startswith("--"):
            options.append(word)  # -n5
        else:
            expression.append(word)
        k += 1
    return " ".join(expression), options


def parse_setting(text: str) -> Tuple[Optional[str], Optional[str]]:
    """``%conf``'s argument: (None, None), (key, None) to read, (key, value) to set."""
    text = text.strip()
    if not text:
        return None, None
    if "=" in text:
        key, value = text.split("=", 1)
        return key.strip(), value.strip()
    return text, None


def settings_table(title: str, values: Dict[str, str]) -> str:
    if not values:
        return "%s: (none set)" % title
    return "%s:\n%s" % (title, render.table(["key", "value"], sorted(values.items()), limit=80))


# ---------------------------------------------------------------------------------------------
# the magics


def _stream_argument(fn):
    return argument("stream", nargs="*",
                    help="a DataStream expression (cell form: the cell's last expression)")(fn)


def _note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _print_now(line: str) -> None:
    print(line, flush=True)


def _stopping(interrupts: int) -> None:
    if interrupts > 1:
        print("stopping the query…", file=sys.stderr, flush=True)


@magics_class
class PystreamMagics(Magics):
    """pystream-shell's magics (``%load_ext pyshell`` registers them)."""

    def __init__(self, shell, starter):
        super().__init__(shell)
        self.starter = starter
        self.registry = JobRegistry()

    # -- helpers

    def _parse(self, magic, line: str):
        parser = magic.parser
        expression, options = split_line(line, option_arity(parser))
        return parser.parse_args(options), expression

    def _stream(self, expression: str, cell: Optional[str]):
        if cell is not None and cell.strip():
            value = self._cell_value(cell)
            what = "the cell's last expression"
        elif expression:
            try:
                value = self.shell.ev(expression)
            except Exception as e:  # noqa: BLE001 - the user's expression, shown briefly
                raise UsageError("%s: %s (evaluating %s)" % (type(e).__name__, e,
                                                            expression)) from None
            what = expression
        else:
            raise UsageError("give a DataStream, e.g. %preview ds -n 5 (see %preview?)")

        if not isinstance(value, (DataStream, Table)):
            raise UsageError("%s is a %s, not a DataStream or a Table" % (
                what, type(value).__name__))
        return value

    def _cell_value(self, cell: str):
        source = self.shell.transform_cell(cell)
        tree = ast.parse(source)
        if not tree.body or not isinstance(tree.body[-1], ast.Expr):
            raise UsageError("the cell must end with an expression: the DataStream")
        filename = self.shell.compile.cache(source)
        namespace = (self.shell.user_global_ns, self.shell.user_ns)
        exec(compile(ast.Module(tree.body[:-1], type_ignores=[]), filename, "exec"), *namespace)
        return eval(compile(ast.Expression(tree.body[-1].value), filename, "eval"), *namespace)

    def _run(self, task):
        """Run ``task(cancel)`` so that Ctrl-C stops it; show user errors briefly."""
        try:
            return run_interruptible(task, on_interrupt=_stopping)
        except (PystreamError, StartupError) as e:
            print(short_error(e), file=sys.stderr, flush=True)
            return None

    def _in_notebook(self) -> bool:
        """Whether the shell is a Jupyter kernel's (results are HTML there)."""
        return getattr(self.shell, "kernel", None) is not None

    def _session(self):
        try:
            return self.starter.session()
        except StartupError as e:
            raise UsageError(str(e)) from None
        except KeyboardInterrupt:
            raise UsageError("interrupted (Spark goes on starting in the background)") from None

    # -- %preview

    @magic_arguments()
    @argument("-n", "--rows", dest="n", type=int, default=10, help="rows to show (10)")
    @argument("--timeout", type=float, default=10.0,
              help="stop after this many seconds of streaming (10; Spark's start-up of the "
                   "query does not count)")
    @argument("--idle", type=float, default=5.0,
              help="stop after this many seconds without new rows (5; 0: never)")
    @argument("-o", "--output", action="store_true", help="return the PreviewResult")
    @argument("--mode", choices=["changelog", "table"], default="changelog",
              help="an updating Table: its changes with their op (changelog), or the rows "
                   "they leave (table)")
    @_stream_argument
    @line_cell_magic
    def preview(self, line: str, cell: Optional[str] = None):
        """Show the leading rows of a DataStream as a table.

        A bounded stream is collected with a bounded query; an unbounded one runs a
        streaming query until N rows, the timeout, or --idle seconds without new rows. The
        query is always stopped (also on Ctrl-C and on errors); the footer says why.
        """
        args, expression = self._parse(self.preview, line)
        if args.n < 1 or args.timeout <= 0:
            raise UsageError("-n and --timeout must be positive")
        ds = self._stream(expression, cell)
        limits = Limits(n=args.n, timeout=args.timeout, idle=args.idle or None)
        spark = self._session()
        self.starter.make_way()
        with JobProgress(spark, "preview"):
            if isinstance(ds, Table):
                result = self._run(lambda cancel: preview_table(ds, limits, cancel))
                if result is not None and args.mode == "table":
                    result = result.current_rows()
            else:
                result = self._run(lambda cancel: preview(ds, limits, cancel, note=_note))
        if result is None:
            return None
        from IPython.display import display

        display(result)
        return result if args.output else None

    # -- %watch

    @magic_arguments()
    @argument("-n", "--rows", dest="n", type=int, default=10, help="latest rows to show (10)")
    @argument("--refresh", type=float, default=0.5, help="seconds between redraws (0.5)")
    @argument("--mode", choices=["changelog", "table"], default="changelog",
              help="the latest rows (a Table's changes with their op), or a table: a "
                   "DataStream's latest record per key, a Table's current rows")
    @_stream_argument
    @line_cell_magic
    def watch(self, line: str, cell: Optional[str] = None):
        """Watch a DataStream, or a Table over an unbounded source, live: its latest rows
        (a Table's with their op), rows/s and watermark, until Ctrl-C (which stops the query
        and returns to the prompt).

        --mode table keeps one row per key, updated in place: a DataStream's latest record
        per key (a KeyedStream's key, the key of a rolling reduce or sum, else the first
        field), an updating Table's current rows."""
        args, expression = self._parse(self.watch, line)
        ds = self._stream(expression, cell)
        follow = watch if hasattr(ds, "key_by") else watch_table  # a DataStream or a Table
        self._session()
        self.starter.make_way()
        out = live_output()
        try:
            closing = self._run(lambda cancel: follow(ds, args.n, cancel, out.show,
                                                      args.refresh, args.mode))
        finally:
            out.close()
        if closing:
            print(closing)

    # -- %chart

    @magic_arguments()
    @argument("-x", dest="x", default=None,
              help="the field along x (default: a windowed result's window end, else the "
                   "rows' order)")
    @argument("-y", dest="y", default=None,
              help="the field to plot (default: the last field holding numbers)")
    @argument("--by", default=None, help="one series per value of this field")
    @argument("--kind", default="line", choices=["line", "bar", "scatter"],
              help="line (default), bar or scatter")
    @argument("--last", type=int, default=50, help="points each series keeps (50)")
    @argument("-n", "--rows", dest="n", type=int, default=None,
              help="stop after this many rows")
    @argument("--timeout", type=float, default=None, help="stop after this many seconds")
    @argument("--refresh", type=float, default=0.5, help="seconds between redraws (0.5)")
    @argument("--sql", action="store_true",
              help="the line (or cell) is a Flink SQL query, run in t_env")
    @_stream_argument
    @line_cell_magic
    def chart(self, line: str, cell: Optional[str] = None):
        """A live chart of a DataStream, a Table or (--sql) a query, redrawn as rows arrive
        until the stream ends, -n rows, --timeout or Ctrl-C (which stops the query). A
        windowed result plots by its window end; the caption shows the watermark. In a
        terminal it is drawn in text, in a notebook as an image updated in place."""
        args, expression = self._parse(self.chart, line)
        if args.sql:
            query = cell if cell is not None else expression
            t_env = self.shell.user_ns.get("t_env")
            if not query.strip() or t_env is None:
                raise UsageError("give a query: %chart --sql SELECT ... (t_env runs it)")
            self._session()
            source = t_env.sql_query(query)
        else:
            source = self._stream(expression, cell)
        spec = ChartSpec(kind=args.kind, x=args.x, y=args.y, by=args.by, last=args.last)
        self._session()
        self.starter.make_way()
        out = live_chart_output()
        try:
            closing = self._run(lambda cancel: chart(source, spec, cancel, out.show,
                                                     args.refresh, args.n, args.timeout))
        finally:
            out.close()
        if closing:
            print(closing)

    # -- %jobs and %stop

    @magic_arguments()
    @argument("-a", "--all", action="store_true",
              help="also the latest jobs that ended, with their final metrics")
    @line_magic
    def jobs(self, line: str = ""):
        """The running pystream jobs and streaming queries: id, name, age, rows, rate, status,
        and the metrics of their functions. Stop one with %stop ID (or %stop all)."""
        args = parse_argstring(self.jobs, line)
        entries = self.registry.entries(ended=args.all)
        print(render.jobs_table([e.as_row() for e in entries]))

    @magic_arguments()
    @argument("which", help="a job's ID from %%jobs, its name, a job id prefix, or 'all'")
    @line_magic
    def stop(self, line: str):
        """Stop a running job or query (see %jobs), or all of them."""
        args = parse_argstring(self.stop, line)
        found = self.registry.find(args.which)
        if not found:
            print("Nothing running matches %r (see %%jobs)." % args.which)
        for entry in found:
            entry.stop()
            print("stopped %d: %s" % (entry.id, entry.name))

    # -- %explain

    @magic_arguments()
    @argument("--mode", default="simple",
              choices=["simple", "extended", "formatted", "codegen", "cost"],
              help="Spark's explain mode (simple)")
    @argument("--graph", action="store_true", help="only the pystream plan (no Spark needed)")
    @_stream_argument
    @line_cell_magic
    def explain(self, line: str, cell: Optional[str] = None):
        """Show the plan of a DataStream or a Table (mode, engine, stages, shuffles) and
        Spark's plan for it."""
        args, expression = self._parse(self.explain, line)
        value = self._stream(expression, cell)
        planned = table_plan_of(value) if isinstance(value, Table) else stream_plan_of(value)
        print(graph_text(planned))
        if args.graph:
            return
        self._session()

        def plan(cancel):
            with compiled_frame(planned) as df:
                return spark_plan(df, args.mode)

        text = self._run(plan)
        if text:
            print("\nSpark plan (%s):\n%s" % (args.mode, text))

    # -- %sql

    @magic_arguments()
    @argument("--mode", default="tableau", choices=["tableau", "changelog", "table"],
              help="tableau: PyFlink's print() layout; changelog: one line per change; "
                   "table: the current rows, updated in place")
    @argument("-n", "--rows", dest="n", type=int, default=None,
              help="stop a query after this many rows (unbounded queries: 10)")
    @argument("--timeout", type=float, default=30.0,
              help="stop a query over an unbounded table after this many seconds (30)")
    @argument("-o", "--output", default=None,
              help="store the last result in this name: a pandas DataFrame of a bounded "
                   "query's final rows, of the changes seen of an unbounded one")
    @argument("--batch", action="store_true", help="run in bt_env (BATCH) instead of t_env")
    @line_cell_magic
    def sql(self, line: str, cell: Optional[str] = None):
        """Run Flink SQL in t_env: DDL prints OK, SHOW/DESCRIBE their table, a query its rows
        (PyFlink's tableau layout). A query over an unbounded table shows its rows as they
        arrive until -n rows, --timeout or Ctrl-C, and its job is stopped then.
        {python_expr} is replaced by its value."""
        args, statement = self._parse(self.sql, line)
        text = cell if cell is not None else statement
        if not text.strip():
            raise UsageError("give a statement, e.g. %sql SHOW TABLES (see %sql?)")
        t_env = self.shell.user_ns.get("bt_env" if args.batch else "t_env")
        try:
            statements = statements_of(text, self.shell.user_ns)
        except SqlParserException as e:
            print(str(e), file=sys.stderr)
            return None
        spark = self._session()
        frame = None
        for statement in statements:
            with JobProgress(spark, "sql"):
                shown = self._run(lambda cancel, s=statement: run_statement(
                    t_env, s, args.mode, args.n, emit=_print_now, cancel=cancel,
                    timeout=args.timeout))
            if shown is None:
                return None
            lines, frame = shown
            if lines and frame is not None and args.mode == "tableau" and self._in_notebook():
                from IPython.display import HTML, display

                display(HTML(render.html_table(list(frame.columns), frame.values.tolist())))
                print(lines[-1])  # "N rows in set"
            elif lines:
                print("\n".join(lines))
        if args.output:
            self.shell.user_ns[args.output] = frame
        return None

    # -- %conf

    @magic_arguments()
    @argument("setting", nargs="?", default="",
              help="KEY to read, KEY=VALUE to set; nothing lists the settings. spark.* keys "
                   "are the Spark session's, other keys the configuration of `env`")
    @line_magic
    def conf(self, line: str):
        """Read or set the session's configuration (spark.*) or env's (other keys)."""
        key, value = parse_setting(line)
        env = self.shell.user_ns.get("env")
        if key is None:
            self._list_settings(env)
        elif key.startswith("spark."):
            spark = self._session()
            if value is None:
                print("%s=%s" % (key, spark.conf.get(key, None)))
                return
            try:
                if key == TIME_ZONE:  # table jobs' default zone too, not only until one runs
                    set_session_time_zone(value)
                else:
                    spark.conf.set(key, value)
            except Exception as e:  # noqa: BLE001 - Spark refuses static settings
                first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                print("Cannot set %s now: %s\n  Static settings go on the command line: "
                      "pystream-shell --conf %s=%s" % (key, first, key, value), file=sys.stderr)
                return
            print("%s=%s" % (key, value))
        elif env is None:
            raise UsageError("no `env` in the namespace to configure")
        elif value is None:
            print("%s=%s" % (key, env.get_configuration().get_string(key, None)))
        else:
            try:
                env.configure(Configuration().set_string(key, value))
            except (KeyError, ValueError) as e:
                raise UsageError("bad value for %s: %s" % (key, e)) from None
            print("%s=%s" % (key, value))

    def _list_settings(self, env) -> None:
        s = settings()
        print("Session: %s · app name %s" % (describe_target(s), s.app_name))
        if env is not None:
            print(settings_table("env configuration", env.get_configuration().to_dict()))
        spark = self._session()
        print(settings_table("Spark configuration", dict(spark.conf.getAll)))
