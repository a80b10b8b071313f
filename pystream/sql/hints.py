"""Flink's SQL hints: ``/*+ ... */`` after SELECT (query hints: join strategies, STATE_TTL,
LOOKUP, MULTI_JOIN) or after a table's name (table hints: dynamic table options,
``OPTIONS('k'='v')``).

sqlglot reads a hint after a table's name as a plain comment and a second hint block, or hints
without a comma between them, as nothing wrong. So the statement's text is read here first
(``marked``): each hint block is parsed by Flink's grammar (a list of ``NAME`` or
``NAME(options)``, separated by commas; options are names or ``'key' = 'value'`` pairs) and
replaced by a marker sqlglot keeps on the node it belongs to: the SELECT's hint, or a comment
on the table. ``query_hints`` and ``table_hints`` read them back from the parsed nodes.
"""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Callable, Collection, Dict, List, Optional, Sequence, Tuple

from sqlglot import exp
from sqlglot.tokens import Token, TokenType

from pystream.common.time import duration_millis
from pystream.sql.dialect import Flink
from pystream.util.exceptions import ValidationException

__all__ = ["Hint", "marked", "query_hints", "table_hints", "dynamic_options",
           "check_query_hints"]

_QUERY_MARKER = "PYSTREAM_HINTS"
_TABLE_MARKER = "pystream-table-hints:"
# the tokens after which a name is a table's (FROM t, JOIN t, INTO t, a FROM list's t, TABLE t)
_BEFORE_TABLE = {TokenType.FROM, TokenType.JOIN, TokenType.INTO, TokenType.COMMA,
                 TokenType.TABLE, TokenType.DOT}
_NAMES = {TokenType.VAR, TokenType.IDENTIFIER}
JOIN_STRATEGIES = ("BROADCAST", "SHUFFLE_HASH", "SHUFFLE_MERGE", "NEST_LOOP")
QUERY_HINTS = JOIN_STRATEGIES + ("LOOKUP", "STATE_TTL", "MULTI_JOIN")


@dataclass(frozen=True)
class Hint:
    """One hint: its name (upper case) and its options, either names (``BROADCAST(t1, t2)``)
    or key-value pairs in the order written (``OPTIONS('k'='v')``)."""

    name: str
    names: Tuple[str, ...] = ()
    pairs: Tuple[Tuple[str, str], ...] = ()

    def __str__(self) -> str:
        options = list(self.names) + ["%s=%s" % kv for kv in self.pairs]
        return "%s(%s)" % (self.name, ", ".join(options)) if options else self.name


ParseError = Callable[[str, int], Exception]  # (message, offset in the text) -> the error


def marked(sql: str, tokens: Sequence[Token], error: ParseError) -> str:
    """``sql`` with each hint block replaced by its marker (the same lines, so that later
    errors point where they did); ``error`` makes the exception of a block Flink's parser
    refuses (a hint anywhere but after SELECT or a table's name, two blocks, no comma)."""
    pieces, done = [], 0
    for i, token in enumerate(tokens):
        after = tokens[i + 1].start if i + 1 < len(tokens) else len(sql)
        blocks = _hint_blocks(sql, token.end + 1, after)
        if not blocks:
            continue
        start, end = blocks[0]
        if len(blocks) > 1 or not (token.token_type == TokenType.SELECT
                                   or _names_a_table(tokens, i)):
            raise error('Encountered "/*+"', blocks[-1 if len(blocks) > 1 else 0][0])
        hints = _parse_block(sql, start + 3, end - 2, error)
        lines = "\n" * sql.count("\n", token.end + 1, end)
        if token.token_type == TokenType.SELECT:
            marker = " /*+ %s('%s') %s*/" % (_QUERY_MARKER, _encoded(hints), lines)
        else:  # on the table's line, where sqlglot keeps a comment on the table
            marker = " /* %s%s */%s" % (_TABLE_MARKER, _encoded(hints), lines)
        pieces.append(sql[done:token.end + 1] + marker)
        done = end
    return "".join(pieces) + sql[done:]


def query_hints(select: exp.Expression) -> List[Hint]:
    """The hints of a SELECT's block (``marked`` put them there)."""
    block = select.args.get("hint")
    if block is None:
        return []
    return [h for e in block.expressions if isinstance(e, exp.Anonymous)
            and e.name.upper() == _QUERY_MARKER for h in _decoded(e.expressions[0].name)]


def table_hints(table: exp.Expression) -> List[Hint]:
    """The hints written after a table's name (``marked`` put them in its comments)."""
    return [h for c in table.comments or () if c.strip().startswith(_TABLE_MARKER)
            for h in _decoded(c.strip()[len(_TABLE_MARKER):])]


def dynamic_options(found: Sequence[Hint], enabled: bool) -> Optional[Dict[str, str]]:
    """The options a table's hints add to its own for one query (None: no hint): the first
    OPTIONS hint's, the last value of a key given twice; ``enabled`` is
    ``table.dynamic-table-options.enabled``."""
    if not found:
        return None
    for hint in found:
        if hint.name != "OPTIONS":
            raise _unknown(hint)
    if not enabled:
        raise ValidationException(
            "The 'OPTIONS' hint is allowed only when the config option "
            "'table.dynamic-table-options.enabled' is set to true.")
    return dict(found[0].pairs)


