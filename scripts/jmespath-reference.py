#!/usr/bin/env python3
"""pick against JMESPath Community's reference implementation (the `jmespath-community` package).

Runs under the Python of .build/jmespath-venv, which scripts/setup makes: the package installs
itself as the module `jmespath`, as jmespath.org's `jmespath` does, so it has an environment of its
own (`scripts/setup` runs `python3 -m venv .build/jmespath-venv` and `pip install
jmespath-community` there).

  jmespath-reference.py generate N SEED [--classic]
                                            N random cases, one JSON line each: {"doc", "expr"}
                                            (doc is JSON text), and "ref" when the reference is
                                            to evaluate another spelling of expr; seeded, so a
                                            case can be re-made
  jmespath-reference.py compare CASES RESULTS [--classic]
                                            RESULTS has a line per case from vow: {"ok": VALUE} or
                                            {"error": KIND}; each is compared with what the
                                            reference gives; a line per disagreement, then
                                            `pick-reference: N agree, M differ (…)`; exit 1 if any
                                            differ. A case on which the reference raises a Python
                                            error instead of a JMESPath one is left out, counted.

The generator writes documents of a few shapes (records of records, lists of records, scalars of
every type) and expressions over their keys: paths, indexes, slices (of lists and strings),
projections, flatten, filters with comparisons and boolean operators, multiselects, pipes,
literals and raw strings, every function of the specification and of JMESPath Community,
arithmetic, `let` and its variables, `$`, and conditionals `c ? a : b` (which the reference, an
older release, does not read: it is given the equivalent `(c && [a] || [b])[0]`). Numbers compare
as numbers (1 and 1.0 are the same); an error compares with an error. Departures of the reference
from the specification are undone before it runs (see below).

--classic generates only jmespath.org's grammar and functions, and makes the reference follow
jmespath.org where Community changed the rules (a multiselect of null is null, a slice of a string
is null, a chain does not stop at null), for a JMESPath that has not moved to Community yet.
"""
import json
import math
import random
import sys

import jmespath
from jmespath import ast as jmespath_ast
from jmespath import exceptions as jmespath_exceptions
from jmespath import functions as jmespath_functions
from jmespath import parser as jmespath_parser
from jmespath import visitor as jmespath_visitor

if not hasattr(jmespath_visitor.TreeInterpreter, "visit_let_expression"):
    sys.exit("jmespath-reference.py: this Python's `jmespath` is not jmespath-community; run it with "
             ".build/jmespath-venv/bin/python (scripts/setup makes it)")


class NotANumber(jmespath_exceptions.JMESPathError):
    """Arithmetic on something other than numbers, or a division by zero."""


# Departures of the reference from the specification, undone here so that they do not count
# against vow (each found by this comparison; vow follows the specification):
#
# 1. A slice right after an index (`a[0][1:2].b`) is appended to the index expression (the
#    parser's "optimization") instead of starting a projection, so what follows applies to the
#    slice as a whole instead of to each of its elements.
def _token_led_lbracket(self, left):
    if self._lookahead_token(0)["type"] in ["number", "colon"]:
        return self._project_if_slice(left, self._parse_index_expression())
    self._match("star")
    self._match("rbracket")
    return jmespath_ast.projection(left, self._parse_projection_rhs(self.BINDING_POWER["star"]))


# 2. A variadic function (`merge`, `zip`) checks the type of its first argument only.
def _type_check(self, actual, signature, function_name):
    for i, arg in enumerate(actual):
        if i >= len(signature) and not signature[-1].get("variadic"):
            break
        allowed = self._get_allowed_types_from_signature(signature[min(i, len(signature) - 1)])
        if allowed:
            self._type_check_single(arg, allowed, function_name)


# 3. Arithmetic is Python's: it adds strings and lists, counts true as 1, and fails with a Python
#    error on null or a division by zero. JMESPath's arithmetic takes numbers only, and anything
#    else is a `not-a-number` error.
def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _visit_arithmetic(self, node, value):
    left = self.visit(node["children"][0], value)
    right = self.visit(node["children"][1], value)
    if not (_is_number(left) and _is_number(right)):
        raise NotANumber("arithmetic on %r and %r" % (left, right))
    if node["value"] in ("div", "divide", "modulo") and right == 0:
        raise NotANumber("division by zero")
    if node["value"] == "div" and (isinstance(left, float) or isinstance(right, float)):
        return math.floor(left / right)  # the quotient rounded down, as vow and JavaScript compute it
    return self._ARITHMETIC_FUNC[node["value"]](left, right)


