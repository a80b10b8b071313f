"""Configuration's values as its typed setters leave them: add_all_to_dict gives each key the
value its setter took (an int, a bool, a 32-bit float, bytes; a string for set_string), and
the typed getters and get_string read them back."""
# oracle: ordered
from pyflink.common import Configuration

conf = Configuration()
conf.set_integer("a.int", 3)
conf.set_boolean("a.bool", True)
conf.set_float("a.float", 0.1)
conf.set_string("a.str", "x")
conf.set_string("a.text-int", "7")
conf.set_bytearray("a.bytes", bytearray(b"ab"))
conf.set_integer("a.replaced", 1)
conf.set_string("a.replaced", "one")
values = {}
conf.add_all_to_dict(values)
for key in sorted(values):
    print(key, repr(values[key]), type(values[key]).__name__)
print(conf.get_integer("a.int", 0), conf.get_boolean("a.bool", False),
      conf.get_float("a.float", 0.0), conf.get_integer("a.text-int", 0))
print(conf.get_string("a.int", ""), conf.get_string("a.bool", ""),
      conf.get_string("a.float", ""), conf.get_string("a.replaced", ""))
copy = Configuration(conf)
copied = {}
copy.add_all_to_dict(copied)
print(sorted((k, type(v).__name__) for k, v in copied.items()))
merged = Configuration().add_all(conf, "p.")
into = {}
merged.add_all_to_dict(into)
print(sorted((k, type(v).__name__) for k, v in into.items()))
conf.remove_config("a.int")
left = {}
conf.add_all_to_dict(left)
print(sorted(left))