def check_query_hints(found: Sequence[Hint], inputs: Collection[str], joins: bool,
                      aggregates: bool) -> None:
    """Flink's checks of a query block's hints: known names, the form of their options, and
    the tables they name among the block's ``inputs`` (their aliases, else their names)
    where the block has what they apply to (a join for join hints and LOOKUP, a join or an
    aggregate for STATE_TTL; elsewhere Flink ignores them). pystream plans joins and state
    its own way: the hints are checked, not followed."""
    unmatched = []
    for hint in found:
        if hint.name not in QUERY_HINTS:
            raise _unknown(hint)
        if hint.name == "STATE_TTL":
            if hint.names:
                raise ValidationException("Invalid list options in STATE_TTL hint, only "
                                          "support key-value options.")
            for _, value in hint.pairs:
                _state_ttl_millis(value)
            named = [key for key, _ in hint.pairs] if joins or aggregates else []
        elif hint.name == "LOOKUP":
            named = [value for key, value in hint.pairs if key == "table"] if joins else []
        else:
            if hint.pairs or not hint.names:
                raise ValidationException(
                    "Invalid hint: %s, expecting at least one table or view specified in "
                    "hint %s." % (hint, hint.name))
            named = list(hint.names) if joins else []
        unmatched += ["`%s` in `%s`" % (name, hint.name) for name in named
                      if name not in inputs]
    if unmatched:
        raise ValidationException("The options of following hints cannot match the name of "
                                  "input tables or views: \n%s" % "\n".join(unmatched))


def _state_ttl_millis(value: str) -> int:
    try:
        return duration_millis(value)
    except ValueError:
        raise ValidationException(
            "Invalid STATE_TTL hint value: text does not start with a number, and is not a "
            "valid ISO-8601 duration format: %s" % value) from None


def _unknown(hint: Hint) -> ValidationException:
    return ValidationException("Hint: %s should be registered in the HintStrategyTable"
                               % hint.name)


def _names_a_table(tokens: Sequence[Token], i: int) -> bool:
    """Whether ``tokens[i]`` ends a table's name (``FROM db.t``), not an alias."""
    return tokens[i].token_type in _NAMES and i > 0 and \
        tokens[i - 1].token_type in _BEFORE_TABLE


def _hint_blocks(sql: str, start: int, end: int) -> List[Tuple[int, int]]:
    """The ``/*+ ... */`` blocks (start, end offsets) in the text between two tokens, which
    holds only blanks and comments."""
    blocks, i = [], start
    while i < end:
        if sql.startswith("--", i):
            newline = sql.find("\n", i, end)
            i = end if newline < 0 else newline + 1
        elif sql.startswith("/*", i):
            close = sql.find("*/", i + 2, end)
            close = end if close < 0 else close + 2
            if sql.startswith("/*+", i):
                blocks.append((i, close))
            i = close
        else:
            i += 1
    return blocks


def _parse_block(sql: str, start: int, end: int, error: ParseError) -> List[Hint]:
    """The hints of a block's text ``sql[start:end]``, by Flink's grammar."""
    tokens = Flink().tokenize(sql[start:end])

    def fail(token: Optional[Token]):
        if token is None:
            return error("Encountered \"*/\"", end)
        return error('Encountered "%s"' % token.text, start + token.start)

    hints, i = [], 0
    while True:
        if i >= len(tokens) or tokens[i].token_type in (TokenType.COMMA, TokenType.L_PAREN,
                                                         TokenType.R_PAREN, TokenType.STRING):
            raise fail(tokens[i] if i < len(tokens) else None)
        name, names, pairs = tokens[i].text.upper(), [], []
        i += 1
        if i < len(tokens) and tokens[i].token_type == TokenType.L_PAREN:
            i += 1
            while i < len(tokens) and tokens[i].token_type != TokenType.R_PAREN:
                key, i = _option_name(tokens, i)
                if i < len(tokens) and tokens[i].token_type == TokenType.EQ:
                    if i + 1 >= len(tokens):
                        raise fail(None)
                    pairs.append((key, tokens[i + 1].text))
                    i += 2
                else:
                    names.append(key)
                if i < len(tokens) and tokens[i].token_type == TokenType.COMMA:
                    i += 1
                elif i < len(tokens) and tokens[i].token_type != TokenType.R_PAREN:
                    raise fail(tokens[i])
            if i >= len(tokens):
                raise fail(None)
            i += 1
        hints.append(Hint(name, tuple(names), tuple(pairs)))
        if i >= len(tokens):
            return hints
        if tokens[i].token_type != TokenType.COMMA:
            raise fail(tokens[i])
        i += 1


def _option_name(tokens: Sequence[Token], i: int) -> Tuple[str, int]:
    """A (possibly qualified) name or a string at ``tokens[i]``; the index after it."""
    parts = [tokens[i].text]
    i += 1
    while i + 1 < len(tokens) and tokens[i].token_type == TokenType.DOT:
        parts.append(tokens[i + 1].text)
        i += 2
    return ".".join(parts), i


def _encoded(hints: List[Hint]) -> str:
    text = json.dumps([[h.name, list(h.names), [list(kv) for kv in h.pairs]] for h in hints])
    return base64.b32encode(text.encode()).decode().rstrip("=")


def _decoded(text: str) -> List[Hint]:
    padded = text + "=" * (-len(text) % 8)
    return [Hint(name, tuple(names), tuple(tuple(kv) for kv in pairs))
            for name, names, pairs in json.loads(base64.b32decode(padded).decode())]
