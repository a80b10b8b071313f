"""The options each of Flink's bundled connectors takes, checked as Flink checks them when a
statement reads or writes a table (its DDL's options and the statement's dynamic options):
a key the connector does not have fails, naming it and listing those it has.

The lists are Flink 2.3's, as its own "Unsupported options" errors list them (datagen's
per-column keys depend on the column's type and kind). A filesystem table's format keys
(``csv.*``, ``json.*``) are not checked, as Flink's filesystem connector does not check
them. Connectors whose lists pystream does not know (kafka, jdbc, ...) are not checked.
"""
from __future__ import annotations

from typing import Dict, FrozenSet, Iterable, List, Mapping, Tuple

from pystream.common import data_types as T
from pystream.relational.schema import Schema
from pystream.util.exceptions import ValidationException

__all__ = ["check_options"]

_WATERMARKS = ("property-version", "scan.watermark.alignment.group",
               "scan.watermark.alignment.max-drift", "scan.watermark.alignment.update-interval",
               "scan.watermark.emit.strategy", "scan.watermark.idle-timeout")
_FILESYSTEM = (
    "auto-compaction", "compaction.file-size", "format", "partition.default-name",
    "partition.time-extractor.class", "partition.time-extractor.kind",
    "partition.time-extractor.timestamp-formatter",
    "partition.time-extractor.timestamp-pattern", "path", "sink.parallelism",
    "sink.partition-commit.delay", "sink.partition-commit.policy.class",
    "sink.partition-commit.policy.class.parameters", "sink.partition-commit.policy.kind",
    "sink.partition-commit.success-file.name", "sink.partition-commit.trigger",
    "sink.partition-commit.watermark-time-zone", "sink.rolling-policy.check-interval",
    "sink.rolling-policy.file-size", "sink.rolling-policy.inactivity-interval",
    "sink.rolling-policy.rollover-interval", "sink.shuffle-by-partition.enable",
    "source.monitor-interval", "source.path.regex-pattern", "source.report-statistics")
# connector -> the keys it takes besides 'connector' (datagen's per-column keys apart)
_KEYS: Dict[str, Tuple[str, ...]] = {
    "datagen": ("number-of-rows", "rows-per-second", "scan.parallelism"),
    "filesystem": _WATERMARKS + _FILESYSTEM,
    "print": _WATERMARKS + ("print-identifier", "sink.parallelism", "standard-error"),
    "blackhole": _WATERMARKS,
}
# Flink's masked option values: a key holding one of these words
_SENSITIVE = ("password", "secret", "fs.azure.account.key", "apikey", "api-key", "auth-params",
              "service-key", "token", "basic-auth", "jaas.config", "http-headers")


def check_options(table: str, options: Mapping[str, str], physical: Schema,
                  source: bool) -> None:
    """Fail as Flink fails when ``options`` of ``table`` (read when ``source``, else written)
    hold keys its connector does not take."""
    connector = options.get("connector")
    if connector not in _KEYS:
        return
    supported = set(_KEYS[connector]) | {"connector"}
    if connector == "datagen":
        supported |= _datagen_keys(options, physical)
    unchecked = "%s." % options.get("format") if connector == "filesystem" else None
    unsupported = sorted(k for k in options if k not in supported
                         and not (unchecked and k.startswith(unchecked)))
    if not unsupported:
        return
    shown = "\n".join("'%s'='%s'" % (k, "******" if _sensitive(k) else v)
                      for k, v in sorted(options.items()))
    raise ValidationException(
        "Unable to create a %s table 'default_catalog.default_database.%s'.\n\n"
        "Table options are:\n\n%s\n\nUnsupported options found for '%s'.\n\n"
        "Unsupported options:\n\n%s\n\nSupported options:\n\n%s" % (
            "source for reading" if source else "sink for writing", table, shown,
            connector, "\n".join(unsupported), "\n".join(sorted(supported))))


def _sensitive(key: str) -> bool:
    return any(word in key.lower() for word in _SENSITIVE)


def _datagen_keys(options: Mapping[str, str], physical: Schema) -> FrozenSet[str]:
    """datagen's keys of each physical column: its kind, and a sequence's start and end or
    what a random value of its type takes."""
    keys: List[str] = []
    for f in physical:
        prefix = "fields.%s." % f.name
        if options.get(prefix + "kind") == "sequence":
            keys += [prefix + k for k in ("kind", "start", "end")]
        else:
            keys += [prefix + "kind"] + [prefix + k for k in _random_keys(f.data_type)]
    return frozenset(keys)


def _random_keys(t: T.DataType) -> Iterable[str]:
    """The keys of a random value of type ``t`` (under its column's or parent's prefix)."""
    if isinstance(t, (T.DateType, T.TimeType)):
        return ()
    if isinstance(t, (T.BinaryType, T.VarBinaryType)):
        return ("length", "var-len")
    if isinstance(t, T.CharType):
        return ("null-rate",)
    if isinstance(t, T.VarCharType):
        return ("length", "null-rate", "var-len")
    if isinstance(t, T.NumericType):
        return ("max", "min", "null-rate")
    if isinstance(t, (T.TimestampType, T.LocalZonedTimestampType)):
        return ("max-past", "null-rate")
    if isinstance(t, (T.ArrayType, T.MultisetType)):
        return ("length", "null-rate") + tuple("element." + k
                                               for k in _random_keys(t.element_type))
    if isinstance(t, T.MapType):
        return ("length", "null-rate") + \
            tuple("key." + k for k in _random_keys(t.key_type)) + \
            tuple("value." + k for k in _random_keys(t.value_type))
    if isinstance(t, T.RowType):
        return ("null-rate",) + tuple("%s.%s" % (f.name, k) for f in t.fields
                                      for k in _random_keys(f.data_type))
    return ("null-rate",)
