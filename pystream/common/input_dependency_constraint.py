"""``InputDependencyConstraint`` (PyFlink's ``pyflink.common.input_dependency_constraint``)."""
from enum import Enum

__all__ = ["InputDependencyConstraint"]


class InputDependencyConstraint(Enum):
    """When a task should be scheduled considering its inputs status (recorded only: Spark
    schedules stages by itself).

    :data:`ANY`: schedule the task if any input is consumable.
    :data:`ALL`: schedule the task if all the inputs are consumable.
    """

    ANY = 0
    ALL = 1
