"""pystream: PyFlink's Python DataStream API, running on Apache Spark."""

__version__ = "0.1.0"
