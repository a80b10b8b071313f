"""File formats and row serialization schemas (PyFlink's ``pyflink.datastream.formats``):
``csv``, ``json``, ``parquet``, ``orc``, ``avro``."""
