"""``ExplainDetail``: extra details ``explain()`` can be asked for (PyFlink's names; pystream
shows its relational tree and the Spark plan whichever are asked for)."""
from enum import Enum

__all__ = ["ExplainDetail"]


class ExplainDetail(Enum):
    ESTIMATED_COST = 0
    CHANGELOG_MODE = 1
    JSON_EXECUTION_PLAN = 2
    PLAN_ADVICE = 3
