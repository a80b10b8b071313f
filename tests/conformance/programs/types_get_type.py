"""DataStream.get_type() and TypeInformation repr/equality for every Types.* and for streams
derived by map, reduce, sum, filter, union, project and process (no job runs)."""
# oracle: ordered
from pyflink.common import Types
from pyflink.datastream import ProcessFunction, StreamExecutionEnvironment

ALL = [Types.BOOLEAN(), Types.BYTE(), Types.SHORT(), Types.INT(), Types.LONG(), Types.FLOAT(),
       Types.DOUBLE(), Types.CHAR(), Types.STRING(), Types.BIG_INT(), Types.BIG_DEC(),
       Types.SQL_DATE(), Types.SQL_TIME(), Types.SQL_TIMESTAMP(), Types.INSTANT(),
       Types.PICKLED_BYTE_ARRAY(), Types.ROW([Types.INT(), Types.STRING()]),
       Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.STRING()]),
       Types.TUPLE([Types.INT(), Types.STRING()]), Types.PRIMITIVE_ARRAY(Types.INT()),
       Types.BASIC_ARRAY(Types.STRING()), Types.OBJECT_ARRAY(Types.ROW([Types.INT()])),
       Types.LIST(Types.LONG()), Types.MAP(Types.STRING(), Types.DOUBLE())]
for t in ALL:
    print('type', repr(t), str(t) == repr(t))
print('equal', Types.INT() == Types.INT(), Types.INT() == Types.LONG(),
      Types.ROW([Types.INT()]) == Types.ROW([Types.INT()]),
      Types.ROW_NAMED(['x'], [Types.INT()]) == Types.ROW([Types.INT()]),
      Types.LIST(Types.INT()) == Types.LIST(Types.INT()))


class Identity(ProcessFunction):
    def process_element(self, value, ctx):
        yield value


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
pair = Types.TUPLE([Types.STRING(), Types.INT()])
ds = env.from_collection([('a', 1)], type_info=pair)
print('source', ds.get_type())
print('untyped source', env.from_collection([1]).get_type())
print('map typed', ds.map(lambda t: t[1], output_type=Types.LONG()).get_type())
print('map untyped', ds.map(lambda t: t[1]).get_type())
print('filter', ds.filter(lambda t: True).get_type())
print('reduce', ds.key_by(lambda t: t[0]).reduce(lambda a, b: a).get_type())
print('sum', ds.key_by(lambda t: t[0]).sum(1).get_type())
print('union', ds.union(ds).get_type())
print('project', ds.project(1).get_type())
print('process', ds.process(Identity(), output_type=Types.ROW([Types.STRING()])).get_type())
print('process untyped', ds.process(Identity()).get_type())
print('flat_map', ds.flat_map(lambda t: [t[0]], output_type=Types.STRING()).get_type())
