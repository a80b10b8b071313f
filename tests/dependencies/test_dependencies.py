"""The environment's dependency methods, on the test run's local session (which is already
running when they are called): what they ship reaches Spark's Python workers."""
from __future__ import annotations

import os
import zipfile

import pytest

from pystream.common.typeinfo import Types
from pystream.datastream.functions import MapFunction
from pystream.errors import JobExecutionError, PystreamError
from pystream.session import get_session
from tests.conftest import is_batch
from tests.helpers import collect
from tests.remote.materials import make_wheel, probe_jar, python_wrapper_archive, write


def _zip(path, files: dict):
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return path


def imported(_):
    """Imports done inside a user function, in the worker."""
    import dep_dir_module
    import dep_file_module
    import dep_zip_module

    return dep_file_module.NAME + dep_dir_module.NAME + dep_zip_module.NAME


def test_add_python_file(env, tmp_path):
    """A .py file, a directory (its content) and a zip; imported in a map and in a keyed
    reduce (transformWithState in STREAMING mode)."""
    env.add_python_file(str(write(tmp_path / "dep_file_module.py", "NAME = 'file'\n")))
    write(tmp_path / "libs" / "dep_dir_module.py", "NAME = '+dir'\n")
    env.add_python_file(str(tmp_path / "libs"))
    env.add_python_file(str(_zip(tmp_path / "z.zip", {"dep_zip_module.py": "NAME = '+zip'\n"})))
    ds = (env.from_collection([1, 2, 3]).map(lambda x: (x % 2, imported(x)))
          .key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], imported(0) + "|" + b[1])))
    expected = [(0, "file+dir+zip"), (1, "file+dir+zip|file+dir+zip")]
    if not is_batch(env):  # rolling reduce
        expected.insert(1, (1, "file+dir+zip"))
    assert sorted(collect(ds)) == expected


def test_set_python_requirements(batch_env, tmp_path, monkeypatch):
    monkeypatch.setenv("PYSTREAM_CACHE_DIR", str(tmp_path / "cache"))
    make_wheel(tmp_path / "wheels", "dep_req_pkg", "1.0", "def triple(n):\n    return 3 * n\n")
    requirements = write(tmp_path / "requirements.txt", "dep_req_pkg==1.0\n")
    batch_env.set_python_requirements(str(requirements), str(tmp_path / "wheels"))
    ds = batch_env.from_collection([1, 2]).map(lambda n: __import__("dep_req_pkg").triple(n))
    assert collect(ds) == [3, 6]


