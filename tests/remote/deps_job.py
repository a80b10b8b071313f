"""The pystream program the deployment tests run with ``pystream run``: on a local session, a
standalone cluster and a Spark Connect server. A map and a keyed reduce, collected in both
runtime modes, whose functions use every kind of shipped dependency:

* ``greeting``: a module given with ``-pyfs`` (imported inside the functions, also in the
  keyed operator, which runs on transformWithState in STREAMING mode);
* ``shout``: in a directory added with ``env.add_python_file`` (argument 1);
* ``tinydep``: a package installed from ``-pyreq``;
* ``data/prefix.txt``: in an archive given with ``-pyarch ...#data``, opened by relative path;
* ``suffix``: a file registered with ``env.register_cached_file`` (argument 2);
* optional jars (arguments 3 and 4) given to ``env.add_jars`` and ``env.add_classpaths``,
  whose classes Spark SQL then calls.

Prints one line: ``RESULT {"STREAMING": [...], "BATCH": [...], "python": ..., "jars": ...}``.
"""
import json
import os
import sys

from pystream.common.typeinfo import Types
from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pystream.datastream.functions import MapFunction, ReduceFunction, RuntimeContext

PAIR = Types.TUPLE([Types.STRING(), Types.INT()])


class Decorate(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        with open(runtime_context.get_distributed_cache().get_file("suffix")) as f:
            self.suffix = f.read().strip()
        with open(os.path.join("data", "prefix.txt")) as f:
            self.prefix = f.read().strip()

    def map(self, value):
        import greeting
        import shout
        import tinydep

        word, n = value
        return self.prefix + shout.loud(greeting.greet(word)) + self.suffix, tinydep.double(n)


class Add(ReduceFunction):
    def reduce(self, a, b):
        import greeting

        return a[0], greeting.add(a[1], b[1])


def run(mode: RuntimeExecutionMode, lib_dir: str, suffix_file: str, jars: list) -> list:
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.add_python_file(lib_dir)
    env.register_cached_file(suffix_file, "suffix")
    if jars:
        env.add_jars(jars[0])
        env.add_classpaths("file://" + jars[1])
    ds = env.from_collection([("a", 1), ("b", 2), ("a", 3)], type_info=PAIR)
    ds = ds.map(Decorate(), output_type=PAIR).key_by(lambda t: t[0]).reduce(Add())
    with ds.execute_and_collect() as results:
        return sorted(results)


def workers_python() -> list:
    """What the workers' Python says it is (``-pyexec`` of the tests sets the variable)."""
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_collection([0]).map(lambda _: os.environ.get("PYSTREAM_TEST_PYTHON", "-"))
    with ds.execute_and_collect() as results:
        return list(results)


def call_jars(jars: list) -> list:
    """The probe classes of the jars, called by Spark SQL in the executors."""
    from pystream.session import get_session

    names = [os.path.splitext(os.path.basename(jar))[0] for jar in jars]
    calls = ", ".join("reflect('%s', 'hello', CAST(id AS STRING))" % name for name in names)
    return [list(row) for row in get_session().sql("SELECT %s FROM range(2)" % calls).collect()]


if __name__ == "__main__":
    jars = sys.argv[3:5]
    result = {mode.name: run(mode, sys.argv[1], sys.argv[2], jars)
              for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH)}
    result["python"] = workers_python()
    if jars:
        result["jars"] = call_jars(jars)
    print("RESULT " + json.dumps(result))
