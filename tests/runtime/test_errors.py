"""Spark's own errors, shortened: the head of the message and the Python exception its
worker traceback ends with (what the user needs), never the JVM's frames."""
from __future__ import annotations

from pystream.runtime.errors import spark_error


def test_a_long_worker_traceback_keeps_its_exception():
    frames = ['  File "/x/stage.py", line %d, in f\n    call()' % i for i in range(10)]
    text = "\n".join(["An exception was thrown from the Python worker:",
                      "Traceback (most recent call last):", *frames,
                      "AttributeError: Can't get attribute 'Order' on <module '__main__'>",
                      "\tat org.apache.spark.api.python.BasePythonRunner.read(X.scala:1)"])
    error = spark_error(RuntimeError(text))
    lines = str(error).splitlines()
    assert lines[0] == "Spark failed: An exception was thrown from the Python worker:"
    assert lines[-2:] == ["  ...",
                          "AttributeError: Can't get attribute 'Order' on <module '__main__'>"]
    assert not any("org.apache" in line for line in lines)
