"""Python scalar and table functions in select, where and join_lateral."""
# oracle: unordered
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import ScalarFunction, udf, udtf

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([(1, 'a b'), (2, 'c'), (3, 'd e f')], ['id', 'words'])
add_one = udf(lambda i: i + 1, result_type=DataTypes.BIGINT())


class Twice(ScalarFunction):
    def eval(self, s):
        return s + s


twice = udf(Twice(), result_type=DataTypes.STRING())


@udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])
def split(s):
    for w in s.split():
        yield w, len(w)


t.select(add_one(col('id')), twice(col('words'))).execute().print()
t.where(add_one(col('id')) > 2).execute().print()
t.join_lateral(split(col('words')).alias('w', 'n')).select(col('id'), col('w'), col('n')) \
    .execute().print()
