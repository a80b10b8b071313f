"""A seeded generator of PyFlink DataStream pipelines for differential testing against
PyFlink 2.3: random stacks of map/filter/flat_map, key_by with reduce, sum/min/max(_by),
keyed state and event-time timers, count and event-time windows (tumbling, sliding,
session) with reduce/aggregate/process functions, side outputs, unions and partitionings,
over generated records: numbers, strings, typed tuples and rows, and instances of classes
the program itself defines (a dataclass, a namedtuple, a plain class), in STREAMING and
BATCH mode.

Pipelines run many to a program: ``program(pipelines)`` is the text of one PyFlink program
(``from pyflink...``) that defines the classes and functions once, then runs each pipeline as
a job of its own (``execute_and_collect``) and prints its records as ``<id>| <record>``, or
``<id>! <exception type>`` when the job fails. The same seed gives the same pipelines:
``tests/oracle/record_generated.py --pipelines`` records PyFlink's lines,
``tests/generated/test_pipelines.py`` checks pystream's.
"""
from __future__ import annotations

import builtins
import random
import re
from dataclasses import dataclass
from typing import Callable, Dict, List, Tuple

EXPECTED_FILE = "tests/generated/expected_pipelines.jsonl"  # PyFlink's lines

# what every program defines before its pipelines: the records' classes and the functions
# the pipelines use, as a user's job script would
PRELUDE = '''\
import os
import re
import threading
from collections import namedtuple
from dataclasses import dataclass

from pyflink.common import Duration, Row, Types, WatermarkStrategy
from pyflink.common.time import Time
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (OutputTag, RuntimeExecutionMode,
                                StreamExecutionEnvironment)
from pyflink.datastream.functions import (AggregateFunction, FlatMapFunction,
                                          KeyedProcessFunction, MapFunction,
                                          ProcessFunction, ProcessWindowFunction,
                                          ReduceFunction)
from pyflink.datastream.state import ValueStateDescriptor
from pyflink.datastream.window import (EventTimeSessionWindows, SlidingEventTimeWindows,
                                       TumblingEventTimeWindows)


@dataclass
class Order:
    key: str
    amount: int


Point = namedtuple("Point", ["key", "x"])


class Reading:
    def __init__(self, key, value):
        self.key = key
        self.value = value

    def __repr__(self):
        return "Reading(%s=%s)" % (self.key, self.value)


class Scale(MapFunction):
    def __init__(self, factor):
        self.factor = factor

    def map(self, value):
        return value * self.factor


class Spread(FlatMapFunction):
    def flat_map(self, value):
        for n in range(value % 3):
            yield value + n


class Total(ReduceFunction):
    def reduce(self, a, b):
        return (a[0], a[1] + b[1])


class CountPerKey(KeyedProcessFunction):
    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.LONG()))

    def process_element(self, value, ctx):
        seen = (self.count.value() or 0) + 1
        self.count.update(seen)
        yield "%s#%d" % (ctx.get_current_key(), seen)


class FireLater(KeyedProcessFunction):
    def __init__(self, delay):
        self.delay = delay

    def open(self, runtime_context):
        self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.LONG()))

    def process_element(self, value, ctx):
        self.total.update((self.total.value() or 0) + value[1])
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + self.delay)

    def on_timer(self, timestamp, ctx):
        yield "%s@%d=%d" % (ctx.get_current_key(), timestamp, self.total.value())


class EventTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class CountAndSum(AggregateFunction):
    def create_accumulator(self):
        return (0, 0)

    def add(self, value, accumulator):
        return (accumulator[0] + 1, accumulator[1] + value[1])

    def get_result(self, accumulator):
        return "n=%d sum=%d" % accumulator

    def merge(self, a, b):
        return (a[0] + b[0], a[1] + b[1])


class Describe(ProcessWindowFunction):
    def process(self, key, context, elements):
        values = [e[1] for e in elements]
        yield "%s [%d, %d) %s" % (key, context.window().start, context.window().end, values)


NEGATIVE = OutputTag("negative", Types.INT())


class SplitSign(ProcessFunction):
    def process_element(self, value, ctx):
        if value < 0:
            ctx.output(NEGATIVE, value)
        else:
            yield value


def run(name, mode, parallelism, build):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(parallelism)
    watchdog = None
    if os.environ.get("PIPELINE_TIMEOUT"):  # recording: a job that hangs ends the process
        watchdog = threading.Timer(float(os.environ["PIPELINE_TIMEOUT"]), lambda: (
            print("%s! Hangs" % name, flush=True), os._exit(3)))
        watchdog.start()
    try:
        with build(env).execute_and_collect() as results:
            lines = [str(r) for r in results]
    except Exception as e:  # the job failed: its Python exception's name
        found = re.findall(r"\\b([A-Z]\\w*(?:Error|Exception))\\b", str(e))
        lines = None
        print("%s! %s" % (name, found[-1] if found else type(e).__name__))
    if watchdog is not None:
        watchdog.cancel()
    for line in lines or []:
        print("%s| %s" % (name, line))
    print("%s. done" % name, flush=True)
'''

