"""Python scalar functions in Table programs: ``udf`` over functions, lambdas and
ScalarFunctions, pandas functions, registration by name, and errors that name the function."""
import pytest

from pystream.errors import JobExecutionError
from pystream.table import DataTypes, Row
from pystream.table.expressions import call, col
from pystream.table.udf import (
    AggregateFunction,
    ScalarFunction,
    TableAggregateFunction,
    udaf,
    udf,
    udtaf,
    udtf,
)
from pystream.util.exceptions import ValidationException
from tests.table.conftest import rows


@pytest.fixture
def words(t_env):
    return t_env.from_elements([(1, "a"), (2, "bb"), (3, "ccc")], ["id", "word"])


class Scaled(ScalarFunction):
    def open(self, function_context):
        self.factor = 10

    def eval(self, i):
        return i * self.factor


def test_functions_lambdas_and_scalar_functions(words):
    add_one = udf(lambda i: i + 1, result_type=DataTypes.BIGINT())

    @udf(result_type=DataTypes.STRING())
    def shout(s):
        return s.upper() + "!"

    scaled = udf(Scaled(), result_type=DataTypes.BIGINT())
    result = words.where(add_one(col("id")) > 2).select(
        add_one(col("id")), shout(col("word")).alias("loud"), scaled(col("id")))
    assert result.get_schema().get_field_names() == ["_c0", "loud", "_c2"]
    assert sorted(rows(result)) == [(3, "BB!", 20), (4, "CCC!", 30)]


def test_a_pandas_function_takes_and_gives_series(words):
    length = udf(lambda s: s.str.len(), result_type=DataTypes.BIGINT(), func_type="pandas")
    assert sorted(rows(words.select(length(col("word"))))) == [(1,), (2,), (3,)]


def test_a_registered_function_is_called_by_name(t_env, words):
    t_env.create_temporary_system_function("twice", udf(lambda i: 2 * i,
                                                        result_type=DataTypes.BIGINT()))
    assert "twice" in t_env.list_user_defined_functions()
    assert sorted(rows(words.select(call("twice", col("id"))))) == [(2,), (4,), (6,)]


def test_a_failing_function_names_itself_its_line_and_the_row(words):
    inverse = udf(lambda i: 1 // (i - 2), result_type=DataTypes.BIGINT())
    with pytest.raises(JobExecutionError) as raised:
        words.select(inverse(col("id"))).execute().print()
    text = str(raised.value)
    assert "ZeroDivisionError" in text and "ScalarFunction '<lambda>' (test_udf.py:" in text
    assert "record: (2,)" in text and "1 // (i - 2)" in text


def test_table_functions_in_join_lateral_and_flat_map(words):
    @udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])
    def letters(word):
        for i, c in enumerate(word):
            if c != "b":
                yield c, i

    joined = words.join_lateral(letters(col("word")).alias("letter", "position"))
    assert joined.get_schema().get_field_names() == ["id", "word", "letter", "position"]
    assert sorted(rows(joined)) == [(1, "a", "a", 0), (3, "ccc", "c", 0), (3, "ccc", "c", 1),
                                    (3, "ccc", "c", 2)]
    kept = words.left_outer_join_lateral(letters(col("word")).alias("letter", "position"))
    assert (2, "bb", None, None) in rows(kept)
    whole_rows = udtf(lambda row: [row.word] * row.id, result_types=[DataTypes.STRING()])
    assert sorted(rows(words.flat_map(whole_rows).alias("w"))) == [
        ("a",), ("bb",), ("bb",), ("ccc",), ("ccc",), ("ccc",)]


class Counter(AggregateFunction):
    def get_value(self, accumulator):
        return accumulator[0]

    def create_accumulator(self):
        return [0]

    def accumulate(self, accumulator, value):
        accumulator[0] += 1


class Top2(TableAggregateFunction):
    def emit_value(self, accumulator):
        yield from sorted((v for v in accumulator if v is not None), reverse=True)

    def create_accumulator(self):
        return [None, None]

    def accumulate(self, accumulator, value):
        accumulator[:] = sorted((v for v in accumulator + [value] if v is not None),
                                reverse=True)[:2] + [None] * (2 - len(
                                    [v for v in accumulator + [value] if v is not None]))


def test_a_table_aggregate_function_in_batch_mode_emits_each_groups_rows(batch_t_env):
    """Beyond PyFlink, which runs table aggregate functions in STREAMING mode only (their
    changelog there: programs/flat_aggregate_udtaf.py)."""
    t = batch_t_env.from_elements([(1, 2), (2, 3), (1, 5), (1, 4)], ["a", "b"])
    top2 = udtaf(Top2(), result_type="BIGINT", accumulator_type="ARRAY<BIGINT>")
    result = t.group_by(col("a")).flat_aggregate(top2(col("b")).alias("top")) \
        .select(col("a"), col("top"))
    assert sorted(rows(result)) == [(1, 4), (1, 5), (2, 3)]


def test_flat_aggregate_takes_a_table_aggregate_function(words):
    count = udaf(Counter(), result_type="BIGINT", accumulator_type="ARRAY<BIGINT>")
    with pytest.raises(ValidationException, match="flat_aggregate takes a table aggregate"):
        words.group_by(col("id")).flat_aggregate(count(col("id")))


def test_map_gives_a_row_function_s_fields_as_columns(words):
    pair = udf(lambda row: Row(row.id * 10, row.word.upper()),
               result_type=DataTypes.ROW([DataTypes.FIELD("tens", DataTypes.BIGINT()),
                                          DataTypes.FIELD("loud", DataTypes.STRING())]))
    mapped = words.map(pair)
    assert mapped.get_schema().get_field_names() == ["tens", "loud"]
    assert sorted(rows(mapped)) == [(10, "A"), (20, "BB"), (30, "CCC")]
    length = udf(lambda s: len(s), result_type=DataTypes.INT())
    assert sorted(rows(words.map(length(col("word"))))) == [(1,), (2,), (3,)]


class WhereAmI(ScalarFunction):
    def open(self, function_context):
        self.where = "%s|%s|%d/%d|%s" % (
            function_context.get_job_parameter("team", "?"),
            function_context.get_task_name_with_subtasks().split(" ")[-1],
            function_context.get_index_of_this_subtask(),
            function_context.get_number_of_parallel_subtasks(),
            function_context.get_attempt_number())

    def eval(self, i):
        return self.where


def test_open_reads_the_job_parameters_and_its_subtask(t_env, words):
    t_env.get_config().set("parallelism.default", "1")
    t_env.get_config().set("pipeline.global-job-parameters", "team:data,x:y")
    where = udf(WhereAmI(), result_type=DataTypes.STRING())
    assert {r[0] for r in rows(words.select(where(col("id"))))} == {"data|(1/1)|0/1|0"}


def test_the_arrow_batch_size_is_the_batches_a_pandas_function_gets(t_env):
    t_env.get_config().set("python.fn-execution.arrow.batch.size", "2")
    t_env.get_config().set("parallelism.default", "1")
    size = udf(lambda s: s * 0 + len(s), result_type=DataTypes.BIGINT(), func_type="pandas")
    t = t_env.from_elements([(i,) for i in range(5)], ["i"])
    try:
        assert max(r[0] for r in rows(t.select(size(col("i"))))) == 2
    finally:
        from pystream.session import get_session

        get_session().conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "10000")
