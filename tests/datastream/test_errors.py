"""Errors are short and point at the user's code and operator."""
import pytest

from pystream.common import Types
from pystream.datastream.functions import MapFunction, SourceFunction
from pystream.datastream.state import ValueStateDescriptor
from pystream.errors import JobExecutionError, PystreamError, UnsupportedFeatureError
from tests.helpers import collect


def divide(x):
    return 10 // (x - 2)


def test_user_exception_names_exception_operator_record_and_user_line(env):
    ds = env.from_collection([1, 2, 3], type_info=Types.INT()).map(divide, Types.INT()) \
        .name("my_map")
    with pytest.raises(JobExecutionError) as error:
        collect(ds)
    message = str(error.value)
    assert (error.value.cause_type, error.value.operator.startswith("'my_map' (test_errors.py:"),
            "record: 2" in message, "return 10 // (x - 2)" in message,
            "at org.apache" in message, len(message.splitlines()) < 12) == \
        ("ZeroDivisionError", True, True, True, False, True)


def test_value_not_fitting_output_type_is_a_type_error_naming_operator_value_and_type(env):
    ds = env.from_collection([1, 2], type_info=Types.INT()).map(lambda x: "a%d" % x, Types.INT())
    with pytest.raises(TypeError) as error:
        collect(ds)
    message = str(error.value)  # the first failing record of either subtask
    assert ("'Map'" in message, "'a1'" in message or "'a2'" in message,
            "Integer" in message) == (True, True, True)


def test_collection_not_fitting_its_type_fails_at_once(env):
    with pytest.raises(TypeError, match="does not fit the declared type Integer"):
        collect(env.from_collection([1, "two"], type_info=Types.INT()))


def test_execute_without_sink_is_an_error(env):
    env.from_collection([1]).map(lambda x: x)
    with pytest.raises(PystreamError, match="No operators defined in streaming topology"):
        env.execute()


def test_keyed_state_on_a_non_keyed_stream_names_the_operator(env):
    class Counting(MapFunction):
        def open(self, ctx):
            self.count = ctx.get_state(ValueStateDescriptor("count", Types.LONG()))

        def map(self, value):
            return value

    ds = env.from_collection([1]).map(Counting()).name("counting")
    with pytest.raises(JobExecutionError, match=r"only available on a KeyedStream.*'counting'"):
        collect(ds)


def test_state_value_not_fitting_its_descriptor(env):
    class Wrong(MapFunction):
        def open(self, ctx):
            self.count = ctx.get_state(ValueStateDescriptor("count", Types.LONG()))

        def map(self, value):
            self.count.update("many")
            return value

    ds = env.from_collection([1]).key_by(lambda x: x).map(Wrong())
    with pytest.raises(JobExecutionError, match="state 'count' is declared as Long but was given "
                                                "'many'"):
        collect(ds)


def test_unsupported_calls_name_the_feature(env):
    with pytest.raises(UnsupportedFeatureError, match="SourceFunction wraps a Java source"):
        SourceFunction(object())


def test_tuning_calls_without_a_spark_equivalent_are_recorded(env):
    env.set_buffer_timeout(10)
    assert env.get_buffer_timeout() == 10