STRINGS = ["a", "b", "", "Ab c", "ß", "x y z", "bb"]
KEYS = ["a", "b", "c", "d"]


@dataclass(frozen=True)
class Pipeline:
    """One generated pipeline: its id, mode and parallelism, the statements that build the
    stream ``ds`` from ``env``, and whether PyFlink's lines come in a deterministic order."""

    id: str
    mode: str
    parallelism: int
    body: Tuple[str, ...]
    ordered: bool

    def function(self) -> str:
        lines = ["def build_%s(env):" % self.id.replace("-", "_")]
        lines += ["    " + line for line in self.body]
        lines.append("    return ds")
        return "\n".join(lines)

    def call(self) -> str:
        return "run(%r, RuntimeExecutionMode.%s, %d, build_%s)" % (
            self.id, self.mode, self.parallelism, self.id.replace("-", "_"))


def program(pipelines: List[Pipeline]) -> str:
    """The PyFlink program that runs ``pipelines`` one after the other."""
    parts = [PRELUDE]
    for p in pipelines:
        parts += ["", "", p.function()]
    parts += ["", ""] + [p.call() for p in pipelines]
    return "\n".join(parts) + "\n"


# a kind of record: how a source of it is written, and the steps that apply to it
# (step: rng -> (statement, kind after it, whether the order stays deterministic))
Step = Tuple[str, str, bool]


