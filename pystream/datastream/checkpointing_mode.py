"""``CheckpointingMode`` (PyFlink's ``pyflink.datastream.checkpointing_mode``)."""
from pystream.datastream.checkpoint_config import CheckpointingMode

__all__ = ["CheckpointingMode"]
