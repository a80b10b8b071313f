"""Serialization schemas and encoders used by connectors."""
from __future__ import annotations

__all__ = ["SerializationSchema", "DeserializationSchema", "SimpleStringSchema",
           "ByteArraySchema", "Encoder"]


class SerializationSchema:
    """Turns a record into bytes."""

    def serialize(self, value) -> bytes:
        raise NotImplementedError


class DeserializationSchema:
    """Turns bytes into a record of ``get_produced_type()``."""

    def deserialize(self, message: bytes):
        raise NotImplementedError

    def get_produced_type(self):
        raise NotImplementedError


class SimpleStringSchema(SerializationSchema, DeserializationSchema):
    """Strings as UTF-8 (or ``charset``) bytes."""

    def __init__(self, charset: str = "UTF-8"):
        self.charset = charset

    def serialize(self, value) -> bytes:
        return str(value).encode(self.charset)

    def deserialize(self, message: bytes) -> str:
        return message.decode(self.charset)

    def get_produced_type(self):
        from pystream.common.typeinfo import Types

        return Types.STRING()


class ByteArraySchema(SerializationSchema, DeserializationSchema):
    """Raw bytes, unchanged."""

    def serialize(self, value) -> bytes:
        return bytes(value)

    def deserialize(self, message: bytes) -> bytes:
        return bytes(message)

    def get_produced_type(self):
        from pystream.common.typeinfo import Types

        return Types.PRIMITIVE_ARRAY(Types.BYTE())


class Encoder:
    """How a row-format file sink writes one record: ``simple_string_encoder`` writes
    the record's string form and a newline."""

    def __init__(self, charset: str = "UTF-8"):
        self.charset = charset

    @staticmethod
    def simple_string_encoder(charset_name: str = "UTF-8") -> "Encoder":
        return Encoder(charset_name)