class Pipelines:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.steps: Dict[str, List[Callable[[], Step]]] = {
            "int": [self.int_map, self.int_map_function, self.int_filter, self.int_flat_map,
                    self.int_to_pair, self.int_to_order, self.int_to_point,
                    self.int_to_reading, self.int_keyed_reduce, self.int_side_output,
                    self.int_to_float, self.int_to_string, self.int_union,
                    self.int_raises, self.partitioning],
            "pair": [self.pair_keyed_reduce, self.pair_keyed_function, self.pair_aggregation,
                     self.pair_filter, self.pair_map, self.pair_count_per_key,
                     self.pair_count_window, self.pair_to_row, self.pair_to_int,
                     self.partitioning],
            "row": [self.row_filter, self.row_map, self.row_sum, self.row_to_pair],
            "order": [self.order_map, self.order_keyed_reduce, self.order_filter,
                      self.order_to_pair],
            "point": [self.point_map, self.point_keyed_max, self.point_to_pair],
            "reading": [self.reading_map, self.reading_keyed_reduce],
            "event": [self.event_window, self.event_window, self.event_window_all,
                      self.event_timers, self.event_filter],
            "float": [self.float_map, self.float_filter],
            "str": [self.str_map, self.str_filter, self.str_flat_map, self.str_keyed_count],
        }

    def pick(self, options):
        return self.rng.choice(list(options))

    def ints(self) -> List[int]:
        return [self.rng.choice([0, 1, -1, 2, 3, 5, 7, 10, -8, 42, 100, 2 ** 31 - 1])
                for _ in range(self.rng.randint(3, 10))]

    # sources
    def source(self) -> Tuple[str, str]:
        kind = self.pick(["int", "int", "pair", "pair", "row", "order", "point", "reading",
                          "event", "event", "str"])
        rng = self.rng
        if kind == "int":
            typed = self.pick(["", ", type_info=Types.INT()", ", type_info=Types.LONG()"])
            return "ds = env.from_collection(%r%s)" % (self.ints(), typed), kind
        if kind == "pair":
            pairs = [(self.pick(KEYS), v) for v in self.ints()]
            typed = self.pick(["", ", type_info=Types.TUPLE([Types.STRING(), Types.LONG()])",
                               ", type_info=Types.TUPLE([Types.STRING(), Types.LONG()])"])
            return "ds = env.from_collection(%r%s)" % (pairs, typed), kind
        if kind == "row":
            rows = ", ".join("Row(name=%r, n=%d)" % (self.pick(KEYS), v) for v in self.ints())
            return ("ds = env.from_collection([%s], type_info=Types.ROW_NAMED(['name', 'n'], "
                    "[Types.STRING(), Types.LONG()]))" % rows), kind
        if kind in ("order", "point", "reading"):
            cls = {"order": "Order", "point": "Point", "reading": "Reading"}[kind]
            values = ", ".join("%s(%r, %d)" % (cls, self.pick(KEYS), v) for v in self.ints())
            return "ds = env.from_collection([%s])" % values, kind
        if kind == "event":
            ts, events = 0, []
            for v in self.ints():
                ts += rng.choice([0, 40, 100, 250, 700])
                events.append((self.pick(KEYS), v, ts))
            disorder = rng.choice([0, 0, 300])
            if disorder:  # late by at most the bound: no record is dropped
                events = sorted(events, key=lambda e: e[2] + rng.randint(0, disorder))
                strategy = "WatermarkStrategy.for_bounded_out_of_orderness(" \
                           "Duration.of_millis(%d))" % (disorder + 1)
            else:
                strategy = "WatermarkStrategy.for_monotonous_timestamps()"
            return ("ds = env.from_collection(%r, type_info=Types.TUPLE([Types.STRING(), "
                    "Types.LONG(), Types.LONG()])).assign_timestamps_and_watermarks(%s"
                    ".with_timestamp_assigner(EventTime()))" % (events, strategy)), kind
        words = [self.pick(STRINGS) for _ in range(rng.randint(3, 8))]
        return "ds = env.from_collection(%r, type_info=Types.STRING())" % words, kind

    def generate(self, id: str) -> Pipeline:
        statement, kind = self.source()
        body, ordered = [statement], True
        for _ in range(self.rng.randint(1, 4)):
            self.kind = kind
            statement, kind, keeps_order = self.pick(self.steps[kind])()
            body.append(statement)
            ordered = ordered and keeps_order
        parallelism = self.pick([1, 1, 1, 2])
        if any(word in s for s in body for word in ("key_by", "window", "union")):
            # two subtasks feed a keyed operator in any interleaving: what a running
            # reduce emits is not deterministic
            parallelism = 1
        mode = self.pick(["STREAMING", "BATCH"])
        # BATCH sorts by key before keyed operators; two subtasks interleave their records
        ordered = ordered and parallelism == 1 and (
            mode == "STREAMING" or not any("key_by" in s or "window" in s for s in body))
        return Pipeline(id, mode, parallelism, tuple(body), ordered)

    # steps over ints
    def int_map(self) -> Step:
        k, c = self.pick([2, -1, 3]), self.pick([0, 1, -7])
        typed = self.pick(["", ", output_type=Types.LONG()"])
        return "ds = ds.map(lambda x: x * %d + %d%s)" % (k, c, typed), "int", True

    def int_map_function(self) -> Step:
        return "ds = ds.map(Scale(%d))" % self.pick([2, -3]), "int", True

    def int_filter(self) -> Step:
        m = self.pick([2, 3])
        return "ds = ds.filter(lambda x: x %% %d == %d)" % (m, self.rng.randrange(m)), \
            "int", True

    def int_flat_map(self) -> Step:
        how = self.pick(["Spread()", "lambda x: [x] * (x % 3)",
                         "lambda x: range(min(abs(x), 2))"])
        typed = self.pick(["", ", output_type=Types.INT()"]) if "Spread" not in how else ""
        return "ds = ds.flat_map(%s%s)" % (how, typed), "int", True

    def int_to_pair(self) -> Step:
        typed = self.pick(["", ", output_type=Types.TUPLE([Types.STRING(), Types.LONG()])"])
        return "ds = ds.map(lambda x: ('k%%d' %% (x %% 3), x)%s)" % typed, "pair", True

    def int_to_order(self) -> Step:
        return "ds = ds.map(lambda x: Order('o%d' % (x % 2), x))", "order", True

    def int_to_point(self) -> Step:
        return "ds = ds.map(lambda x: Point('p%d' % (abs(x) % 3), x))", "point", True

    def int_to_reading(self) -> Step:
        return "ds = ds.map(lambda x: Reading('r%d' % (x % 2), x))", "reading", True

    def int_keyed_reduce(self) -> Step:
        m = self.pick([2, 3])
        how = self.pick(["lambda a, b: a + b", "lambda a, b: max(a, b)"])
        return "ds = ds.key_by(lambda x: x %% %d).reduce(%s)" % (m, how), "int", True

    def int_side_output(self) -> Step:
        main = self.pick(["ds.process(SplitSign(), output_type=Types.INT())"])
        if self.rng.random() < 0.5:
            return "ds = %s.get_side_output(NEGATIVE)" % main, "int", True
        return "ds = %s" % main, "int", True

    def int_to_float(self) -> Step:
        typed = self.pick(["Types.FLOAT()", "Types.DOUBLE()", None])
        out = ", output_type=%s" % typed if typed else ""
        return "ds = ds.map(lambda x: x / 3%s)" % out, "float", True

    def int_to_string(self) -> Step:
        return "ds = ds.map(lambda x: 'v%d' % x, output_type=Types.STRING())", "str", True

    def int_union(self) -> Step:
        other = self.ints()
        return ("ds = ds.union(env.from_collection(%r, type_info=Types.INT()))" % other,
                "int", False)

    def int_raises(self) -> Step:
        return "ds = ds.map(lambda x: 100 // (x % 5))", "int", True

    def partitioning(self) -> Step:
        how = self.pick(["rebalance()", "shuffle()", "rescale()", "forward()",
                         "partition_custom(lambda k, n: 0, lambda x: 1)"])
        return "ds = ds.%s" % how, self.kind, True

    # steps over (key, value) pairs
    def pair_keyed_reduce(self) -> Step:
        how = self.pick(["Total()", "lambda a, b: (a[0], a[1] + b[1])",
                         "lambda a, b: (b[0], min(a[1], b[1]))"])
        return "ds = ds.key_by(lambda p: p[0]).reduce(%s)" % how, "pair", True

    def pair_keyed_function(self) -> Step:
        return ("ds = ds.key_by(lambda p: p[0]).map(lambda p: (p[0].upper(), p[1] * 2))",
                "pair", True)

    def pair_aggregation(self) -> Step:
        how = self.pick(["sum(1)", "min(1)", "max(1)", "min_by(1)", "max_by(1)"])
        return "ds = ds.key_by(lambda p: p[0]).%s" % how, "pair", True

    def pair_filter(self) -> Step:
        return "ds = ds.filter(lambda p: p[1] %s %d)" % (
            self.pick(["<", ">=", "!="]), self.pick([0, 3])), "pair", True

    def pair_map(self) -> Step:
        typed = self.pick(["", ", output_type=Types.TUPLE([Types.STRING(), Types.LONG()])"])
        return "ds = ds.map(lambda p: (p[0] + '!', -p[1])%s)" % typed, "pair", True

    def pair_count_per_key(self) -> Step:
        return ("ds = ds.key_by(lambda p: p[0]).process(CountPerKey(), "
                "output_type=Types.STRING())", "str", True)

    def pair_count_window(self) -> Step:
        size = self.pick([2, 3])
        slide = self.pick(["", ", 1"])
        return ("ds = ds.key_by(lambda p: p[0]).count_window(%d%s).reduce(Total())"
                % (size, slide), "pair", True)

    def pair_to_row(self) -> Step:
        return ("ds = ds.map(lambda p: Row(name=p[0], n=p[1]), output_type=Types.ROW_NAMED("
                "['name', 'n'], [Types.STRING(), Types.LONG()]))", "row", True)

    def pair_to_int(self) -> Step:
        return "ds = ds.map(lambda p: p[1], output_type=Types.LONG())", "int", True

    # steps over rows
    def row_filter(self) -> Step:
        return "ds = ds.filter(lambda r: r.n > %d)" % self.pick([0, 2]), "row", True

    def row_map(self) -> Step:
        return ("ds = ds.map(lambda r: Row(name=r.name * 2, n=r.n + 1), output_type="
                "Types.ROW_NAMED(['name', 'n'], [Types.STRING(), Types.LONG()]))", "row", True)

    def row_sum(self) -> Step:
        return "ds = ds.key_by(lambda r: r.name).sum('n')", "row", True

    def row_to_pair(self) -> Step:
        return ("ds = ds.map(lambda r: (r.name, r.n), output_type=Types.TUPLE("
                "[Types.STRING(), Types.LONG()]))", "pair", True)

    # steps over the program's own classes
    def order_map(self) -> Step:
        return "ds = ds.map(lambda o: Order(o.key.upper(), o.amount * 2))", "order", True

    def order_keyed_reduce(self) -> Step:
        return ("ds = ds.key_by(lambda o: o.key).reduce(lambda a, b: Order(a.key, "
                "a.amount + b.amount))", "order", True)

    def order_filter(self) -> Step:
        return "ds = ds.filter(lambda o: o.amount %% 2 == %d)" % self.rng.randrange(2), \
            "order", True

    def order_to_pair(self) -> Step:
        return ("ds = ds.map(lambda o: (o.key, o.amount), output_type=Types.TUPLE("
                "[Types.STRING(), Types.LONG()]))", "pair", True)

    def point_map(self) -> Step:
        return "ds = ds.map(lambda p: p._replace(x=p.x - 1))", "point", True

    def point_keyed_max(self) -> Step:
        return ("ds = ds.key_by(lambda p: p.key).reduce(lambda a, b: a if a.x >= b.x else b)",
                "point", True)

    def point_to_pair(self) -> Step:
        return "ds = ds.map(lambda p: (p.key, p.x))", "pair", True

    def reading_map(self) -> Step:
        return "ds = ds.map(lambda r: Reading(r.key, r.value * 10))", "reading", True

    def reading_keyed_reduce(self) -> Step:
        return ("ds = ds.key_by(lambda r: r.key).reduce(lambda a, b: Reading(a.key, "
                "a.value + b.value))", "reading", True)

    # steps over timestamped (key, value, ts) events
    def window_assigner(self) -> str:
        return self.pick(["TumblingEventTimeWindows.of(Time.milliseconds(%d))"
                          % self.pick([100, 500, 1000]),
                          "SlidingEventTimeWindows.of(Time.milliseconds(%d), "
                          "Time.milliseconds(%d))" % self.pick([(500, 250), (1000, 500),
                                                                (300, 100)]),
                          "EventTimeSessionWindows.with_gap(Time.milliseconds(%d))"
                          % self.pick([150, 400])])

    def window_function(self) -> Tuple[str, str]:
        return self.pick([
            ("reduce(lambda a, b: (a[0], a[1] + b[1], max(a[2], b[2])))", "event"),
            ("aggregate(CountAndSum(), output_type=Types.STRING())", "str"),
            ("process(Describe(), output_type=Types.STRING())", "str")])

    def event_window(self) -> Step:
        how, kind = self.window_function()
        return ("ds = ds.key_by(lambda e: e[0]).window(%s).%s" % (self.window_assigner(), how),
                kind, False)

    def event_window_all(self) -> Step:
        how = self.pick(["reduce(lambda a, b: ('all', a[1] + b[1], max(a[2], b[2])))",
                         "aggregate(CountAndSum(), output_type=Types.STRING())"])
        kind = "event" if how.startswith("reduce") else "str"
        return "ds = ds.window_all(%s).%s" % (self.window_assigner(), how), kind, False

    def event_timers(self) -> Step:
        return ("ds = ds.key_by(lambda e: e[0]).process(FireLater(%d), "
                "output_type=Types.STRING())" % self.pick([0, 100, 1000]), "str", False)

    def event_filter(self) -> Step:
        return "ds = ds.filter(lambda e: e[1] > 0)", "event", True

    # steps over floats and strings
    def float_map(self) -> Step:
        return "ds = ds.map(lambda f: f * 2.5)", "float", True

    def float_filter(self) -> Step:
        return "ds = ds.filter(lambda f: f > 0.5)", "float", True

    def str_map(self) -> Step:
        return "ds = ds.map(lambda s: s.upper() + '.', output_type=Types.STRING())", "str", True

    def str_filter(self) -> Step:
        return "ds = ds.filter(lambda s: len(s) > 1)", "str", True

    def str_flat_map(self) -> Step:
        return "ds = ds.flat_map(lambda s: s.split(), output_type=Types.STRING())", "str", True

    def str_keyed_count(self) -> Step:
        return ("ds = ds.map(lambda s: (s, 1), output_type=Types.TUPLE([Types.STRING(), "
                "Types.INT()])).key_by(lambda p: p[0]).sum(1)", "pair", True)


