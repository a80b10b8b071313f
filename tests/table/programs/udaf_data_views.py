"""Aggregate functions whose accumulators hold a ListView and a MapView
(DataTypes.LIST_VIEW / MAP_VIEW in get_accumulator_type), in STREAMING mode (PyFlink 2.3
runs no non-pandas aggregate function in BATCH mode)."""
from pyflink.common import Row
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.data_view import ListView, MapView
from pyflink.table.expressions import col
from pyflink.table.udf import AggregateFunction, udaf


class ConcatWords(AggregateFunction):
    def create_accumulator(self):
        return Row(ListView(), '')

    def accumulate(self, accumulator, word, separator):
        accumulator[0].add(word)
        accumulator[1] = separator

    def get_value(self, accumulator):
        return accumulator[1].join(sorted(accumulator[0].get()))

    def get_accumulator_type(self):
        return DataTypes.ROW([DataTypes.FIELD('f0', DataTypes.LIST_VIEW(DataTypes.STRING())),
                              DataTypes.FIELD('f1', DataTypes.STRING())])

    def get_result_type(self):
        return DataTypes.STRING()


class CountDistinct(AggregateFunction):
    def create_accumulator(self):
        return Row(MapView(), 0)

    def accumulate(self, accumulator, word):
        if not accumulator[0].contains(word):
            accumulator[0].put(word, 1)
            accumulator[1] += 1
        else:
            accumulator[0][word] = accumulator[0][word] + 1

    def retract(self, accumulator, word):
        if accumulator[0].contains(word):
            accumulator[0].put(word, accumulator[0].get(word) - 1)
            if accumulator[0].get(word) == 0:
                accumulator[0].remove(word)
                accumulator[1] -= 1

    def get_value(self, accumulator):
        return accumulator[1]

    def get_accumulator_type(self):
        return DataTypes.ROW([
            DataTypes.FIELD('f0', DataTypes.MAP_VIEW(DataTypes.STRING(), DataTypes.BIGINT())),
            DataTypes.FIELD('f1', DataTypes.BIGINT())])

    def get_result_type(self):
        return DataTypes.BIGINT()


concat = udaf(ConcatWords())
distinct = udaf(CountDistinct())
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set('parallelism.default', '1')
t = t_env.from_elements([('a', 'x'), ('b', 'y'), ('a', 'y'), ('a', 'x'), ('b', 'z')],
                        ['k', 'w'])
t.group_by(col('k')).select(col('k'), concat(col('w'), '-'), distinct(col('w'))) \
    .execute().print()
t_env.create_temporary_function('count_distinct', distinct)
t_env.create_temporary_view('t', t)
t_env.execute_sql("SELECT count_distinct(w) AS n FROM t").print()
