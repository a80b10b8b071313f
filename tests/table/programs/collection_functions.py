"""Array, map, string, JSON and network functions of the Table API (Expression methods)
and of SQL. (A MAP_UNION's entries print in an order of Flink's own, so only its size and
sorted values are printed. PyFlink 2.3's Expression methods array_concat, array_distinct,
array_reverse, array_join, array_slice, array_sort and map_union fail in PyFlink itself:
those are called from SQL here.)"""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, lit

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
row = DataTypes.ROW([DataTypes.FIELD('id', DataTypes.INT()),
                     DataTypes.FIELD('xs', DataTypes.ARRAY(DataTypes.INT())),
                     DataTypes.FIELD('ys', DataTypes.ARRAY(DataTypes.INT())),
                     DataTypes.FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
                     DataTypes.FIELD('s', DataTypes.STRING())])
t = t_env.from_elements([(1, [3, 1, 2, 1], [2, 5], {'a': 1}, 'a,b,,c,'),
                         (2, [7, None, 7], [7], {'b': 2}, 'x=1;y=2'),
                         (3, [], [1], {}, 'https://flink.apache.org/a?k=v&q=9'),
                         (4, None, None, None, None)], row)
t_env.create_temporary_view('t', t)
xs, ys, m, s, i = col('xs'), col('ys'), col('m'), col('s'), col('id')

print('-- arrays (Table API)')
t.select(i, xs.array_append(9), xs.array_prepend(0), xs.array_remove(1),
         xs.array_position(7), xs.array_max(), xs.array_min()).execute().print()
t.select(i, xs.array_union(ys), xs.array_intersect(ys), xs.array_except(ys)).execute().print()
print('-- maps (Table API)')
t.select(i, m.map_keys, m.map_values, m.map_entries, lit('666C').unhex).execute().print()
print('-- strings (Table API)')
t.select(i, s.split(','), s.translate('ab', 'AB'), s.btrim('ah,'), s.regexp_count('[a-z]'),
         s.regexp_substr('[0-9]+'), s.regexp_instr('[0-9]'),
         s.regexp_extract_all('([a-z])=([0-9])'),
         s.regexp_extract_all('([a-z])=([0-9])', 2)).execute().print()
t.select(i, s.url_encode(), s.url_encode().url_decode(), s.parse_url('HOST'),
         s.parse_url('QUERY', 'k'), s.str_to_map(';', '='), s.str_to_map(),
         lit('%s-%d').printf(s, i), i.elt('one', 'two', 'three')).execute().print()
t.select(i, s.encode('UTF-8'), s.encode('UTF-8').decode('UTF-8'), s.is_json(),
         s.json_quote(), lit('"q\\"uoted"').json_unquote(), lit('[1, 2]').is_json(),
         lit('10.0.0.1').inet_aton(), lit(167772161).inet_ntoa(),
         lit('300.1.1.1').inet_aton()).execute().print()
print('-- arrays and maps (SQL)')
t_env.execute_sql(
    "SELECT id, ARRAY_CONCAT(xs, ys), ARRAY_DISTINCT(xs), ARRAY_REVERSE(xs), "
    "ARRAY_JOIN(ARRAY['x', CAST(NULL AS STRING), s], '-'), "
    "ARRAY_JOIN(ARRAY['x', CAST(NULL AS STRING), s], '-', 'null'), ARRAY_SLICE(xs, 2, 3), "
    "ARRAY_SLICE(xs, -2), ARRAY_SLICE(xs, 0, 1), ARRAY_SORT(xs), ARRAY_SORT(xs, FALSE), "
    "ARRAY_SORT(xs, TRUE, FALSE) FROM t").print()
t_env.execute_sql(
    "SELECT id, MAP_KEYS(m), MAP_VALUES(m), MAP_ENTRIES(m), "
    "CARDINALITY(MAP_UNION(m, MAP['b', 20, 'c', 3])), "
    "ARRAY_SORT(MAP_VALUES(MAP_UNION(m, MAP['b', 20, 'c', 3]))), "
    "ARRAY_APPEND(xs, 9), ARRAY_PREPEND(xs, 0), ARRAY_REMOVE(xs, 1), ARRAY_POSITION(xs, 7), "
    "ARRAY_MAX(xs), ARRAY_MIN(xs), ARRAY_UNION(xs, ys), ARRAY_INTERSECT(xs, ys), "
    "ARRAY_EXCEPT(xs, ys) FROM t").print()
print('-- strings (SQL)')
t_env.execute_sql(
    "SELECT id, SPLIT(s, ','), TRANSLATE(s, 'ab', 'AB'), BTRIM(s, 'ah,'), "
    "REGEXP_COUNT(s, '[a-z]'), REGEXP_SUBSTR(s, '[0-9]+'), REGEXP_INSTR(s, '[0-9]'), "
    "REGEXP_EXTRACT_ALL(s, '([a-z])=([0-9])', 1), URL_ENCODE(s), PARSE_URL(s, 'HOST'), "
    "PARSE_URL(s, 'QUERY', 'q'), STR_TO_MAP(s, ';', '='), PRINTF('%s-%d', s, id), "
    "ELT(id, 'one', 'two', 'three'), UNHEX('666C696E6B'), JSON_QUOTE(s), "
    "INET_NTOA(INET_ATON('192.168.0.1')) FROM t").print()