def _visit_arithmetic_unary(self, node, value):
    operand = self.visit(node["children"][0], value)
    if not _is_number(operand):
        raise NotANumber("arithmetic on %r" % (operand,))
    return self._ARITHMETIC_UNARY_FUNC[node["value"]](operand)


# 4. `group_by` of an empty list is null; the specification says it returns an object.
_group_by = jmespath_functions.Functions.FUNCTION_TABLE["group_by"]["function"]


def _func_group_by(self, array, expref):
    return _group_by(self, array, expref) if array else {}


# 5. `from_items` reads its list with Python's `dict`: an element need not be a [string, value]
#    pair (an object of two members gives its two keys as a pair, a number becomes a key).
_from_items = jmespath_functions.Functions.FUNCTION_TABLE["from_items"]["function"]


def _func_from_items(self, items):
    for item in items:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            raise jmespath_exceptions.JMESPathTypeError("from_items", item, type(item).__name__, ["array"])
    return _from_items(self, items)


# 6. `*` as multiplication binds to its left with the power of `*` as a wildcard (20), not of the
#    other multiplicative operators (7), so `a / b * c` is `a / (b * c)`; the specification has
#    operators of one level apply from left to right. (And `a[*] * b` is a syntax error.)
def _left_power(self, token_type):
    return 7 if token_type == "star" else self.BINDING_POWER[token_type]


def _expression(self, binding_power=0):
    left_token = self._lookahead_token(0)
    self._advance()
    left = getattr(self, "_token_nud_%s" % left_token["type"], self._error_nud_token)(left_token)
    current_token = self._current_token()
    while binding_power < _left_power(self, current_token):
        led = getattr(self, "_token_led_%s" % current_token, None)
        if led is None:
            self._error_led_token(self._lookahead_token(0))
        self._advance()
        left = led(left)
        current_token = self._current_token()
    return left


_parse_projection_rhs = jmespath_parser.Parser._parse_projection_rhs


def _projection_rhs(self, binding_power):
    if self._current_token() == "star":
        return jmespath_ast.identity()
    return _parse_projection_rhs(self, binding_power)


jmespath_parser.Parser._token_led_lbracket = _token_led_lbracket
jmespath_parser.Parser._expression = _expression
jmespath_parser.Parser._parse_projection_rhs = _projection_rhs
jmespath_functions.Functions._type_check = _type_check
jmespath_functions.Functions.FUNCTION_TABLE["group_by"]["function"] = _func_group_by
jmespath_functions.Functions.FUNCTION_TABLE["from_items"]["function"] = _func_from_items
jmespath_visitor.TreeInterpreter.visit_arithmetic = _visit_arithmetic
jmespath_visitor.TreeInterpreter.visit_arithmetic_unary = _visit_arithmetic_unary


def classic_rules():
    """jmespath.org's rules where JMESPath Community changed them."""
    interpreter = jmespath_visitor.TreeInterpreter
    multi_list, multi_dict = interpreter.visit_multi_select_list, interpreter.visit_multi_select_dict
    interpreter.visit_multi_select_list = lambda self, node, value: (
        None if value is None else multi_list(self, node, value))
    interpreter.visit_multi_select_dict = lambda self, node, value: (
        None if value is None else multi_dict(self, node, value))
    slice_ = interpreter.visit_slice
    interpreter.visit_slice = lambda self, node, value: (
        None if isinstance(value, str) else slice_(self, node, value))

    def subexpression(self, node, value):
        for child in node["children"]:
            value = self.visit(child, value)
        return value
    interpreter.visit_subexpression = subexpression
    projection = interpreter.visit_projection

    def no_string_projection(self, node, value):
        base = self.visit(node["children"][0], value)
        if isinstance(base, str):
            return None
        return projection(self, node, value)
    interpreter.visit_projection = no_string_projection


KEYS = ["a", "b", "c", "foo", "bar"]
STRINGS = ["a", "b", "foo", "", "Ab", "bar baz", " pad ", "a,b,,c", "x-y-x"]


