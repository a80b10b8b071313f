"""Spark's own ``spark-submit``, run as a cluster's user runs it, and a Python for a worker
that is not the driver's: a virtual environment with Spark's Python packages and no pystream
(the driver ships its own to the executors)."""
from __future__ import annotations

import glob
import os
import site
import subprocess
import sys
from typing import List

from pystream.session import find_java
from tests.servers import spark_home

# What Spark's launcher gives a client-mode driver's JVM (JavaModuleOptions) and a
# standalone worker does not give a cluster-mode one: Arrow and Netty need them.
MODULE_OPTIONS = " ".join([
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
])


def spark_submit(args: List[str], cwd: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """``$SPARK_HOME/bin/spark-submit ARGS`` with an empty Spark configuration directory."""
    conf_dir = os.path.join(cwd, "spark-conf")
    os.makedirs(conf_dir, exist_ok=True)
    env = dict(os.environ, SPARK_HOME=spark_home(), JAVA_HOME=find_java(),
               SPARK_CONF_DIR=conf_dir, SPARK_LOCAL_IP="127.0.0.1")
    for name in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "PYSTREAM_MASTER", "PYTHONPATH"):
        env.pop(name, None)  # the submit options say which Python runs where
    return subprocess.run([os.path.join(spark_home(), "bin", "spark-submit"), *args],
                          cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout)


def spark_core_jar() -> str:
    """A jar every node of the test cluster has (cluster mode needs a jar to submit)."""
    return glob.glob(os.path.join(spark_home(), "jars", "spark-core_*.jar"))[0]


def worker_virtualenv(directory: str) -> str:
    """A virtual environment whose Python imports pyspark, pyarrow and pandas from this one's
    site-packages (a .pth line: the editable pystream install there is not loaded) and has no
    pystream; its ``python``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", directory], check=True)
    python = os.path.join(directory, "bin", "python")
    packages = subprocess.run([python, "-c", "import site; print(site.getsitepackages()[0])"],
                              capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(packages, "driver-packages.pth"), "w") as f:
        f.write("\n".join(site.getsitepackages()) + "\n")
    probe = subprocess.run([python, "-c", "import pyspark, pyarrow, pandas\n"
                            "try:\n import pystream\nexcept ImportError:\n print('no pystream')"],
                           capture_output=True, text=True, cwd=directory)
    assert probe.stdout.strip() == "no pystream", probe.stdout + probe.stderr
    return python
