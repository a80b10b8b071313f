"""The tables of ``pystream.compiler.connectors``: every source and sink pystream can run has
its line, found by its class or a base class, and the others fail as they always did."""
from __future__ import annotations

import importlib
import pkgutil
from types import SimpleNamespace

import pytest

import pystream.core.connectors as core_connectors
import pystream.datastream.connectors as api_connectors
from pystream.compiler.connectors import SINKS, SOURCES, lookup
from pystream.compiler.sinks import plan_sink
from pystream.compiler.sources import source_flow
from pystream.core.connectors.base import Sink, Source, UnsupportedConnector
from pystream.datastream.connectors.file_system import FileSink, StreamingFileSink
from pystream.datastream.connectors.kafka import (
    FlinkKafkaConsumer,
    FlinkKafkaProducer,
    KafkaSink,
    KafkaSource,
)
from pystream.errors import UnsupportedFeatureError


def _subclasses(cls: type) -> set:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub} | _subclasses(sub)
    return found


def _connector_classes(base: type) -> list:
    """The connector classes of ``pystream.datastream.connectors`` (and of
    ``pystream.core.connectors``, where the built-in ones are defined) deriving from
    ``base``."""
    packages = (api_connectors, core_connectors)
    for package in packages:
        for module in pkgutil.iter_modules(package.__path__):
            importlib.import_module("%s.%s" % (package.__name__, module.name))
    return sorted((c for c in _subclasses(base)
                   if c.__module__.startswith(tuple(p.__name__ + "." for p in packages))),
                  key=lambda c: (c.__module__, c.__name__))


@pytest.mark.parametrize("base, table", [(Source, SOURCES), (Sink, SINKS)])
def test_every_runnable_connector_is_in_the_table(base, table):
    missing = [c.__name__ for c in _connector_classes(base)
               if not issubclass(c, UnsupportedConnector) and lookup(table, c.__new__(c)) is None]
    assert not missing


def test_a_subclass_runs_as_its_connector():
    assert lookup(SOURCES, FlinkKafkaConsumer.__new__(FlinkKafkaConsumer)) is SOURCES[KafkaSource]
    assert lookup(SINKS, FlinkKafkaProducer.__new__(FlinkKafkaProducer)) is SINKS[KafkaSink]
    assert lookup(SINKS, StreamingFileSink.__new__(StreamingFileSink)) is SINKS[FileSink]
    assert lookup(SOURCES, object()) is None


def test_an_unsupported_connector_fails_with_its_name():
    compiler = SimpleNamespace(settings=SimpleNamespace(batch=False))
    source = Source("org.example.MySource")
    with pytest.raises(UnsupportedFeatureError,
                       match=r"^source Source\('org.example.MySource'\) \(a Java source\) is "
                             r"not supported by pystream$"):
        source_flow(compiler, SimpleNamespace(source=source, bounded=True))
    sink = Sink("org.example.MySink")
    with pytest.raises(UnsupportedFeatureError,
                       match=r"^sink Sink\('org.example.MySink'\) \(a Java sink\) is not "
                             r"supported by pystream$"):
        plan_sink(compiler, SimpleNamespace(sink=sink))