def doc(r, depth=0):
    roll = r.random()
    if depth >= 3 or roll < 0.3:
        return r.choice([
            r.randint(-5, 20), r.randint(-5, 20), r.choice([1.5, -2.25, 0.5, 3.0, 1e3]),
            r.choice(STRINGS), r.choice(STRINGS), True, False, None])
    if roll < 0.65:
        return {k: doc(r, depth + 1) for k in r.sample(KEYS, r.randint(0, 4))}
    return [doc(r, depth + 1) for _ in range(r.randint(0, 4))]


class Grammar:
    """Expressions as pairs: what vow reads, and what the reference reads (the same text except
    for conditionals, which the reference does not know)."""

    def __init__(self, r, classic):
        self.r = r
        self.classic = classic

    @staticmethod
    def fmt(template, *parts):
        return (template % tuple(p[0] for p in parts), template % tuple(p[1] for p in parts))

    @staticmethod
    def same(text):
        return (text, text)

    def literal(self):
        choices = ["`1`", "`-2`", "`2.5`", '`"a"`', '`"foo"`', "`true`", "`false`", "`null`",
                   "`[1, 2]`", '`{"a": 1}`', "'foo'", "'a'", "''"]
        if not self.classic:
            choices += [r"'a\\b'", r"'it\'s'", r"'\z'", "`0`", "`3`"]
        return self.same(self.r.choice(choices))

    def number(self):
        return self.same(self.r.choice(["`1`", "`2`", "`-3`", "`0`", "`2.5`", "`10`", "`0.5`"]))

    def field(self):
        k = self.r.choice(KEYS)
        return self.same('"%s"' % k if self.r.random() < 0.1 else k)

    def ident(self, scope):
        """A field, or where an expression may start, a variable in scope or `$`."""
        r = self.r
        if scope and r.random() < 0.25:
            return self.same("$" + r.choice(scope))
        if not self.classic and r.random() < 0.04:
            return self.same(r.choice(["$", "$.%s" % r.choice(KEYS)]))
        return self.field()

    def cond(self, d, scope):
        r = self.r
        roll = r.random()
        e = lambda: self.expr(d + 1, scope)
        if roll < 0.5:
            return self.fmt("%s " + r.choice(["==", "!=", "<", "<=", ">", ">="]) + " %s",
                            e(), r.choice([e(), self.literal()]))
        if roll < 0.65:
            return self.fmt("%s && %s", self.cond(d + 1, scope), self.cond(d + 1, scope))
        if roll < 0.8:
            return self.fmt("%s || %s", self.cond(d + 1, scope), self.cond(d + 1, scope))
        if roll < 0.9:
            return self.fmt("!%s", e())
        return e()

    FUNCTIONS1 = ["length", "keys", "values", "sort", "reverse", "type", "to_string", "to_number",
                  "to_array", "max", "min", "sum", "avg", "abs", "floor", "ceil"]
    FUNCTIONS2 = ["contains", "starts_with", "ends_with", "merge", "not_null"]
    BY = ["sort_by", "max_by", "min_by"]
    COMMUNITY1 = ["lower", "upper", "trim", "trim_left", "trim_right", "items", "from_items"]
    STRING_ARGS = ["' '", "'a'", "','", "'-'", "''", "'ab'", "'x'"]

    def community_function(self, d, scope):
        r = self.r
        e = lambda: self.expr(d + 1, scope)
        s = lambda: r.choice([e(), self.same("'%s'" % r.choice(STRINGS))])
        arg = lambda: self.same(r.choice(self.STRING_ARGS))
        count = lambda: self.same(r.choice(["`0`", "`1`", "`2`", "`-1`", "`1.5`", "`10`"]))
        roll = r.random()
        if roll < 0.2:
            name = r.choice(self.COMMUNITY1)
            if name.startswith("trim") and r.random() < 0.5:
                return self.fmt(name + "(%s, %s)", s(), arg())
            if name == "from_items" and r.random() < 0.7:
                return self.fmt("from_items(items(%s))", r.choice([e(), self.same("@")]))
            if name == "items":
                return self.fmt("items(%s)", r.choice([e(), self.same("@")]))
            return self.fmt(name + "(%s)", s())
        if roll < 0.35:
            if r.random() < 0.5:
                return self.fmt("split(%s, %s)", s(), arg())
            return self.fmt("split(%s, %s, %s)", s(), arg(), count())
        if roll < 0.5:
            if r.random() < 0.5:
                return self.fmt("replace(%s, %s, %s)", s(), arg(), arg())
            return self.fmt("replace(%s, %s, %s, %s)", s(), arg(), arg(), count())
        if roll < 0.62:
            name = r.choice(["pad_left", "pad_right"])
            if r.random() < 0.5:
                return self.fmt(name + "(%s, %s)", s(), count())
            return self.fmt(name + "(%s, %s, %s)", s(), count(), arg())
        if roll < 0.78:
            name = r.choice(["find_first", "find_last"])
            n = r.randint(0, 2)
            extra = [self.same(r.choice(["`0`", "`1`", "`-2`", "`3`", "`-10`", "`10`"])) for _ in range(n)]
            return self.fmt(name + "(%s, %s" + ", %s" * n + ")", s(), arg(), *extra)
        listy = lambda: r.choice([e(), self.same("@"), self.fmt("[%s, %s]", e(), e()), self.fmt("values(%s)", e())])
        if roll < 0.88:
            return self.fmt("zip(%s, %s)", listy(), listy())
        key = r.choice([self.expr(d + 2, scope), self.field(), self.fmt("to_string(%s)", self.field())])
        return self.fmt("group_by(%s, &%s)", listy(), key)

    def arithmetic(self, d, scope):
        r = self.r
        # Mostly numbers, so that most cases compute something.
        operand = lambda: r.choice([self.number(), self.number(), self.number(), self.ident(scope),
                                    self.expr(d + 1, scope), self.fmt("length(%s)", self.expr(d + 1, scope))])
        roll = r.random()
        if roll < 0.15:
            return self.fmt(r.choice(["-", "+", "\u2212"]) + "%s", operand())
        op = r.choice(["+", "-", "*", "/", "%", "//", "\u00d7", "\u00f7", "\u2212"])
        return self.fmt("%s " + op.replace("%", "%%") + " %s", operand(), operand())

    def let(self, d, scope):
        r = self.r
        names = r.sample(["x", "y", "foo"], r.randint(1, 2))
        bindings = [self.expr(d + 1, scope) for _ in names]
        body = self.expr(d + 1, scope + names)
        parts = ["$%s = %%s" % n for n in names]
        return self.fmt("let " + ", ".join(parts) + " in %s", *(bindings + [body]))

    def conditional(self, d, scope):
        # The condition and the false branch in parentheses: unwrapped, a pipe in them would take
        # the conditional in, where the reference's spelling keeps it out.
        c, a, b = self.cond(d + 1, scope), self.expr(d + 1, scope), self.expr(d + 1, scope)
        return ("((%s) ? %s : (%s))" % (c[0], a[0], b[0]), "((%s) && [%s] || [%s])[0]" % (c[1], a[1], b[1]))

    def expr(self, d=0, scope=()):
        r = self.r
        scope = list(scope)
        if d >= 4:
            return r.choice([self.ident(scope), self.ident(scope), self.same("@"), self.literal()])
        e = lambda: self.expr(d + 1, scope)
        if not self.classic:
            roll = r.random()
            if roll < 0.06:
                return self.arithmetic(d, scope)
            if roll < 0.1:
                return self.let(d, scope)
            if roll < 0.13:
                return self.conditional(d, scope)
            if roll < 0.2:
                return self.community_function(d, scope)
        roll = r.random()
        if roll < 0.18:
            return self.ident(scope)
        if roll < 0.3:
            return self.fmt("%s.%s", e(), self.field())
        if roll < 0.38:
            return self.fmt("%s[" + str(r.randint(-3, 3)) + "]", e())
        if roll < 0.43:
            parts = [r.choice(["", str(r.randint(-3, 3))]) for _ in range(2)]
            step = r.choice(["", ":" + str(r.choice([-2, -1, 1, 2]))])
            return self.fmt("%s[" + parts[0] + ":" + parts[1] + step + "]", e())
        if roll < 0.5:
            return self.fmt("%s[*].%s", e(), self.field())
        if roll < 0.54:
            return self.fmt("%s.*", e())
        if roll < 0.58:
            return self.fmt("%s[]", e())
        if roll < 0.66:
            return self.fmt("%s[?%s]", e(), self.cond(d + 1, scope))
        if roll < 0.7:
            return self.fmt("[%s, %s]", e(), e())
        if roll < 0.74:
            return self.fmt("{x: %s, y: %s}", e(), e())
        if roll < 0.78:
            return self.fmt("%s | %s", e(), e())
        if roll < 0.81:
            return self.fmt("%s || %s", e(), e())
        if roll < 0.83:
            return self.fmt("%s && %s", e(), e())
        if roll < 0.85:
            return self.fmt("!%s", e())
        if roll < 0.92:
            return self.fmt(r.choice(self.FUNCTIONS1) + "(%s)", e())
        if roll < 0.96:
            return self.fmt(r.choice(self.FUNCTIONS2) + "(%s, %s)", e(), r.choice([e(), self.literal()]))
        if roll < 0.98:
            return self.fmt(r.choice(self.BY) + "(%s, &%s)", e(), self.expr(d + 2, scope))
        if roll < 0.99:
            return self.fmt("map(&%s, %s)", self.expr(d + 2, scope), e())
        return self.fmt("join(', ', %s)", e())


