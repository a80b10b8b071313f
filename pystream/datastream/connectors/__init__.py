"""Connectors: where streams come from and where they go."""
from pystream.datastream.connectors.base import Boundedness, DeliveryGuarantee, Sink, Source
from pystream.datastream.connectors.datagen import DataGeneratorSource
from pystream.datastream.connectors.discarding import DiscardingSink
from pystream.datastream.connectors.number_seq import NumberSequenceSource

__all__ = ["Source", "Sink", "Boundedness", "DeliveryGuarantee", "NumberSequenceSource",
           "DataGeneratorSource", "DiscardingSink"]
