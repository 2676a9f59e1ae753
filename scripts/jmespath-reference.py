#!/usr/bin/env python3
"""pick against the JMESPath reference implementation (the `jmespath` package).

  jmespath-reference.py generate N SEED     N random cases, one JSON line each: {"doc", "expr"}
                                            (doc is JSON text); seeded, so a case can be re-made
  jmespath-reference.py compare CASES RESULTS [--community]
                                            RESULTS has a line per case from vow: {"ok": VALUE} or
                                            {"error": KIND}; each is compared with what the
                                            reference gives; a line per disagreement, then
                                            `pick-reference: N agree, M differ (…)`; exit 1 if any
                                            differ. A case on which the reference raises a Python
                                            error instead of a JMESPath one is left out, counted.
                                            --community: the reference follows JMESPath Community
                                            where the generated expressions would see it differ
                                            (see below).

The generator writes documents of a few shapes (records of records, lists of records, scalars of
every type) and expressions over their keys: paths, indexes, slices, projections, flatten,
filters with comparisons and boolean operators, multiselects, pipes, literals and every function
of the specification, so that most expressions find something. Numbers compare as numbers (1 and
1.0 are the same); an error compares with an error. Two departures of the reference from the
specification are undone before it runs (see below).
"""
import json
import math
import random
import sys

import jmespath
from jmespath import ast as jmespath_ast
from jmespath import functions as jmespath_functions
from jmespath import parser as jmespath_parser
from jmespath import visitor as jmespath_visitor


# Two departures of the reference from the specification, undone here so that they do not count
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


# 2. A variadic function (`merge`) checks the type of its first argument only.
def _type_check(self, actual, signature, function_name):
    for i, arg in enumerate(actual):
        allowed = signature[min(i, len(signature) - 1)]["types"]
        if allowed:
            self._type_check_single(arg, allowed, function_name)


jmespath_parser.Parser._token_led_lbracket = _token_led_lbracket
jmespath_functions.Functions._type_check = _type_check


# With --community, the two places where JMESPath Community deliberately departs from the
# specification the reference follows, and that the generated expressions reach, are brought over:
#
# 1. A multiselect of null is a list or an object of nulls, not null (so that null flows through a
#    pipe into one: `null | [@]` is [null]).
# 2. A slice of a string is a string (by code point), and what follows the slice applies to that
#    string whole instead of projecting.
def _visit_multi_select_list(self, node, value):
    return [self.visit(child, value) for child in node["children"]]


def _visit_multi_select_dict(self, node, value):
    collected = self._dict_cls()
    for child in node["children"]:
        collected[child["value"]] = self.visit(child, value)
    return collected


def _visit_slice(self, node, value):
    if not isinstance(value, (list, str)):
        return None
    return value[slice(*node["children"])]


def _visit_projection(self, node, value):
    left, right = node["children"]
    base = self.visit(left, value)
    if isinstance(base, str) and left["type"] == "index_expression" and left["children"][-1]["type"] == "slice":
        return self.visit(right, base)
    if not isinstance(base, list):
        return None
    collected = []
    for element in base:
        current = self.visit(right, element)
        if current is not None:
            collected.append(current)
    return collected


def follow_community():
    interpreter = jmespath_visitor.TreeInterpreter
    interpreter.visit_multi_select_list = _visit_multi_select_list
    interpreter.visit_multi_select_dict = _visit_multi_select_dict
    interpreter.visit_slice = _visit_slice
    interpreter.visit_projection = _visit_projection

KEYS = ["a", "b", "c", "foo", "bar"]
STRINGS = ["a", "b", "foo", "", "Ab", "bar baz"]


def doc(r, depth=0):
    roll = r.random()
    if depth >= 3 or roll < 0.3:
        return r.choice([
            r.randint(-5, 20), r.randint(-5, 20), r.choice([1.5, -2.25, 0.5, 3.0, 1e3]),
            r.choice(STRINGS), r.choice(STRINGS), True, False, None])
    if roll < 0.65:
        return {k: doc(r, depth + 1) for k in r.sample(KEYS, r.randint(0, 4))}
    return [doc(r, depth + 1) for _ in range(r.randint(0, 4))]


def literal(r):
    return r.choice(["`1`", "`-2`", "`2.5`", '`"a"`', '`"foo"`', "`true`", "`false`", "`null`",
                     "`[1, 2]`", '`{"a": 1}`', "'foo'", "'a'", "''"])


def ident(r):
    k = r.choice(KEYS)
    return '"%s"' % k if r.random() < 0.1 else k


