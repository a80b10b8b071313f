"""``TableConfig``: the options of a TableEnvironment, by Flink's keys."""
from __future__ import annotations

import datetime
import re
import zoneinfo
from typing import Callable, Dict, Optional

from pystream.common.configuration import Configuration
from pystream.common.time import duration_millis, duration_text
from pystream.errors import UnsupportedFeatureError
from pystream.session import session_time_zone
from pystream.table.sql_dialect import SqlDialect
from pystream.util.exceptions import IllegalArgumentException, ValidationException

__all__ = ["TableConfig"]

def _is_duration(text: str) -> bool:
    try:
        duration_millis(text)
    except ValueError:
        return False
    return True


def _choice(*choices: str) -> Callable[[str], bool]:
    return lambda text: text.upper() in choices


def _is_integer(text: str) -> bool:
    return re.fullmatch(r"-?\d+", text) is not None


# the options whose values a job checks before it runs, as Flink parses them
CHECKS: Dict[str, Callable[[str], bool]] = {
    "table.exec.sink.not-null-enforcer": _choice("ERROR", "DROP"),
    "table.exec.sink.type-length-enforcer": _choice("IGNORE", "TRIM_PAD"),
    "table.exec.mini-batch.enabled": _choice("TRUE", "FALSE"),
    "table.dml-sync": _choice("TRUE", "FALSE"),
    "execution.runtime-mode": _choice("STREAMING", "BATCH", "AUTOMATIC"),
    "table.exec.mini-batch.size": _is_integer,
    "table.exec.resource.default-parallelism": _is_integer,
    "parallelism.default": _is_integer,
    "table.exec.state.ttl": _is_duration,
    "table.exec.mini-batch.allow-latency": _is_duration,
}
STREAMING_ONLY = "table.exec.mini-batch."  # options a BATCH job does not read
_OFFSET = re.compile(r"(?:GMT|UTC|UT)?[+-]\d{1,2}(?::?\d{2}(?::?\d{2})?)?|Z")
_INVALID_ZONE = ("Invalid time zone. The value should be a Time Zone Database (TZDB) ID such as "
                 "'America/Los_Angeles' to include daylight saving time. Fixed offsets are "
                 "supported using 'GMT-03:00' or 'GMT+03:00'. Or use 'UTC' without time zone "
                 "and daylight saving time.")


def is_zone_id(text: str) -> bool:
    """Whether Java's ``ZoneId.of`` takes ``text``: a region (``Asia/Tokyo``), ``UTC``, or an
    offset (``GMT-08:00``, ``+08:00``)."""
    if _OFFSET.fullmatch(text):
        return True
    try:
        zoneinfo.ZoneInfo(text)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return False
    return True


class TableConfig:
    """Options by Flink's names (``table.local-time-zone``, ``parallelism.default``,
    ``table.exec.mini-batch.enabled``, ``pipeline.name``, ``python.*``, ...)."""

    def __init__(self, configuration: Optional[Configuration] = None):
        self._configuration = Configuration(configuration) if configuration else Configuration()

    def get(self, key: str, default_value: Optional[str] = None) -> Optional[str]:
        return self._configuration.get_string(key, default_value)

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
        """``table.local-time-zone``; unset or ``default``, the zone the session's jobs use."""
        zone = self.get("table.local-time-zone")
        if not zone or zone == "default":
            return session_time_zone()
        if not is_zone_id(zone):
            raise ValidationException(_INVALID_ZONE)
        return zone

    def set_local_timezone(self, timezone_id: str) -> None:
        if not isinstance(timezone_id, str):
            raise TypeError("TableConfig.timezone should be a string!")
        if not is_zone_id(timezone_id):
            raise ValidationException("Unknown time-zone ID: %s" % timezone_id)
        self.set("table.local-time-zone", timezone_id)

    def get_max_generated_code_length(self) -> int:
        return int(self.get("table.generated-code.max-length", "4000"))

    def set_max_generated_code_length(self, max_generated_code_length: int) -> None:
        if not isinstance(max_generated_code_length, int):
            raise TypeError("TableConfig.max_generated_code_length should be a int value!")
        self.set("table.generated-code.max-length", str(max_generated_code_length))

    def set_idle_state_retention(self, duration: datetime.timedelta) -> None:
        """``table.exec.state.ttl``, written as Flink writes a duration (``1 h``)."""
        millis = round(duration.total_seconds() * 1000)
        self.set("table.exec.state.ttl", duration_text(millis))

    def get_idle_state_retention(self) -> datetime.timedelta:
        text = self.get("table.exec.state.ttl", "0 ms")
        try:
            return datetime.timedelta(milliseconds=duration_millis(text))
        except ValueError:
            raise IllegalArgumentException.unparsed("table.exec.state.ttl", text) from None

    def get_sql_dialect(self) -> int:
        """The SQL dialect statements are parsed in (``SqlDialect.DEFAULT``)."""
        dialect = (self.get("table.sql-dialect") or "default").upper()
        if dialect not in ("DEFAULT", "HIVE"):
            raise IllegalArgumentException(
                "No enum constant org.apache.flink.table.api.SqlDialect.%s" % dialect)
        return SqlDialect.HIVE if dialect == "HIVE" else SqlDialect.DEFAULT

    def check_values(self) -> None:
        """Fails on an option whose value does not parse as Flink parses it (a job checks
        its options before it runs): a choice not among its choices, an integer or a
        duration that is not one, an unknown time zone, an unknown SQL dialect."""
        batch = (self.get("execution.runtime-mode") or "").strip().upper() == "BATCH"
        for key, parses in CHECKS.items():
            value = self.get(key)
            if value is not None and not (batch and key.startswith(STREAMING_ONLY)) \
                    and not parses(value.strip()):
                raise IllegalArgumentException.unparsed(key, value)
        self.get_local_timezone()
        self.get_sql_dialect()

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
