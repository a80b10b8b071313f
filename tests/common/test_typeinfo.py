from pyspark.sql import types as st

from pystream.common import Types


def test_types_map_to_spark_types():
    cases = [Types.BOOLEAN(), Types.BYTE(), Types.SHORT(), Types.INT(), Types.LONG(),
             Types.FLOAT(), Types.DOUBLE(), Types.STRING(), Types.CHAR(), Types.BIG_INT(),
             Types.BIG_DEC(), Types.SQL_DATE(), Types.SQL_TIME(), Types.SQL_TIMESTAMP(),
             Types.LOCAL_DATE(), Types.LOCAL_TIME(), Types.LOCAL_DATE_TIME(), Types.INSTANT(),
             Types.PICKLED_BYTE_ARRAY(), Types.PRIMITIVE_ARRAY(Types.BYTE()),
             Types.PRIMITIVE_ARRAY(Types.INT()), Types.BASIC_ARRAY(Types.STRING()),
             Types.LIST(Types.DOUBLE()), Types.MAP(Types.STRING(), Types.LONG()),
             Types.ROW_NAMED(["a"], [Types.INT()]), Types.TUPLE([Types.INT(), Types.STRING()])]
    assert [t.spark_type() for t in cases] == [
        st.BooleanType(), st.ByteType(), st.ShortType(), st.IntegerType(), st.LongType(),
        st.FloatType(), st.DoubleType(), st.StringType(), st.StringType(),
        st.DecimalType(38, 0), st.StringType(), st.DateType(), st.TimeType(6),
        st.TimestampNTZType(), st.DateType(), st.TimeType(6), st.TimestampNTZType(),
        st.TimestampType(), st.BinaryType(), st.BinaryType(),
        st.ArrayType(st.IntegerType(), False), st.ArrayType(st.StringType()),
        st.ArrayType(st.DoubleType()), st.MapType(st.StringType(), st.LongType()),
        st.StructType([st.StructField("a", st.IntegerType())]),
        st.StructType([st.StructField("f0", st.IntegerType()),
                       st.StructField("f1", st.StringType())])]


def test_type_equality_and_repr():
    row = Types.ROW_NAMED(["word", "count"], [Types.STRING(), Types.LONG()])
    assert (row == Types.ROW_NAMED(["word", "count"], [Types.STRING(), Types.LONG()]),
            Types.INT() == Types.LONG(), repr(row), repr(Types.LIST(Types.INT()))) == \
        (True, False, "RowTypeInfo(word: String, count: Long)", "ListTypeInfo<Integer>")


def test_row_field_names_default_to_f_index():
    assert Types.ROW([Types.INT(), Types.STRING()]).get_field_names() == ["f0", "f1"]