def cond(r, d):
    roll = r.random()
    if roll < 0.5:
        return "%s %s %s" % (expr(r, d + 1), r.choice(["==", "!=", "<", "<=", ">", ">="]),
                             r.choice([expr(r, d + 1), literal(r)]))
    if roll < 0.65:
        return "%s && %s" % (cond(r, d + 1), cond(r, d + 1))
    if roll < 0.8:
        return "%s || %s" % (cond(r, d + 1), cond(r, d + 1))
    if roll < 0.9:
        return "!%s" % expr(r, d + 1)
    return expr(r, d + 1)


FUNCTIONS1 = ["length", "keys", "values", "sort", "reverse", "type", "to_string", "to_number",
              "to_array", "max", "min", "sum", "avg", "abs", "floor", "ceil"]
FUNCTIONS2 = ["contains", "starts_with", "ends_with", "merge", "not_null"]
BY = ["sort_by", "max_by", "min_by"]


def expr(r, d=0):
    if d >= 4:
        return r.choice([ident(r), ident(r), "@", literal(r)])
    roll = r.random()
    if roll < 0.18:
        return ident(r)
    if roll < 0.3:
        return "%s.%s" % (expr(r, d + 1), ident(r))
    if roll < 0.38:
        return "%s[%d]" % (expr(r, d + 1), r.randint(-3, 3))
    if roll < 0.43:
        parts = [r.choice(["", str(r.randint(-3, 3))]) for _ in range(2)]
        step = r.choice(["", ":" + str(r.choice([-2, -1, 1, 2]))])
        return "%s[%s:%s%s]" % (expr(r, d + 1), parts[0], parts[1], step)
    if roll < 0.5:
        return "%s[*].%s" % (expr(r, d + 1), ident(r))
    if roll < 0.54:
        return "%s.*" % expr(r, d + 1)
    if roll < 0.58:
        return "%s[]" % expr(r, d + 1)
    if roll < 0.66:
        return "%s[?%s]" % (expr(r, d + 1), cond(r, d + 1))
    if roll < 0.7:
        return "[%s, %s]" % (expr(r, d + 1), expr(r, d + 1))
    if roll < 0.74:
        return "{x: %s, y: %s}" % (expr(r, d + 1), expr(r, d + 1))
    if roll < 0.78:
        return "%s | %s" % (expr(r, d + 1), expr(r, d + 1))
    if roll < 0.81:
        return "%s || %s" % (expr(r, d + 1), expr(r, d + 1))
    if roll < 0.83:
        return "%s && %s" % (expr(r, d + 1), expr(r, d + 1))
    if roll < 0.85:
        return "!%s" % expr(r, d + 1)
    if roll < 0.92:
        return "%s(%s)" % (r.choice(FUNCTIONS1), expr(r, d + 1))
    if roll < 0.96:
        return "%s(%s, %s)" % (r.choice(FUNCTIONS2), expr(r, d + 1), r.choice([expr(r, d + 1), literal(r)]))
    if roll < 0.98:
        return "%s(%s, &%s)" % (r.choice(BY), expr(r, d + 1), expr(r, d + 2))
    if roll < 0.99:
        return "map(&%s, %s)" % (expr(r, d + 2), expr(r, d + 1))
    return "join(', ', %s)" % expr(r, d + 1)


def generate(n, seed):
    for i in range(n):
        r = random.Random(seed * 1_000_003 + i)
        print(json.dumps({"doc": json.dumps(doc(r)), "expr": expr(r)}))


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
        return {"ok": jmespath.search(case["expr"], json.loads(case["doc"]))}
    except (jmespath.exceptions.ParseError, jmespath.exceptions.LexerError,
            jmespath.exceptions.IncompleteExpressionError):
        return {"error": "syntax"}
    except jmespath.exceptions.UnknownFunctionError:
        return {"error": "unknown-function"}
    except jmespath.exceptions.ArityError:
        return {"error": "invalid-arity"}
    except jmespath.exceptions.JMESPathTypeError:
        return {"error": "invalid-type"}
    except Exception as e:  # noqa: BLE001
        # Not a JMESPath error: the reference itself fails (a Python TypeError from comparing a
        # string with a number in `<`, which the specification says gives null; `contains` of
        # a string and a non-string). Such a case says nothing about vow.
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
    if len(sys.argv) == 4 and sys.argv[1] == "generate":
        generate(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "compare" and sys.argv[4:] in ([], ["--community"]):
        if sys.argv[4:]:
            follow_community()
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