def test_requirements_pip_cannot_install(batch_env, tmp_path, monkeypatch):
    monkeypatch.setenv("PYSTREAM_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "wheels").mkdir()
    requirements = write(tmp_path / "requirements.txt", "no_such_package==1.0\n")
    batch_env.set_python_requirements(str(requirements), str(tmp_path / "wheels"))
    batch_env.from_collection([1]).print()
    with pytest.raises(PystreamError) as error:
        batch_env.execute()
    lines = str(error.value).splitlines()
    assert (lines[0], lines[-1]) == (
        "set_python_requirements: pip could not install %s:" % requirements,
        "ERROR: No matching distribution found for no_such_package==1.0")


def test_add_python_archive(batch_env, tmp_path):
    """Archives are extracted in the workers' working directory, under the target directory
    or the archive's file name."""
    batch_env.add_python_archive(str(_zip(tmp_path / "a.zip", {"x/a.txt": "A"})), "res")
    batch_env.add_python_archive(str(_zip(tmp_path / "b.zip", {"b.txt": "B"})))

    def read(path):
        with open(path) as f:
            return f.read()

    ds = batch_env.from_collection(["res/x/a.txt", "b.zip/b.txt"]).map(read)
    assert collect(ds) == ["A", "B"]


class ReadCached(MapFunction):
    def open(self, runtime_context):
        cache = runtime_context.get_distributed_cache()
        with open(cache.get_file("words")) as f:
            self.words = f.read().split()
        tool = cache.get_file("tool")
        self.tool_is_executable = os.access(tool, os.X_OK)
        self.listing = sorted(os.listdir(cache.get_file("folder")))

    def map(self, value):
        return self.words[value], self.tool_is_executable, self.listing


def test_register_cached_file(env, tmp_path):
    env.register_cached_file(str(write(tmp_path / "words.txt", "zero one\n")), "words")
    env.register_cached_file(str(write(tmp_path / "tool.sh", "#!/bin/sh\n")), "tool", True)
    write(tmp_path / "folder" / "f.txt", "")
    env.register_cached_file(str(tmp_path / "folder"), "folder")
    ds = env.from_collection([0, 1]).map(ReadCached())
    assert collect(ds) == [("zero", True, ["f.txt"]), ("one", True, ["f.txt"])]


class ReadUnknown(MapFunction):
    def open(self, runtime_context):
        runtime_context.get_distributed_cache().get_file("nope")

    def map(self, value):
        return value


def test_an_unknown_cached_file_is_a_clear_error(batch_env):
    with pytest.raises(JobExecutionError) as error:
        collect(batch_env.from_collection([1]).map(ReadUnknown()))
    assert error.value.cause_message == (
        "No cached file named 'nope': register it with env.register_cached_file(path, 'nope') "
        "(registered: none)")


def test_set_python_executable(batch_env, tmp_path):
    """An interpreter inside an archive; the next job without it uses the session's Python."""
    batch_env.add_python_archive(str(python_wrapper_archive(tmp_path)), "pyenv")
    batch_env.set_python_executable("pyenv/bin/python")
    marker = Types.STRING()
    ds = batch_env.from_collection([0]).map(
        lambda _: os.environ.get("PYSTREAM_TEST_PYTHON", "-"), output_type=marker)
    first = collect(ds)
    again = batch_env.__class__.get_execution_environment()
    ds = again.from_collection([0]).map(lambda _: os.environ.get("PYSTREAM_TEST_PYTHON", "-"),
                                        output_type=marker)
    assert (first, collect(ds)) == (["wrapper"], ["-"])


def test_add_jars_and_classpaths(batch_env, tmp_path):
    """Classes of the jars are usable by Spark (here by SQL's reflect, in the executors)."""
    batch_env.add_jars(str(probe_jar(tmp_path / "a", "PystreamProbeJar")))
    batch_env.add_classpaths("file://%s" % probe_jar(tmp_path / "b", "PystreamProbeClasspath"))
    collect(batch_env.from_collection([0]))
    rows = get_session().sql(
        "SELECT reflect('PystreamProbeJar', 'hello', CAST(id AS STRING)) AS a, "
        "reflect('PystreamProbeClasspath', 'hello', CAST(id AS STRING)) AS b FROM range(2)")
    assert [tuple(r) for r in rows.collect()] == [
        ("PystreamProbeJar:0", "PystreamProbeClasspath:0"),
        ("PystreamProbeJar:1", "PystreamProbeClasspath:1")]


@pytest.mark.parametrize("method, args", [
    ("add_python_file", ("no/such/module.py",)),
    ("add_python_archive", ("no/such/archive.zip",)),
    ("set_python_requirements", ("no/such/requirements.txt",)),
    ("register_cached_file", ("no/such/file", "name")),
    ("add_jars", ("no/such.jar",)),
])
def test_a_missing_file_is_a_clear_error(streaming_env, method, args):
    with pytest.raises(FileNotFoundError) as error:
        getattr(streaming_env, method)(*args)
    assert str(error.value) == "%s: no such file or directory: %r" % (method, args[0])


@pytest.mark.parametrize("mode", ["batch", "streaming"])
def test_a_table_programs_functions_import_its_python_files_and_requirements(
        mode, tmp_path, monkeypatch):
    """``t_env.add_python_file`` and ``set_python_requirements``: a scalar function, a table
    function and an aggregate function (a pandas one in BATCH, the Python changelog in
    STREAMING) import them in the workers."""
    from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
    from pystream.table.expressions import col
    from pystream.table.udf import udaf, udf, udtf

    monkeypatch.setenv("PYSTREAM_CACHE_DIR", str(tmp_path / "cache"))
    settings = EnvironmentSettings.in_batch_mode() if mode == "batch" else \
        EnvironmentSettings.in_streaming_mode()
    t_env = TableEnvironment.create(settings)
    t_env.add_python_file(str(write(tmp_path / "tdep_module.py", "NAME = 'tdep'\n")))
    make_wheel(tmp_path / "wheels", "tdep_pkg", "1.0", "def triple(n):\n    return 3 * n\n")
    t_env.set_python_requirements(str(write(tmp_path / "req.txt", "tdep_pkg==1.0\n")),
                                  str(tmp_path / "wheels"))
    name = udf(lambda i: __import__("tdep_module").NAME + str(i), result_type="STRING")
    tripled = udtf(lambda i: [(__import__("tdep_pkg").triple(i),)], result_types=["BIGINT"])
    total = udaf(lambda s: int(s.sum()) + len(__import__("tdep_module").NAME),
                 result_type=DataTypes.BIGINT(), func_type="pandas")
    t = t_env.from_elements([(1,), (2,)], ["i"])
    assert sorted(tuple(r) for r in t.select(name(col("i"))).execute().collect()) == \
        [("tdep1",), ("tdep2",)]
    assert sorted(tuple(r) for r in t.join_lateral(tripled(col("i")).alias("t"))
                  .select(col("t")).execute().collect()) == [(3,), (6,)]
    assert [tuple(r) for r in t.select(total(col("i"))).execute().collect()][-1] == (7,)
