"""``ExternalizedCheckpointRetention`` (PyFlink's
``pyflink.datastream.externalized_checkpoint_retention``)."""
from pystream.datastream.checkpoint_config import ExternalizedCheckpointRetention

__all__ = ["ExternalizedCheckpointRetention"]
