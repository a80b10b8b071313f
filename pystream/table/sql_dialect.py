"""``SqlDialect``: the SQL a TableEnvironment parses (pystream parses Flink's)."""

__all__ = ["SqlDialect"]


class SqlDialect:
    """The SQL compatibility modes: ``DEFAULT`` is Flink SQL; ``HIVE``, Hive's grammar, which
    pystream does not parse."""

    DEFAULT = 0
    HIVE = 1