def pipelines(seed: int = 1, count: int = 500) -> List[Pipeline]:
    rng = random.Random(seed)
    generator = Pipelines(rng)
    return [generator.generate("p%04d" % n) for n in range(count)]


def run_on_pystream(pipeline: Pipeline) -> dict:
    """What the pipeline's program prints on pystream, run in this process as ``__main__``
    after the rename ``pyflink`` -> ``pystream``."""
    from tests.oracle.runner import run_source

    source = re.sub(r"\bpyflink\b", "pystream", program([pipeline]))
    return parse(run_source(source, "%s.py" % pipeline.id), [pipeline.id])[pipeline.id]


def finished(printed: str) -> List[str]:
    """The pipelines a program's output says ran to their end."""
    return [line[:-len(". done")] for line in printed.splitlines() if line.endswith(". done")]


def parse(printed: str, ids: List[str]) -> Dict[str, dict]:
    """A program's output by pipeline: {"lines": [...]} or {"error": exception name}."""
    results: Dict[str, dict] = {id: {"lines": []} for id in ids}
    for line in printed.splitlines():
        name, mark, rest = line.partition("| ")
        if mark and " " not in name:
            results.setdefault(name, {"lines": []})["lines"].append(rest)
            continue
        name, mark, rest = line.partition("! ")
        if mark and " " not in name:
            results[name] = {"error": rest}
    return results


def same(expected: dict, actual: dict, ordered: bool) -> bool:
    """Whether pystream printed what PyFlink printed: a failure for a failure (with the
    same exception where it is Python's own, as a user function raises it), else the same
    lines (in the same order where ``ordered``). Where PyFlink's job hung, pystream's
    ending is the answer."""
    if expected.get("error") == "Hangs":
        return True
    if "error" in expected or "error" in actual:
        if "error" not in expected or "error" not in actual:
            return False
        python_error = isinstance(getattr(builtins, expected["error"], None), type)
        return not python_error or expected["error"] == actual["error"]
    want, got = expected["lines"], actual["lines"]
    return want == got if ordered else sorted(want) == sorted(got)
