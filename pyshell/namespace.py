"""The names the shell preloads."""
from __future__ import annotations

from typing import Any, Dict


def preload() -> Dict[str, Any]:
    """pystream's user-facing names, and ``env`` (a StreamExecutionEnvironment)."""
    import pystream.common as common
    import pystream.datastream as datastream
    import pystream.datastream.connectors as connectors

    names: Dict[str, Any] = {}
    for module in (common, datastream, connectors):
        names.update({name: getattr(module, name) for name in module.__all__})
    names["env"] = datastream.StreamExecutionEnvironment.get_execution_environment()
    return names
