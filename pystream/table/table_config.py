"""``TableConfig``: the options of a TableEnvironment, by Flink's keys."""
from __future__ import annotations

import datetime
from typing import Dict, Optional

from pystream.common.configuration import Configuration
from pystream.errors import UnsupportedFeatureError
from pystream.table.sql_dialect import SqlDialect

__all__ = ["TableConfig"]

DEFAULTS = {"table.local-time-zone": "default"}


class TableConfig:
    """Options by Flink's names (``table.local-time-zone``, ``parallelism.default``,
    ``table.exec.mini-batch.enabled``, ``pipeline.name``, ``python.*``, ...)."""

    def __init__(self, configuration: Optional[Configuration] = None):
        self._configuration = Configuration(configuration) if configuration else Configuration()

    def get(self, key: str, default_value: Optional[str] = None) -> Optional[str]:
        return self._configuration.get_string(key, DEFAULTS.get(key, default_value))

    def set(self, key: str, value: str) -> "TableConfig":
        self._configuration.set_string(key, str(value))
        return self

    def reset(self, key: Optional[str] = None) -> None:
        """Forgets ``key`` (every key when None): SQL's RESET."""
        if key is None:
            for k in list(self._configuration.key_set()):
                self._configuration.remove_config(k)
        else:
            self._configuration.remove_config(key)

    def get_local_timezone(self) -> str:
        return self.get("table.local-time-zone")

    def set_local_timezone(self, timezone_id: str) -> None:
        self.set("table.local-time-zone", timezone_id)

    def get_max_generated_code_length(self) -> int:
        return int(self.get("table.generated-code.max-length", "4000"))

    def set_max_generated_code_length(self, max_generated_code_length: int) -> None:
        self.set("table.generated-code.max-length", str(max_generated_code_length))

    def set_idle_state_retention(self, duration: datetime.timedelta) -> None:
        self.set("table.exec.state.ttl", "%d ms" % (duration / datetime.timedelta(milliseconds=1)))

    def get_idle_state_retention(self) -> datetime.timedelta:
        text = self.get("table.exec.state.ttl", "0 ms")
        return datetime.timedelta(milliseconds=int(text.split()[0]))

    def get_sql_dialect(self) -> int:
        """The SQL dialect statements are parsed in (``SqlDialect.DEFAULT``)."""
        return SqlDialect.HIVE if self.get("table.sql-dialect") == "hive" else SqlDialect.DEFAULT

    def set_sql_dialect(self, sql_dialect: int) -> None:
        """Parse statements in ``sql_dialect``: ``SqlDialect.DEFAULT``, Flink SQL (Hive's
        grammar, ``SqlDialect.HIVE``, is not there)."""
        if sql_dialect == SqlDialect.HIVE:
            raise UnsupportedFeatureError("the Hive SQL dialect (SqlDialect.HIVE): pystream "
                                          "parses Flink SQL, SqlDialect.DEFAULT")
        if sql_dialect != SqlDialect.DEFAULT:
            raise TypeError("Unsupported SQL dialect: %s, supported SQL dialects are: "
                            "SqlDialect.DEFAULT, SqlDialect.HIVE." % sql_dialect)
        self.set("table.sql-dialect", "default")

    def get_configuration(self) -> Configuration:
        return self._configuration

    def add_configuration(self, configuration: Configuration) -> None:
        self._configuration.add_all(configuration)

    def to_map(self) -> Dict[str, str]:
        return self._configuration.to_dict()

    def set_python_executable(self, python_exec: str) -> None:
        self.set("python.executable", python_exec)

    def get_python_executable(self) -> Optional[str]:
        return self.get("python.executable")

    def parallelism(self) -> Optional[int]:
        value = self.get("parallelism.default")
        return int(value) if value else None

    @staticmethod
    def get_default() -> "TableConfig":
        return TableConfig()
