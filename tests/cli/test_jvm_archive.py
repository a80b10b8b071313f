"""The archive of Spark's classes that local driver JVMs start from (``pystream.jvm_archive``):
only an archive this user owns and nobody else can write is used, and a fresh ``pystream
run`` loads Spark's classes from it (the suite's run made it, ``tests/conftest.py``)."""
from __future__ import annotations

import os
from pathlib import Path

from pystream import jvm_archive, session
from tests.remote.materials import pystream_run, write


def _installation():
    return session.find_java(), session.jvm_spark_home()


def test_an_archive_is_used_only_when_it_is_this_users_and_nobody_elses_to_write(
        tmp_path, monkeypatch):
    monkeypatch.setenv("PYSTREAM_CACHE_DIR", str(tmp_path))
    java_home, spark_home = _installation()
    path = jvm_archive.archive_path(java_home, spark_home)
    assert jvm_archive.java_options(java_home, spark_home) == ""  # none made
    os.makedirs(os.path.dirname(path), mode=0o700)
    write(Path(path), "classes")
    os.chmod(path, 0o400)
    assert jvm_archive.java_options(java_home, spark_home) == (
        "-XX:SharedArchiveFile=%s -Xlog:cds=off -Xlog:cds+dynamic=off" % path)
    os.chmod(os.path.dirname(path), 0o777)  # others could swap it
    assert jvm_archive.usable_archive(java_home, spark_home) is None
    os.chmod(os.path.dirname(path), 0o700)
    os.chmod(path, 0o664)
    assert jvm_archive.usable_archive(java_home, spark_home) is None


def test_the_driver_gets_the_archive_through_spark_submit_opts_beside_the_users(
        tmp_path, monkeypatch):
    monkeypatch.setenv("PYSTREAM_CACHE_DIR", str(tmp_path))
    java_home, spark_home = _installation()
    path = jvm_archive.archive_path(java_home, spark_home)
    os.makedirs(os.path.dirname(path), mode=0o700)
    write(Path(path), "classes")
    monkeypatch.setenv("SPARK_SUBMIT_OPTS", "-Duser.option=1")
    with jvm_archive.used_by_the_driver(java_home, spark_home):
        assert os.environ["SPARK_SUBMIT_OPTS"] == (
            "-XX:SharedArchiveFile=%s -Xlog:cds=off -Xlog:cds+dynamic=off -Duser.option=1"
            % path)
    assert os.environ["SPARK_SUBMIT_OPTS"] == "-Duser.option=1"


def test_a_fresh_driver_loads_sparks_classes_from_the_archive(tmp_path):
    write(tmp_path / "start.py", "from pystream import session\n\nsession.get_session()\n")
    loaded = tmp_path / "loaded.log"
    done = pystream_run(["--master", "local[1]", "-py", "start.py"], cwd=tmp_path, env_extra={
        "SPARK_SUBMIT_OPTS": "-Xlog:class+load=info:file=%s" % loaded})
    assert done.returncode == 0, done.stderr
    from_archive = [line for line in loaded.read_text().splitlines()
                    if "org.apache.spark." in line and "shared objects file (top)" in line]
    assert len(from_archive) > 1000