def generate(n, seed, classic):
    for i in range(n):
        r = random.Random(seed * 1_000_003 + i)
        document = doc(r)
        vow, ref = Grammar(r, classic).expr()
        case = {"doc": json.dumps(document), "expr": vow}
        if ref != vow:
            case["ref"] = ref
        print(json.dumps(case, ensure_ascii=False))


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or (math.isfinite(a) and math.isfinite(b) and abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def reference(case):
    try:
        return {"ok": jmespath.search(case.get("ref", case["expr"]), json.loads(case["doc"]))}
    except (jmespath_exceptions.ParseError, jmespath_exceptions.LexerError,
            jmespath_exceptions.IncompleteExpressionError):
        return {"error": "syntax"}
    except jmespath_exceptions.UnknownFunctionError:
        return {"error": "unknown-function"}
    except jmespath_exceptions.ArityError:
        return {"error": "invalid-arity"}
    except jmespath_exceptions.JMESPathTypeError:
        return {"error": "invalid-type"}
    except jmespath_exceptions.JMESPathValueError:
        return {"error": "invalid-value"}
    except jmespath_exceptions.UndefinedVariable:
        return {"error": "undefined-variable"}
    except NotANumber:
        return {"error": "not-a-number"}
    except Exception as e:  # noqa: BLE001
        # Not a JMESPath error: the reference itself fails (a Python TypeError from comparing a
        # string with a number in `<`, which the specification says gives null; `contains` of
        # a string and a non-string; `from_items` of something other than pairs; a pad that is
        # not one character). Such a case says nothing about vow.
        return {"crash": "%s: %s" % (type(e).__name__, e)}


def compare(cases_path, results_path):
    agree = differ = crashed = 0
    with open(cases_path) as cf, open(results_path) as rf:
        for n, (cl, rl) in enumerate(zip(cf, rf), 1):
            case, got = json.loads(cl), json.loads(rl)
            want = reference(case)
            if "crash" in want:
                crashed += 1
                continue
            if "error" in want and "error" in got:
                ok = True  # both refuse; the kinds are the compliance suite's business
            elif "ok" in want and "ok" in got:
                ok = same(want["ok"], got["ok"])
            else:
                ok = False
            if ok:
                agree += 1
            else:
                differ += 1
                print("case %d: pick %s on %s: vow %s, reference %s" % (
                    n, case["expr"], case["doc"], json.dumps(got), json.dumps(want)))
    print("pick-reference: %d agree, %d differ (and %d the reference cannot evaluate: a Python error, "
          "not a JMESPath one)" % (agree, differ, crashed))
    return 1 if differ else 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--classic"]
    if "--classic" in sys.argv:
        classic_rules()
    if len(args) == 3 and args[0] == "generate":
        generate(int(args[1]), int(args[2]), "--classic" in sys.argv)
    elif len(args) == 3 and args[0] == "compare":
        sys.exit(compare(args[1], args[2]))
    else:
        sys.exit(__doc__)
