"""Objects of classes the job's own script defines (a dataclass, a plain class, a namedtuple,
a class inside a function) travel between operators: from_collection of them, a map that
returns them, key_by/reduce over them, a side output of them. PyFlink ships the classes by
value."""
from collections import namedtuple
from dataclasses import dataclass

from pyflink.common import Types
from pyflink.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment


@dataclass
class Order:
    user: str
    amount: int


class Total:
    def __init__(self, user, amount):
        self.user, self.amount = user, amount

    def __repr__(self):
        return "Total(%s, %d)" % (self.user, self.amount)


Pair = namedtuple("Pair", "user amount")
big = OutputTag("big", Types.PICKLED_BYTE_ARRAY())


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        if value.amount > 2:
            yield big, Pair(value.user, value.amount)
        yield value


def tagged(amount):
    class Tag:
        def __init__(self, v):
            self.v = v

        def __repr__(self):
            return "Tag(%s)" % self.v
    return Tag(amount)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
orders = env.from_collection([Order("a", 1), Order("b", 2), Order("a", 3)])
orders.map(lambda o: Total(o.user, o.amount)) \
    .key_by(lambda t: t.user) \
    .reduce(lambda a, b: Total(a.user, a.amount + b.amount)).print("total")
split = orders.process(Split())
split.print("order")
split.get_side_output(big).print("big")
orders.map(lambda o: tagged(o.amount)).print("tag")
orders.map(lambda o: Pair(o.user, o.amount * 10)).key_by(lambda p: p.user) \
    .map(lambda p: p.amount, output_type=Types.INT()).print("amount")
env.execute()
