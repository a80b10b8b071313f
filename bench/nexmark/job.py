"""One Nexmark query as a whole STREAMING job, on pystream (or, renamed, on PyFlink).

    python bench/nexmark/job.py q5 /tmp/events.json            # into its blackhole sink
    python bench/nexmark/job.py q5 /tmp/events.json --print    # its rows, parallelism 1

The SQL is nexmark/nexmark's as written (``queries/``): the source DDL (``ddl_gen.sql``), its
three views and the query with its sink. Two things are changed, the same for both
systems: the source's ``WITH`` clause reads the JSON lines of ``bench.nexmark.events``
(the ``nexmark`` connector is a Java jar neither system has), and q14's ``count_char``,
a Java class, is the same function in Python. With ``--print`` every blackhole sink is a
``print`` sink and q10's files are printed after the job (sorted, with their partition);
otherwise the job prints ``nexmark <query> seconds=<s>``. ``--quote-datetime`` writes
``A.dateTime`` as ``A.`dateTime` `` (PyFlink's parser refuses the former, in q23);
``--batch`` runs the query in BATCH mode (the answer of a query PyFlink refuses in
STREAMING mode: q6_corrected).
"""
import os
import re
import sys
import tempfile
import time

from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
from pystream.table.udf import udf

QUERIES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "queries")


def statements(name):
    """The statements of ``queries/<name>.sql``, comments removed."""
    with open(os.path.join(QUERIES, name + ".sql")) as f:
        text = re.sub(r"--[^\n]*", "", f.read())
    return [s.strip() for s in text.split(";") if s.strip()]


def source_ddl(events):
    ddl, = statements("ddl_gen")
    options = "'connector' = 'filesystem', 'path' = '%s', 'format' = 'json'" % events
    return re.sub(r"WITH \((.|\n)*\)\s*$", "WITH (%s)" % options, ddl)


@udf(result_type=DataTypes.BIGINT())
def count_char(text, char):
    return text.count(char)


def run(query, events, printed, quote_datetime=False, batch=False):
    started = time.perf_counter()
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode() if batch else
                                    EnvironmentSettings.in_streaming_mode())
    if printed:
        t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql(source_ddl(events))
    for view in statements("ddl_views"):
        t_env.execute_sql(view.replace("${NEXMARK_TABLE}", "datagen"))
    output = tempfile.mkdtemp()
    for statement in statements(query):
        if statement.startswith("CREATE FUNCTION count_char"):
            t_env.create_temporary_function("count_char", count_char)
            continue
        statement = statement.replace("${NEXMARK_DIR}/data/output/${SUBMIT_TIME}", output)
        if printed:
            statement = statement.replace("'connector' = 'blackhole'", "'connector' = 'print'")
        if quote_datetime:
            statement = re.sub(r"\.dateTime\b", ".`dateTime`", statement)
        result = t_env.execute_sql(statement)
    result.wait()
    if printed:
        print_files(output)
    else:
        print("nexmark %s seconds=%.1f" % (query, time.perf_counter() - started))


def print_files(directory):
    """The rows of the files a filesystem sink wrote under ``directory``, sorted, each with
    its partition path."""
    rows = []
    for folder, _, files in os.walk(directory):
        for name in files:
            if name.startswith((".", "_")):
                continue
            partition = os.path.relpath(folder, directory)
            with open(os.path.join(folder, name)) as f:
                rows.extend("%s %s" % (partition, line.rstrip("\n")) for line in f)
    for row in sorted(rows):
        print(row)


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2], "--print" in sys.argv[3:], "--quote-datetime" in sys.argv[3:],
        "--batch" in sys.argv[3:])
