"""A class-data-sharing archive of Spark's classes for the JVMs pystream starts on this machine.

A fresh Spark driver loads and verifies some 15,000 classes from Spark's jars before its
first job; that is most of the seconds a fresh ``pystream run`` spends before the program's
work begins. Java's application class-data sharing (``-XX:SharedArchiveFile``) maps the
classes a previous JVM loaded from an archive instead: a local session then starts in about
half the time (``bench/whole_job.py``). The archive belongs to one Java and one Spark
installation; a JVM that finds it does not match (another Java, changed jars) ignores it and
starts as without it.

The archive is made once per machine and installation by ``pystream jvm-archive`` (the
bin/ scripts' first run does it): a fresh process runs a few small jobs
(``pystream.jvm_workload``) in a JVM that writes the classes it loaded at its exit. It lives
in pystream's cache directory (readable by its owner only); a JVM is only pointed at an
archive this user owns and nobody else can write.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import subprocess
import sys
import tempfile
from typing import Dict, Iterator, List, Mapping, Optional

from pystream.cache import cache_dir

# the JVM's own notes about the archive (one that does not match, or a class it could not
# archive) are not the program's output
QUIET = "-Xlog:cds=off -Xlog:cds+dynamic=off"
WORKLOAD = "pystream.jvm_workload"
BUILD_TIMEOUT = 600.0


def archive_path(java_home: str, spark_home: str) -> str:
    """Where the archive of this Java and this Spark installation lives (made or not)."""
    return os.path.join(cache_dir(), "jvm", "spark-classes-%s.jsa"
                        % _installation_key(java_home, spark_home))


def _installation_key(java_home: str, spark_home: str) -> str:
    """A digest of what the archived classes come from: the Java (its module image) and
    Spark's jars (names, sizes, times), each by its real path."""
    digest = hashlib.sha256()
    modules = os.path.join(java_home, "lib", "modules")
    for path in (os.path.realpath(java_home), os.path.realpath(spark_home)):
        digest.update(path.encode() + b"\0")
    jars = os.path.join(spark_home, "jars")
    entries = [modules] + [os.path.join(jars, n) for n in sorted(_listing(jars))]
    for path in entries:
        try:
            info = os.stat(path)
        except OSError:
            continue
        digest.update(b"%s %d %d\0" % (os.path.basename(path).encode(), info.st_size,
                                       info.st_mtime_ns))
    return digest.hexdigest()[:16]


def _listing(directory: str) -> List[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def usable_archive(java_home: str, spark_home: str) -> Optional[str]:
    """The archive of this installation, if made, owned by this user and writable by nobody
    else (nor is its directory): a JVM runs the classes it holds."""
    path = archive_path(java_home, spark_home)
    for checked in (path, os.path.dirname(path)):
        try:
            info = os.stat(checked)
        except OSError:
            return None
        if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return None
    return path


def java_options(java_home: str, spark_home: str) -> str:
    """JVM options that start a JVM from the archive ('' when there is none)."""
    path = usable_archive(java_home, spark_home)
    return "-XX:SharedArchiveFile=%s %s" % (path, QUIET) if path else ""


def driver_environment(environ: Mapping[str, str], java_home: str,
                       spark_home: str) -> Dict[str, str]:
    """``environ`` with the options that let a Spark driver JVM start from the archive, in
    ``SPARK_SUBMIT_OPTS``: only the driver's command line reads it (not Spark's launcher, nor
    spark.driver.extraJavaOptions a user or spark-defaults.conf set)."""
    environ = dict(environ)
    options = java_options(java_home, spark_home)
    if options:
        environ["SPARK_SUBMIT_OPTS"] = " ".join(
            filter(None, (options, environ.get("SPARK_SUBMIT_OPTS"))))
    return environ


@contextlib.contextmanager
def used_by_the_driver(java_home: str, spark_home: str) -> Iterator[None]:
    """While this process launches a Spark driver JVM (``spark-submit``, which reads this
    process's environment), let it start from the archive."""
    before = dict(os.environ)
    os.environ.update(driver_environment(before, java_home, spark_home))
    try:
        yield
    finally:
        if "SPARK_SUBMIT_OPTS" in before:
            os.environ["SPARK_SUBMIT_OPTS"] = before["SPARK_SUBMIT_OPTS"]
        else:
            os.environ.pop("SPARK_SUBMIT_OPTS", None)


def build_archive(java_home: str, spark_home: str, python: str = sys.executable) -> str:
    """Make the archive (again): a fresh ``python`` runs the workload in a driver JVM that
    writes the classes it loaded when it exits; the archive is written under a temporary
    name and renamed into place once complete. Returns its path."""
    path = archive_path(java_home, spark_home)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd, building = tempfile.mkstemp(prefix=".building-", suffix=".jsa",
                                    dir=os.path.dirname(path))
    os.close(fd)
    os.unlink(building)  # the JVM writes it
    env = dict(os.environ)
    env["SPARK_SUBMIT_OPTS"] = "-XX:ArchiveClassesAtExit=%s %s" % (building, QUIET)
    env["PYSTREAM_SERVER"] = "off"  # its own JVM, not a running server's
    env.pop("JAVA_TOOL_OPTIONS", None)  # the archive is of a JVM as users start it
    try:
        done = subprocess.run([python, "-m", WORKLOAD], env=env, timeout=BUILD_TIMEOUT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0 or not os.path.exists(building):
            raise RuntimeError("could not make the JVM archive (%s): %s" % (
                WORKLOAD, done.stderr.strip()[-2000:]))
        os.chmod(building, 0o400)
        os.replace(building, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(building)
    return path
