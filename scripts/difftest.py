#!/usr/bin/env python3
"""Differential test of vow's evaluation order against node.

A seeded generator writes random vow programs over the offline stages and, independently of vow's
own emitter, their JavaScript twin (docs/javascript-twin.md). Each program is run three ways:

  vow      VOW --js prog.vow
  twin     node twin.js                 (this file's translation)
  emitted  node emitted.js              (what VOW --emit-js prog.vow writes, when it works)

and the three must agree on stdout (job notices `[N] …` ignored), on the exit status, and on the
unhandled rejection that ends a program, if one does: node's report on stderr (the reason, as
node inspects it, after its arrow and before its version line) against vow's (after the `let`
statement's place), compared with the fields vow's twin alone notes (`stage`, `at`, `skipped`)
left out and spaces squeezed, since this file's twin does not note them.

Timers cannot make a program flaky: the generator computes, for every way the program can go
(a race or any whose winners settle in the same instant may go either way, decided by the
microtask order that is under test), when each timer fires, and re-draws durations until every
two deadlines differ by at least 20ms and the last one fires within 300ms.

Usage: scripts/difftest N [SEED] [-j JOBS] [--out DIR] [--profile full|basic] [--node processes|workers] [--keep]
       scripts/difftest --show SEED [--profile …]       print the program and its twin
       scripts/difftest --minimise SEED [--profile …]   shrink a disagreement, print the result
       scripts/difftest --file prog.vow                 run one hand-written program three ways
                                                        (the twin is not available then)
"""

import argparse
import concurrent.futures
import copy
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

TIME_LIMIT = 10.0          # seconds per run of a program
MAX_WAIT_MS = 300          # the last timer fires by then
MIN_GAP_MS = 40          # two timer deadlines differ by at least this much
DURATIONS = [20, 40, 60, 80, 100, 120]
MAX_WORLDS = 16            # ways a program can go (race/any ties); more is re-drawn

# ---------------------------------------------------------------------------------------------
# The program tree


class Stage:
    """One stage. kind is one of: resolve reject echo print delay group call then catch finally
    tap all race any settle each var if do promise null (the value `null`, only under `await`)."""

    def __init__(self, kind, **kw):
        self.kind = kind
        self.val = kw.get("val")          # resolve/echo/delay value (NOVAL = none), reject message
        self.label = kw.get("label")      # print
        self.ms = kw.get("ms")            # delay
        self.pipe = kw.get("pipe")        # group body
        self.handler = kw.get("handler")  # then/catch/finally/tap: a Stage or None (bare catch)
        self.elems = kw.get("elems")      # all/race/any/settle: list of pipelines
        self.name = kw.get("name")        # call: def name; var: variable name
        self.arg = kw.get("arg", NOVAL)   # call argument
        self.items = kw.get("items")      # each: the list it maps (its body is `pipe`)
        self.limit = kw.get("limit")      # each: --limit, or None for the default (16)
        self.yes = kw.get("yes", NOVAL)   # if: the branch when '@' holds (a group Stage or a value)
        self.no = kw.get("no", NOVAL)     # if: the else branch, or NOVAL for none
        # do/promise: the pipelines started at once are `elems`, the last argument is `yes`
        self.awaits = kw.get("awaits", False)  # a step of an async def body written `await STAGE`


class _NoVal:
    def __repr__(self):
        return "NOVAL"

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


NOVAL = _NoVal()


class Param:
    """`$a` inside a def body."""

    def __init__(self, name):
        self.name = name


class Program:
    def __init__(self):
        self.defs = []    # (name, param or None, pipe)
        self.async_defs = set()   # names of the defs written `async def` (body steps may await)
        self.stmts = []   # (kind: bg|await|let, pipe, varname or None)


SYNC = {"resolve", "reject", "echo", "print"}
ASYNC = {"delay", "group", "call", "all", "race", "any", "settle", "each", "promise"}
COMBINATORS = {"all", "race", "any", "settle"}


def is_async(st):
    if st.kind == "then":
        return is_async(st.handler)
    if st.kind == "do":
        return isinstance(st.yes, Stage)
    return st.kind in ASYNC


# ---------------------------------------------------------------------------------------------
# Rendering as vow


def vval(v):
    if isinstance(v, Param):
        return "$" + v.name
    if v is None:
        return "null"
    return str(v)


def vow_stage(st):
    k = st.kind
    if k in ("resolve", "echo"):
        return k if st.val is NOVAL else f"{k} {vval(st.val)}"
    if k == "reject":
        return f"reject {st.val}"
    if k == "print":
        return f"print {st.label}"
    if k == "delay":
        return f"delay {st.ms}ms" if st.val is NOVAL else f"delay {st.ms}ms {vval(st.val)}"
    if k == "group":
        return "(" + vow_pipe(st.pipe) + ")"
    if k == "call":
        return st.name if st.arg is NOVAL else f"{st.name} {vval(st.arg)}"
    if k == "then2":
        # then (A) (B): a handler for each outcome.
        return f"then ({vow_pipe(st.pipe)}) ({vow_pipe(st.elems[0])})"
    if k in ("then", "finally", "tap", "thenable"):
        return f"{k} {vow_stage(st.handler)}"
    if k == "catch":
        return "catch" if st.handler is None else f"catch {vow_stage(st.handler)}"
    if k in COMBINATORS:
        return k + " [" + ", ".join(vow_pipe(p) for p in st.elems) + "]"
    if k == "each":
        # A group: the list, then each over it.
        limit = "" if st.limit is None else f" --limit {st.limit}"
        return "(echo [" + ", ".join(vval(x) for x in st.items) + "] | each (" + vow_pipe(st.pipe) + ")" + limit + ")"
    if k == "var":
        return "$" + st.name
    if k == "if":
        # if '@' THEN [else ELSE]: a branch is a group or a plain value.
        out = "if '@' " + vow_branch(st.yes)
        return out if st.no is NOVAL else out + " else " + vow_branch(st.no)
    if k in ("do", "promise"):
        # A final stage (`do (A) reject e`) runs in the handler's turn; a group is adopted.
        last = vow_stage(st.handler) if st.handler is not None else vow_branch(st.yes)
        return k + "".join(" (" + vow_pipe(p) + ")" for p in st.elems) + " " + last
    if k == "null":
        return "null"
    raise ValueError(k)


def vow_branch(b):
    return "(" + vow_pipe(b.pipe) + ")" if isinstance(b, Stage) else vval(b)


def vow_pipe(p):
    return " | ".join(vow_stage(s) for s in p)


def vow_program(prog):
    lines = []
    for name, param, body in prog.defs:
        head = name if param is None else f"{name}({param})"
        if name in prog.async_defs:
            steps = " | ".join(("await " if st.awaits else "") + vow_stage(st) for st in body)
            lines.append(f"async def {head}() = {steps}" if param is None else f"async def {head} = {steps}")
        else:
            lines.append(f"def {head} = {vow_pipe(body)}")
    for kind, p, var in prog.stmts:
        if kind == "bg":
            lines.append(vow_pipe(p) + " &")
        elif kind == "await":
            lines.append(vow_pipe(p))
        else:
            lines.append(f"let {var} = {vow_pipe(p)}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# The JavaScript twin (this file's own prelude and translation, after docs/javascript-twin.md)

PRELUDE = r'''"use strict";
// JavaScript twin written by scripts/difftest.py (its own prelude, not vow's emitter).
// No unhandledRejection handler: a `let` that rejects with nothing waiting on it ends the
// program with node's report and status 1, as it ends vow --js.
const say = (s) => { process.stdout.write(s + "\n"); };
const show = (v) => (typeof v === "string" ? v : JSON.stringify(v === undefined ? null : v, null, 2));
// print LABEL: writes LABEL at once and passes the input on.
const pr = (label, v) => { say(label); return v; };
// reject E: an error record.
// Its `stack` (not enumerable) makes node's report of an unhandled rejection show the record.
const err = (m) => Object.defineProperty({ kind: "user", message: m }, "stack", { value: "error: " + m });
// A first stage that finishes at once: its value, or its throw as a rejection.
const start = (f, v) => { try { return Promise.resolve(f(v)); } catch (e) { return Promise.reject(e); } };
const delay = (ms, x) => new Promise((r) => setTimeout(() => r(x), ms));
// A throw as an expression (the final stage of `do` that rejects).
const raise = (e) => { throw e; };
// thenable S: an object with a then method (no promise) that resolves with S's value.
const thenable = (f) => ({ then(r, j) { let x; try { x = f(); } catch (e) { j(e); return; } r(x); } });
// finally S, with finally's exact turns.
const fin = (h) => [(v) => Promise.resolve(h(v)).then(() => v), (e) => Promise.resolve(h(e)).then(() => { throw e; })];
// each: f on every element, at most limit at once (the next starts when one settles), results
// in order; the first rejection rejects and starts no more (the ones running run on). An empty
// list is a plain value.
const each = (xs, limit, f) => {
  if (xs.length === 0) return [];
  return new Promise((resolve, reject) => {
    const out = [];
    let next = 0, settled = 0, failed = false;
    const launch = () => {
      if (failed || next >= xs.length) return;
      const i = next++;
      f(xs[i]).then((r) => {
        out[i] = r;
        settled++;
        if (settled === xs.length) resolve(out); else launch();
      }, (e) => { if (!failed) { failed = true; reject(e); } });
    };
    for (let k = 0; k < Math.min(limit, xs.length); k++) launch();
  });
};
// if '@': JMESPath's truthiness (false, null, "", [] and {} are false; 0 is true). An error is a
// record with fields in vow (an AggregateError has none of its own here): it holds.
const holds = (r) => r instanceof Error || !(r === false || r === null || r === undefined || r === "" || (Array.isArray(r) && r.length === 0)
  || (typeof r === "object" && r !== null && !Array.isArray(r) && Object.keys(r).length === 0));
// P & : nothing waits for it; a rejection makes the exit status 1.
// (`scaffold` marks the one promise a piece of the twin's scaffolding makes next: the turns
// recorder, scripts/difftest-turns.js, leaves its jobs out, as vow leaves out its own.)
const job = (p) => { globalThis.scaffold = 1; p.catch(() => { process.exitCode = 1; }); };
// Warm-up: the first write to stdout and the first timer load parts of node that take
// milliseconds (tens under load); done here, they cannot delay timers set in the first instant.
process.stdout; process.stderr; clearTimeout(setTimeout(() => {}, 1));
'''


def jval(v):
    if isinstance(v, Param):
        return "a_" + v.name
    if v is None:
        return "null"
    return json.dumps(v)


def js_handler(st, d):
    """A JavaScript function `(vD) => …` for the stage run on a value."""
    v = f"v{d}"
    return f"({v}) => {js_call(st, v, d)}"


def js_call(st, v, d):
    """The stage run on the value named v: a value expression (may throw) or a promise."""
    k = st.kind
    if k in ("resolve", "echo"):
        if st.val is NOVAL:
            return v if k == "resolve" else "null"
        return jval(st.val)
    if k == "reject":
        return f"{{ throw err({json.dumps(str(st.val))}); }}"
    if k == "print":
        return f"pr({json.dumps(st.label)}, {v})"
    if k == "delay":
        return f"delay({st.ms}, {v if st.val is NOVAL else jval(st.val)})"
    if k == "group":
        return js_pipe(st.pipe, v, d + 1)
    if k == "call":
        return f"{st.name}({v}, {'undefined' if st.arg is NOVAL else jval(st.arg)})"
    if k == "then":
        return js_call(st.handler, v, d)
    if k == "thenable":
        h = st.handler
        inner = f"raise(err({json.dumps(str(h.val))}))" if h.kind == "reject" else js_call(h, v, d)
        return f"thenable(() => {inner})"
    if k == "if":
        def branch(b):
            if b is NOVAL:
                return v
            return js_pipe(b.pipe, v, d + 1) if isinstance(b, Stage) else jval(b)
        return f"(holds({v}) ? {branch(st.yes)} : {branch(st.no)})"
    if k in ("do", "promise"):
        # Statements in a handler: the pipelines started at once, then the last argument.
        if st.handler is not None:
            # The final stage in the same turn: its value, or its throw.
            h = st.handler
            last = f"raise(err({json.dumps(str(h.val))}))" if h.kind == "reject" else js_call(h, v, d)
        else:
            last = js_pipe(st.yes.pipe, v, d + 1) if isinstance(st.yes, Stage) else jval(st.yes)
        body = "(" + ", ".join([js_pipe(p, v, d + 1) for p in st.elems] + [last]) + ")"
        # promise: JavaScript's `new Promise((resolve) => { A; resolve(V); })`.
        return body if k == "do" else f"new Promise((r{d}) => r{d}({body}))"
    if k == "null":
        return "null"
    if k == "each":
        xs, x = f"xs{d}", f"e{d}"
        items = "[" + ", ".join(jval(i) for i in st.items) + "]"
        return (f"start(({xs}) => {items}, {v}).then(({xs}) => each({xs}, {st.limit or 16}, "
                f"({x}) => {js_pipe(st.pipe, x, d + 1)}))")
    if k in COMBINATORS:
        fn = {"all": "Promise.all", "race": "Promise.race", "any": "Promise.any",
              "settle": "Promise.allSettled"}[k]
        inner = ", ".join(js_pipe(p, v, d + 1) for p in st.elems)
        if k == "settle":
            # vow's settle records: {status, value} or {status, reason}
            return f"{fn}([{inner}])"
        return f"{fn}([{inner}])"
    raise ValueError(k)


def js_first(st, inp, d):
    """The promise of a pipeline's first stage run on the expression inp."""
    k = st.kind
    if k == "var":
        return "x_" + st.name
    if k == "resolve":
        return f"Promise.resolve({inp if st.val is NOVAL else jval(st.val)})"
    if k == "reject":
        return f"Promise.reject(err({json.dumps(str(st.val))}))"
    if is_async(st):
        return js_call(st, inp, d)
    # a stage that finishes at once
    return f"start({js_handler(st, d)}, {inp})"


def js_pipe(p, inp, d):
    out = js_first(p[0], inp, d)
    for st in p[1:]:
        k = st.kind
        if k == "catch":
            if st.handler is None:
                out += ".catch(() => null)"
            else:
                out += f".catch({js_stmt_handler(st.handler, d)})"
        elif k == "then2":
            a, b = Stage("group", pipe=st.pipe), Stage("group", pipe=st.elems[0])
            out += f".then({js_handler(a, d)}, {js_handler(b, d)})"
        elif k == "finally":
            out += f".then(...fin({js_stmt_handler(st.handler, d)}))"
        elif k == "tap":
            h = st.handler
            v = f"v{d}"
            if is_async(h):
                out += f".then(({v}) => {js_call(h, v, d)}.then(() => {v}))"
            else:
                out += f".then(({v}) => {{ {js_as_statement(h, v, d)}; return {v}; }})"
        else:
            out += f".then({js_stmt_handler(st, d)})"
    return out


def js_as_statement(st, v, d):
    body = js_call(st, v, d)
    return body[1:-1].strip().rstrip(";") if body.startswith("{") else body


def js_stmt_handler(st, d):
    return js_handler(st, d)


def js_async_body(body):
    """The statements of an async function: each step on v0 in turn, `await` where written; the
    last step's value is returned (a promise returned is adopted, as an async function does)."""
    out = []
    for i, st in enumerate(body):
        last = i == len(body) - 1
        if st.kind == "reject":
            out.append(f"throw err({json.dumps(str(st.val))});")
            break
        e = js_call(st, "v0", 1)
        if st.awaits:
            out.append(f"v0 = await {e};")
            if last:
                out.append("return v0;")
        elif last:
            out.append(f"return {e};")
        else:
            out.append(f"v0 = {e};")
    return " ".join(out)


def js_program(prog):
    out = [PRELUDE, "const main = async () => {"]
    for name, param, body in prog.defs:
        pa = "a_" + param if param else "_a"
        if name in prog.async_defs:
            out.append(f"  const {name} = async (v0, {pa}) => {{ {js_async_body(body)} }};")
        else:
            out.append(f"  const {name} = (v0, {pa}) => {js_pipe(body, 'v0', 1)};")
    for kind, p, var in prog.stmts:
        e = js_pipe(p, "null", 0)
        if kind == "bg":
            out.append(f"  job({e});")
        elif kind == "await" and p[-1].kind == "print":
            # A statement that ends with `print` has printed its value: it prints nothing more.
            out.append(f"  {{ const t = {e}; globalThis.scaffold = 1; await t; }}")
        elif kind == "await" and p[-1].kind in ("resolve", "echo"):
            out.append(f"  {{ const t = {e}; globalThis.scaffold = 1; say(show(await t)); }}")
        elif kind == "await":
            # A program prints null only from a stage that answers a question (echo, resolve):
            # not from an effect or a combinator (docs/decisions.md, "A program prints what was
            # asked for").
            out.append(f"  {{ const t = {e}; globalThis.scaffold = 1; const v = await t; if (v != null) say(show(v)); }}")
        else:
            out.append(f"  const x_{var} = {e};")
    out.append("};")
    # Started from a check-phase callback, so that every timer set in the first instant counts
    # from the same loop time (while node starts up, the loop's clock can lag the first turn).
    out.append('setImmediate(() => { globalThis.scaffold = 1; const m = main(); globalThis.scaffold = 1; '
               'm.catch((e) => { process.stderr.write("error: " + JSON.stringify(e) + "\\n"); process.exitCode = 1; }); });')
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Timing: when each timer fires, in every way the program can go

ERR = object()   # an error record (opaque: never printed)


class Oracle:
    """Chooses among winners that settle in the same instant; records how many there were."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.used = []
        self.arity = []

    def choose(self, n):
        i = len(self.used)
        c = self.prefix[i] if i < len(self.prefix) else 0
        self.used.append(c)
        self.arity.append(n)
        return c


class World:
    def __init__(self, prog, oracle):
        self.prog = prog
        self.oracle = oracle
        self.timers = []
        self.defs = {name: (param, body) for name, param, body in prog.defs}
        self.vars = {}
        self.awaited = []   # per awaited statement index: value (None if rejected)


def holds(v):
    """JMESPath's truthiness, as `if` reads it."""
    return not (v is None or v is False or v == "" or v == [] or v == {})


def printable(v):
    if v is ERR:
        return False
    if isinstance(v, list):
        return all(printable(x) for x in v)
    if isinstance(v, dict):
        return all(printable(x) for x in v.values())
    return True


def sim_apply(w, st, t, v, env):
    """Run stage st on value v at time t: (ok, t, value)."""
    k = st.kind
    if k == "resolve":
        return True, t, v if st.val is NOVAL else resolve_val(st.val, env)
    if k == "echo":
        return True, t, None if st.val is NOVAL else resolve_val(st.val, env)
    if k == "reject":
        return False, t, ERR
    if k == "print":
        return True, t, v
    if k == "delay":
        w.timers.append(t + st.ms)
        return True, t + st.ms, v if st.val is NOVAL else resolve_val(st.val, env)
    if k == "group":
        return sim_pipe(w, st.pipe, t, v, env)
    if k == "call":
        param, body = w.defs[st.name]
        e = {param: resolve_val(st.arg, env)} if param else {}
        return sim_pipe(w, body, t, v, e)
    if k in ("then", "thenable"):
        return sim_apply(w, st.handler, t, v, env)
    if k == "if":
        b = st.yes if holds(v) else st.no
        if b is NOVAL:
            return True, t, v
        if isinstance(b, Stage):
            return sim_pipe(w, b.pipe, t, v, env)
        return True, t, resolve_val(b, env)
    if k == "each":
        return sim_each(w, st, t, env)
    if k in ("do", "promise"):
        # The pipelines started at once run on by themselves; their timers count all the same.
        for p in st.elems:
            sim_pipe(w, p, t, v, env)
        if st.handler is not None:
            return sim_apply(w, st.handler, t, v, env)
        if isinstance(st.yes, Stage):
            return sim_pipe(w, st.yes.pipe, t, v, env)
        return True, t, resolve_val(st.yes, env)
    if k == "null":
        return True, t, None
    if k in COMBINATORS:
        rs = [sim_pipe(w, p, t, v, env) for p in st.elems]
        if k == "all":
            bad = [r for r in rs if not r[0]]
            if bad:
                return False, min(r[1] for r in bad), ERR
            return True, max([t] + [r[1] for r in rs]), [r[2] for r in rs]
        if k == "settle":
            recs = [{"status": "fulfilled", "value": r[2]} if r[0] else {"status": "rejected", "reason": ERR}
                    for r in rs]
            return True, max([t] + [r[1] for r in rs]), recs
        if k == "race":
            if not rs:
                return None  # never settles
            m = min(r[1] for r in rs)
            tied = [r for r in rs if r[1] == m]
            return tied[w.oracle.choose(len(tied))] if len(tied) > 1 else tied[0]
        if k == "any":
            good = [r for r in rs if r[0]]
            if not good:
                return False, max([t] + [r[1] for r in rs]), ERR
            m = min(r[1] for r in good)
            tied = [r for r in good if r[1] == m]
            return tied[w.oracle.choose(len(tied))] if len(tied) > 1 else tied[0]
    raise ValueError(k)


def sim_each(w, st, t, env):
    """each over its items: the first `limit` start at t, the next when one settles (in order of
    settling; at the same instant, in order of starting); after a rejection none starts."""
    items = [resolve_val(x, env) for x in st.items]
    if not items:
        return True, t, []
    limit = st.limit or 16
    out = [None] * len(items)
    running = []   # (end, started, index, ok, value)
    started = 0
    failed = None
    ends = []

    def launch(at):
        nonlocal started
        i = started
        started += 1
        r = sim_pipe(w, st.pipe, at, items[i], env)
        if r is None:
            return False
        running.append((r[1], i, i, r[0], r[2]))
        return True

    for _ in range(min(limit, len(items))):
        if not launch(t):
            return None
    while running:
        running.sort()
        end, _, i, ok, v = running.pop(0)
        ends.append(end)
        if not ok:
            if failed is None:
                failed = end
            continue
        out[i] = v
        if failed is None and started < len(items):
            if not launch(end):
                return None
    if failed is not None:
        return False, failed, ERR
    return True, max([t] + ends), out


def resolve_val(val, env):
    if isinstance(val, Param):
        return env[val.name]
    return val


def sim_pipe(w, p, t, v, env):
    st = p[0]
    if st.kind == "var":
        r = w.vars[st.name]
        if r is None:
            return None
        state = (r[0], max(t, r[1]), r[2])
    else:
        state = sim_apply(w, st, t, v, env)
    for st in p[1:]:
        if state is None:
            return None
        ok, t, v = state
        k = st.kind
        if k == "catch":
            if ok:
                continue
            state = (True, t, None) if st.handler is None else sim_apply(w, st.handler, t, ERR, env)
        elif k == "then2":
            state = sim_pipe(w, st.pipe if ok else st.elems[0], t, v if ok else ERR, env)
        elif k == "finally":
            r = sim_apply(w, st.handler, t, v, env)
            if r is None:
                return None
            state = (ok, r[1], v) if r[0] else r
        elif k == "tap":
            if not ok:
                continue
            r = sim_apply(w, st.handler, t, v, env)
            if r is None:
                return None
            state = (True, r[1], v) if r[0] else r
        else:
            if not ok:
                continue
            state = sim_apply(w, st, t, v, env)
    return state


def sim_world(prog, prefix):
    w = World(prog, Oracle(prefix))
    t = 0
    for i, (kind, p, var) in enumerate(prog.stmts):
        r = sim_pipe(w, p, t, None, {})
        if kind == "let":
            w.vars[var] = r
        elif kind == "await":
            if r is None:
                w.awaited.append((i, False, "hang"))
                break
            ok, t, v = r
            w.awaited.append((i, ok, v))
            if not ok:
                break
    return w


def worlds(prog):
    """Every way the program can go: a list of World, or None when there are too many."""
    out = []
    stack = [[]]
    while stack:
        prefix = stack.pop()
        w = sim_world(prog, prefix)
        out.append(w)
        if len(out) > MAX_WORLDS:
            return None
        for k in range(len(prefix), len(w.oracle.arity)):
            for c in range(1, w.oracle.arity[k]):
                stack.append(w.oracle.used[:k] + [c])
    return out


def timing_ok(ws):
    for w in ws:
        ds = sorted(w.timers)
        if ds and ds[-1] > MAX_WAIT_MS:
            return False
        for a, b in zip(ds, ds[1:]):
            if b - a < MIN_GAP_MS:
                return False
    return True


def scaled(prog, k):
    """A copy of `prog` with every delay `k` times as long (the same program when k is 1)."""
    if k == 1:
        return prog
    copy_ = copy.deepcopy(prog)

    def walk(x):
        if isinstance(x, Stage):
            if x.kind == "delay" and isinstance(x.ms, (int, float)):
                x.ms = x.ms * k
            for v in vars(x).values():
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)

    walk(copy_.stmts)
    walk(copy_.defs)
    return copy_


def check(prog):
    """Whether the program is free of timing noise and hangs; appends `| echo sN` to awaited
    statements whose value would not print simply. Returns True when the program is usable."""
    ws = worlds(prog)
    if ws is None:
        return False
    fix = set()
    for w in ws:
        for i, ok, v in w.awaited:
            if v == "hang":
                return False
            if ok and not printable(v):
                fix.add(i)
    for i in sorted(fix):
        kind, p, var = prog.stmts[i]
        p.append(Stage("echo", val=f"s{i + 1}"))
    return timing_ok(ws)


# ---------------------------------------------------------------------------------------------
# The generator


class Gen:
    def __init__(self, seed, profile="full"):
        self.r = random.Random(seed)
        self.profile = profile
        self.n = 0
        self.defs = []     # (name, param)
        self.vars = []
        self.delays = []

    def fresh(self, prefix):
        self.n += 1
        return f"{prefix}{self.n}"

    def value(self):
        if self.r.random() < 0.5:
            return self.r.randint(0, 99)
        return self.fresh("w")

    def delay(self, val=True):
        st = Stage("delay", ms=self.r.choice(DURATIONS),
                   val=self.value() if val and self.r.random() < 0.6 else NOVAL)
        self.delays.append(st)
        return st

    def pick(self, table):
        total = sum(w for w, _ in table if w > 0)
        x = self.r.random() * total
        for w, f in table:
            if w <= 0:
                continue
            x -= w
            if x < 0:
                return f()
        return table[-1][1]()

    def combinator(self, depth, param):
        kinds = ["all", "race", "any", "settle"]
        k = self.r.choice(kinds)
        n = self.r.choice([1, 2, 2, 2, 3, 3])
        if k != "race" and self.r.random() < 0.04:
            n = 0
        elems = [self.element(depth + 1, param) for _ in range(n)]
        return Stage(k, elems=elems)

    def each(self, depth, param):
        n = self.r.choice([0, 1, 2, 2, 3, 3])
        items = [Param(param) if param and self.r.random() < 0.2 else self.value() for _ in range(n)]
        return Stage("each", items=items, pipe=self.pipe(depth + 1, param), limit=self.r.choice([None, None, 1, 2]))

    def element(self, depth, param):
        while True:
            p = self.pipe(depth, param)
            if " " in vow_pipe(p) or p[0].kind in ("group",) or vow_pipe(p).startswith("("):
                return p

    def call(self, param):
        name, dparam = self.r.choice(self.defs)
        arg = NOVAL
        if dparam:
            arg = Param(param) if param and self.r.random() < 0.3 else self.value()
        return Stage("call", name=name, arg=arg)

    def first(self, depth, param, top):
        full = self.profile == "full"
        deep = depth < 2
        return self.pick([
            (30, lambda: Stage("resolve", val=self.value())),
            (10, lambda: Stage("reject", val=self.fresh("e"))),
            (8, lambda: Stage("echo", val=Param(param) if param and self.r.random() < 0.5 else self.value())),
            (10, lambda: Stage("print", label=self.fresh("p"))),
            (14, lambda: self.delay()),
            (5 if deep else 0, lambda: Stage("group", pipe=self.pipe(depth + 1, param))),
            (8 if self.defs else 0, lambda: self.call(param)),
            (12 if deep and full else 0, lambda: self.combinator(depth, param)),
            (3 if deep and full else 0, lambda: self.each(depth, param)),
            (25 if top and self.vars else 0, lambda: Stage("var", name=self.r.choice(self.vars))),
            (3 if deep and full else 0, lambda: self.statements("promise", depth, param)),
            (3 if full else 0, lambda: self.thenable(depth, param)),
        ])

    def thenable(self, depth, param):
        """`thenable X`: an object with a then method that runs X; one turn to call it."""
        deep = depth < 2
        return Stage("thenable", handler=self.pick([
            (4, lambda: Stage("echo", val=self.value())),
            (3, lambda: Stage("print", label=self.fresh("p"))),
            (3, lambda: Stage("reject", val=self.fresh("e"))),
            (2, lambda: self.delay()),
            (2 if deep else 0, lambda: Stage("group", pipe=self.pipe(depth + 1, param))),
        ]))

    def plain(self, depth, param):
        """A stage for `then`, a pipe, or a handler."""
        full = self.profile == "full"
        deep = depth < 2
        return self.pick([
            (30, lambda: Stage("print", label=self.fresh("p"))),
            (6, lambda: Stage("echo", val=Param(param) if param and self.r.random() < 0.5 else self.value())),
            (4, lambda: Stage("resolve", val=self.value() if self.r.random() < 0.7 else NOVAL)),
            (6, lambda: Stage("reject", val=self.fresh("e"))),
            (8, lambda: self.delay()),
            (5 if deep else 0, lambda: Stage("group", pipe=self.pipe(depth + 1, param))),
            (4 if self.defs else 0, lambda: self.call(param)),
            (5 if deep and full else 0, lambda: self.combinator(depth, param)),
            (2 if deep and full else 0, lambda: self.each(depth, param)),
            (4 if deep and full else 0, lambda: self.statements("do", depth, param)),
            (3 if deep and full else 0, lambda: self.statements("promise", depth, param)),
        ])

    def statements(self, kind, depth, param):
        """`do (A) … V` or `promise (A) … V`: pipelines started at once that nothing waits for
        (most end in a bare `catch`; one that rejects without it is an unhandled rejection), then
        the value: a group (a promise, adopted) or a plain value."""
        starts = []
        for _ in range(self.r.choice([0, 1, 1, 2])):
            p = self.pipe(depth + 1, param)
            if self.r.random() < 0.8:
                p.append(Stage("catch", handler=None))
            starts.append(p)
        if kind == "do" and starts and self.profile == "full" and self.r.random() < 0.3:
            # A final stage, run in the handler's turn: a throw, a print or a value.
            final = self.pick([
                (4, lambda: Stage("reject", val=self.fresh("e"))),
                (3, lambda: Stage("print", label=self.fresh("p"))),
                (2, lambda: Stage("echo", val=self.value())),
            ])
            return Stage(kind, elems=starts, yes=None, handler=final)
        if self.r.random() < 0.5:
            last = Stage("group", pipe=self.pipe(depth + 1, param))
        else:
            last = self.value() if self.r.random() < 0.8 else None
        return Stage(kind, elems=starts, yes=last)

    def async_body(self, param):
        """The steps of an `async def`: stages that finish at once, `await STAGE` (a value, a
        delay, a group, a call), and a last stage whose promise, if it gives one, is adopted."""
        steps = []
        n = self.r.choice([1, 2, 3, 3, 4, 5])
        for i in range(n):
            last = i == n - 1
            x = self.r.random()
            if last and x < 0.5:
                steps.append(self.plain(1, param))
            elif x < 0.5:
                st = self.pick([
                    (20, lambda: self.delay()),
                    (10, lambda: Stage("null")),
                    (8, lambda: Stage("resolve", val=self.value())),
                    (6, lambda: Stage("print", label=self.fresh("p"))),
                    (10, lambda: Stage("group", pipe=self.pipe(2, param))),
                    (12 if self.defs else 0, lambda: self.call(param)),
                ])
                st.awaits = True
                steps.append(st)
            else:
                steps.append(self.pick([
                    (30, lambda: Stage("print", label=self.fresh("p"))),
                    (8, lambda: Stage("echo", val=Param(param) if param and self.r.random() < 0.5 else self.value())),
                    (8, lambda: Stage("resolve", val=self.value())),
                    (4, lambda: Stage("reject", val=self.fresh("e"))),
                ]))
        return steps

    def handler(self, depth, param, kind):
        deep = depth < 2
        if kind == "catch":
            return self.pick([
                (10, lambda: None),
                (40, lambda: Stage("print", label=self.fresh("c"))),
                (20, lambda: Stage("echo", val=self.value())),
                (8, lambda: Stage("reject", val=self.fresh("e"))),
                (10 if deep else 0, lambda: Stage("group", pipe=self.pipe(depth + 1, param))),
                (5, lambda: self.delay()),
                (4 if self.defs else 0, lambda: self.call(param)),
            ])
        prefix = "f" if kind == "finally" else "t"
        return self.pick([
            (75, lambda: Stage("print", label=self.fresh(prefix))),
            (25 if deep else 0, lambda: Stage("group", pipe=self.pipe(depth + 1, param))),
        ])

    def next_stage(self, depth, param):
        full = self.profile == "full"
        return self.pick([
            (55, lambda: self.plain(depth, param)),
            (12, lambda: Stage("then", handler=self.plain(depth, param))),
            (5 if full and depth < 2 else 0, lambda: Stage("then2", pipe=self.pipe(depth + 1, param), elems=[self.pipe(depth + 1, param)])),
            (14, lambda: Stage("catch", handler=self.handler(depth, param, "catch"))),
            (5 if full else 0, lambda: Stage("finally", handler=self.handler(depth, param, "finally"))),
            (6, lambda: Stage("tap", handler=self.handler(depth, param, "tap"))),
            (5 if full and depth < 2 else 0, lambda: self.if_stage(depth, param)),
        ])

    def if_stage(self, depth, param):
        """`if '@' THEN [else ELSE]`: each branch a group (a pipeline, adopted) or a plain value."""
        def branch():
            if self.r.random() < 0.7:
                return Stage("group", pipe=self.pipe(depth + 1, param))
            return self.value()
        return Stage("if", yes=branch(), no=branch() if self.r.random() < 0.6 else NOVAL)

    def pipe(self, depth, param=None, top=False):
        p = [self.first(depth, param, top)]
        n = self.r.choice([0, 1, 1, 2, 2, 3, 3, 4, 5]) if depth == 0 else self.r.choice([0, 1, 1, 2, 2, 3])
        for _ in range(n):
            p.append(self.next_stage(depth, param))
        return p

    def program(self):
        prog = Program()
        for i in range(self.r.choice([0, 0, 1, 1, 2])):
            name = f"g{i + 1}"
            param = "a" if self.r.random() < 0.35 else None
            if self.profile == "full" and self.r.random() < 0.4:
                body = self.async_body(param)
                prog.async_defs.add(name)
            else:
                body = self.pipe(1, param)
            prog.defs.append((name, param, body))
            self.defs.append((name, param))
        nlet = 0
        for _ in range(self.r.randint(3, 7)):
            x = self.r.random()
            if x < 0.05:
                # A rejection nothing ever waits for: an unhandled rejection ends the program,
                # at once or after a delay.
                nlet += 1
                rejected = [Stage("reject", val=self.fresh("e"))]
                if self.r.random() < 0.5:
                    rejected = [self.delay()] + [Stage("then", handler=rejected[0])]
                prog.stmts.append(("let", rejected, f"x{nlet}"))
            elif x < 0.18:
                nlet += 1
                var = f"x{nlet}"
                prog.stmts.append(("let", self.pipe(0, top=True), var))
                self.vars.append(var)
            elif x < 0.42:
                prog.stmts.append(("await", self.pipe(0, top=True), None))
            else:
                prog.stmts.append(("bg", self.pipe(0, top=True), None))
        return prog


def delays_of(prog):
    out = []

    def walk_stage(st):
        if st is None:
            return
        if st.kind == "delay":
            out.append(st)
        if st.pipe:
            walk_pipe(st.pipe)
        if st.handler:
            walk_stage(st.handler)
        for p in st.elems or []:
            walk_pipe(p)
        for b in (st.yes, st.no):
            if isinstance(b, Stage):
                walk_stage(b)

    def walk_pipe(p):
        for st in p:
            walk_stage(st)

    for _, _, body in prog.defs:
        walk_pipe(body)
    for _, p, _ in prog.stmts:
        walk_pipe(p)
    return out


# Known disagreements that --avoid can leave out of the programs, to look for others meanwhile.
AVOIDABLE = {
    "lone-stage": "a one-word stage after | in a list element (`all [echo 1 | g1]`, `… | resolve`, "
                  "`… | catch`)",
    "single-group": "a group of one stage, `(resolve 5)`",
}


def avoided(prog, avoid):
    """Whether the program holds one of the constructs in avoid."""
    if not avoid:
        return False
    for p in all_pipes(prog):
        for st in p:
            if "single-group" in avoid:
                for h in (st, st.handler):
                    if h is not None and h.kind == "group" and len(h.pipe) == 1:
                        return True
            if "lone-stage" in avoid and st.kind in COMBINATORS:
                for e in st.elems:
                    if any(" " not in vow_stage(x) and not vow_stage(x).startswith("(") for x in e[1:]):
                        return True
    return False


def generate(seed, profile="full", avoid=()):
    """The program of a seed: the same seed always gives the same program."""
    r = random.Random(seed * 7919 + 17)
    for attempt in range(1000):
        g = Gen(r.getrandbits(64), profile)
        prog = g.program()
        if avoided(prog, avoid):
            continue
        ds = delays_of(prog)
        for _ in range(40):
            if check_copy(prog):
                check(prog)
                return prog
            for d in ds:
                d.ms = g.r.choice(DURATIONS)
    raise RuntimeError(f"no usable program for seed {seed}")


def check_copy(prog):
    return check(copy.deepcopy(prog))


# ---------------------------------------------------------------------------------------------
# Running


NOTICE = re.compile(r"^\[\d+\] ")


def run(cmd, cwd, stdout_path=None, env=None):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=TIME_LIMIT, env=env)
        out, errb, rc = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out, errb, rc = e.stdout or b"", e.stderr or b"", "timeout"
    except OSError as e:   # e.g. the binary is being rebuilt
        out, errb, rc = b"", str(e).encode(), "error"
    return {"stdout": out.decode("utf-8", "replace"), "stderr": errb.decode("utf-8", "replace"),
            "rc": rc, "secs": time.time() - t0}


class NodeRunner:
    """One node process that runs the JavaScript programs in worker threads of their own
    (scripts/difftest-node-runner.js): a program pays for a worker's start instead of a node
    process's, which halves the campaign's time. Thread-safe; restarts the runner if it dies."""

    SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "difftest-node-runner.js")

    def __init__(self):
        self.lock = threading.Lock()
        self.pending = {}
        self.next_id = 0
        self._start()

    def _start(self):
        self.proc = subprocess.Popen(["node", self.SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()

    def _read(self, proc):
        for line in proc.stdout:
            m = json.loads(line)
            with self.lock:
                ev, box = self.pending.pop(m["id"])
            box.append(m)
            ev.set()
        with self.lock:
            lost = list(self.pending.values())
            self.pending.clear()
            if self.proc is proc:
                self._start()
        for ev, box in lost:
            box.append(None)
            ev.set()

    def run(self, path, emitted):
        t0 = time.time()
        ev, box = threading.Event(), []
        with self.lock:
            i = self.next_id
            self.next_id += 1
            self.pending[i] = (ev, box)
            self.proc.stdin.write(json.dumps({"id": i, "path": os.path.abspath(path), "emitted": emitted,
                                              "timeoutMs": int(TIME_LIMIT * 1000)}) + "\n")
            self.proc.stdin.flush()
        if not ev.wait(TIME_LIMIT + 10) or box[0] is None:
            return {"stdout": "", "stderr": "the node runner did not answer", "rc": "error", "secs": time.time() - t0}
        m = box[0]
        return {"stdout": m["stdout"], "stderr": m["stderr"], "rc": m["rc"], "secs": time.time() - t0}


class NodeRunners:
    """A few NodeRunners taken in turn: one node process starts its workers on one thread, so
    a campaign spreads them over several."""

    def __init__(self, n):
        self.runners = [NodeRunner() for _ in range(n)]
        self.turn = 0
        self.lock = threading.Lock()

    def run(self, path, emitted):
        with self.lock:
            r = self.runners[self.turn % len(self.runners)]
            self.turn += 1
        return r.run(path, emitted)


# Set by --node workers: the twins run in worker threads of a few node processes.
NODE_RUNNER = None


def filtered(out):
    return "\n".join(l for l in out.splitlines() if not NOTICE.match(l))


def report_of(err):
    """The unhandled-rejection report in stderr: the reason after the arrow's caret line (node's
    or vow's), without node's version line, the fields only vow's twin notes, and with spaces
    squeezed; None when there is none."""
    lines = err.splitlines()
    for i, l in enumerate(lines):
        if l.strip() == "^":
            rest = [x for x in lines[i + 1:] if not x.startswith("Node.js v")]
            text = " ".join(x.strip() for x in rest if x.strip())
            # A string as node writes it: in single quotes, or in double quotes or backticks when
            # it holds a single quote; a `]` inside one (a stage's `[a, b]`) is not the list's end.
            string = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)"""
            text = re.sub(r"(stage|at): " + string + r",? ?", "", text)
            text = re.sub(r"skipped: \[(?:\s*" + string + r",?)*\s*\],? ?", "", text)
            return re.sub(r",? }", " }", text).strip()
    return None


def vow_flags(vow):
    try:
        h = subprocess.run([vow, "--help"], capture_output=True, timeout=10).stdout.decode()
    except Exception:
        h = ""
    return {"js": "--js" in h, "emit": "--emit-js" in h, "trace": "--trace" in h}


TURNS_RECORDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "difftest-turns.js")


def vow_turns(trace_path):
    """The lines vow --js wrote, each with the number of turns run when it was written, from its
    trace (docs/trace-format.md): counted as scripts/difftest-turns.js counts node's, so every
    microtask job but vow's own bookkeeping (an observer marked `own`, a callback that is not a
    task). Job notices (`[N] …`) are left out. None when there is no trace."""
    try:
        with open(trace_path) as f:
            events = [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError):
        return None
    turns, lines, partial = 0, [], ""
    for e in events:
        ev = e.get("event")
        if ev == "job-started" and not e.get("task"):
            kind = e.get("kind")
            own = e.get("own", False) or kind == "callback"
            if not own:
                turns += 1
        elif ev == "output":
            parts = (partial + e.get("text", "")).split("\n")
            partial = parts.pop()
            lines.extend([turns, l] for l in parts)
    if partial:
        lines.append([turns, partial])
    return [x for x in lines if not NOTICE.match(x[1])]


def node_turns(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def first_turn_difference(a, b):
    """Where two turn-stamped outputs first differ, in words."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}: {x[1]!r} in turn {x[0]} vs {y[1]!r} in turn {y[0]}"
    return f"{len(a)} lines vs {len(b)}"


def run_program(vow_src, twin_src, vow, flags, workdir, with_emit=True):
    """Runs the three ways; returns (results by name, list of problems)."""
    os.makedirs(workdir, exist_ok=True)
    with open(os.path.join(workdir, "prog.vow"), "w") as f:
        f.write(vow_src)
    if twin_src is not None:
        with open(os.path.join(workdir, "twin.js"), "w") as f:
            f.write(twin_src)
    turns = flags.get("trace") and flags["js"] and NODE_RUNNER is None
    cmds = {"vow": [vow] + (["--js"] if flags["js"] else []) + (["--trace", "vow-trace.jsonl"] if turns else []) + ["prog.vow"]}
    if twin_src is not None:
        # The twin runs under the turns recorder: the turn each line is written in is compared too.
        cmds["twin"] = ["node"] + (["-r", TURNS_RECORDER] if turns else []) + ["twin.js"]
    emitted = None
    if with_emit and flags["emit"]:
        try:
            e = subprocess.run([vow, "--emit-js", "prog.vow"], cwd=workdir, capture_output=True,
                               timeout=TIME_LIMIT)
            if e.returncode == 0:
                emitted = e.stdout
        except (subprocess.TimeoutExpired, OSError):
            pass
    if emitted is not None:
        with open(os.path.join(workdir, "emitted.js"), "wb") as f:
            f.write(emitted)
        # loaded from a check-phase callback, as the twin starts (see js_program)
        cmds["emitted"] = ["node", "-e", "process.stdout; process.stderr; clearTimeout(setTimeout(() => {}, 1)); "
                           "setImmediate(() => require(process.argv[1]))",
                           os.path.abspath(os.path.join(workdir, "emitted.js"))]
    def way(k, c):
        if NODE_RUNNER is not None and k in ("twin", "emitted"):
            return NODE_RUNNER.run(c[-1] if k == "emitted" else os.path.join(workdir, "twin.js"), k == "emitted")
        if k == "twin" and turns:
            return run(c, workdir, env=dict(os.environ, VOW_TURNS_OUT=os.path.join(workdir, "twin-turns.json")))
        return run(c, workdir)

    with concurrent.futures.ThreadPoolExecutor(len(cmds)) as ex:
        futs = {k: ex.submit(way, k, c) for k, c in cmds.items()}
        res = {k: f.result() for k, f in futs.items()}
    problems = []
    for k, r in res.items():
        if r["rc"] in ("timeout", "error"):
            problems.append(f"{k} {r['rc']}")
    names = list(res)
    ref = "twin" if "twin" in res else names[0]
    for k in names:
        if k == ref:
            continue
        a, b = res[ref], res[k]
        what = []
        if filtered(a["stdout"]) != filtered(b["stdout"]):
            what.append("stdout")
        if a["rc"] != b["rc"]:
            what.append(f"exit {a['rc']} vs {b['rc']}")
        if report_of(a["stderr"]) != report_of(b["stderr"]):
            what.append("unhandled-rejection report")
        if not what and k == "vow" and ref == "twin" and turns:
            # The same lines: were they written in the same turns?
            x, y = node_turns(os.path.join(workdir, "twin-turns.json")), vow_turns(os.path.join(workdir, "vow-trace.jsonl"))
            if x is None or y is None:
                what.append("turns not recorded")
            elif x != y:
                what.append("turns: " + first_turn_difference(x, y))
        if what:
            problems.append(f"{ref} != {k} ({', '.join(what)})")
    return res, problems


def save(workdir, res, problems):
    for k, r in res.items():
        for part in ("stdout", "stderr"):
            with open(os.path.join(workdir, f"{k}.{part}"), "w") as f:
                f.write(r[part])
        with open(os.path.join(workdir, f"{k}.rc"), "w") as f:
            f.write(f"{r['rc']}\n")
    with open(os.path.join(workdir, "problems"), "w") as f:
        f.write("\n".join(problems) + "\n")


# ---------------------------------------------------------------------------------------------
# Minimising


def all_pipes(prog):
    """Every pipeline of the program, in a fixed order (the same on a deep copy)."""
    out = []

    def walk_stage(st):
        if st is None:
            return
        if st.pipe:
            walk_pipe(st.pipe)
        if st.handler:
            walk_stage(st.handler)
        for p in st.elems or []:
            walk_pipe(p)
        for b in (st.yes, st.no):
            if isinstance(b, Stage):
                walk_stage(b)

    def walk_pipe(p):
        out.append(p)
        for st in p:
            walk_stage(st)

    for _, _, body in prog.defs:
        walk_pipe(body)
    for _, p, _ in prog.stmts:
        walk_pipe(p)
    return out


def uses(prog, kind, name):
    found = []

    def walk(p):
        for st in p:
            if st.kind == kind and st.name == name:
                found.append(st)
    for p in all_pipes(prog):
        walk(p)
    return bool(found)


def candidates(prog):
    """Smaller programs, most promising first."""
    # drop a statement
    for i in range(len(prog.stmts)):
        c = copy.deepcopy(prog)
        kind, p, var = c.stmts.pop(i)
        if kind == "let" and uses(c, "var", var):
            continue
        yield c
    # drop a def
    for i in range(len(prog.defs)):
        c = copy.deepcopy(prog)
        name = c.defs.pop(i)[0]
        if not uses(c, "call", name):
            yield c
    n = len(all_pipes(prog))
    for k in range(n):
        base = all_pipes(prog)[k]
        for j in range(len(base)):
            # drop stage j (the first only when the second can start a pipeline)
            c = copy.deepcopy(prog)
            p = all_pipes(c)[k]
            if j == 0 and (len(p) < 2 or p[1].kind in ("catch", "finally", "tap", "then")):
                pass
            elif len(p) > 1:
                del p[j]
                yield c
            st = base[j]
            # a combinator: drop an element; a group or a combinator: put a body in its place
            if st.kind in COMBINATORS:
                for e in range(len(st.elems)):
                    c = copy.deepcopy(prog)
                    del all_pipes(c)[k][j].elems[e]
                    yield c
            inner = None
            if st.kind == "group":
                inner = [st.pipe]
            elif st.kind in COMBINATORS:
                inner = st.elems
            elif st.kind in ("then", "catch", "finally", "tap") and st.handler is not None \
                    and st.handler.kind == "group":
                c = copy.deepcopy(prog)
                all_pipes(c)[k][j].handler = Stage("print", label="h")
                yield c
            for e in range(len(inner or [])):
                c = copy.deepcopy(prog)
                p = all_pipes(c)[k]
                body = copy.deepcopy(inner[e])
                if j > 0 and body[0].kind == "var":
                    continue
                p[j:j + 1] = [Stage("group", pipe=body)] if st.kind in COMBINATORS else body
                yield c
            if st.kind == "then":
                c = copy.deepcopy(prog)
                p = all_pipes(c)[k]
                p[j] = p[j].handler
                yield c
    # a background statement awaited, and the other way round
    for i, (kind, p, var) in enumerate(prog.stmts):
        if kind == "await":
            c = copy.deepcopy(prog)
            c.stmts[i] = ("bg", c.stmts[i][1], None)
            yield c


def size(prog):
    return len(vow_program(prog))


def usable(prog):
    c = copy.deepcopy(prog)
    for i, (kind, p, var) in enumerate(c.stmts):
        if kind == "let" and not p:
            return None
    if any(not p for p in all_pipes(c)):
        return None
    if any(p[0].kind in ("catch", "finally", "tap", "then") for p in all_pipes(c)):
        return None
    for p in all_pipes(c):
        for st in p[1:]:
            if st.kind == "var":
                return None
    # a lone word in a list literal would be a string
    for p in all_pipes(c):
        for st in p:
            if st.kind in COMBINATORS:
                for e in st.elems:
                    if " " not in vow_pipe(e) and not vow_pipe(e).startswith("("):
                        return None
    if not check(c):
        return None
    return c


def signature(problems):
    return sorted(re.sub(r" \(.*", "", p) for p in problems)


def minimise(prog, vow, flags, tmp, log=print):
    res, problems = run_program(vow_program(prog), js_program(prog), vow, flags, tmp)
    if not problems:
        log("no disagreement to minimise")
        return prog, problems
    sig = signature(problems)
    log(f"minimising: {', '.join(problems)}")
    best = prog
    progress = True
    while progress:
        progress = False
        for c in candidates(best):
            c2 = usable(c)
            if c2 is None or size(c2) >= size(best):
                continue
            _, ps = run_program(vow_program(c2), js_program(c2), vow, flags, tmp)
            if ps and signature(ps) == sig:
                # twice, so that a run that lost a timer race does not lead the search astray
                _, ps = run_program(vow_program(c2), js_program(c2), vow, flags, tmp)
            if ps and signature(ps) == sig:
                best = c2
                progress = True
                log(f"  {size(best)} chars")
                break
    _, problems = run_program(vow_program(best), js_program(best), vow, flags, tmp)
    return best, problems


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(prog="difftest", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", nargs="?", type=int, default=100, help="how many programs (default 100)")
    ap.add_argument("seed", nargs="?", type=int, default=1, help="seed of the first program (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=int(os.environ.get("DIFFTEST_JOBS", "3")),
                    help="programs run at once (default 3; each runs its three ways side by side)")
    ap.add_argument("--out", default=os.environ.get("DIFFTEST_OUT", "/tmp/vow-difftest"),
                    help="where disagreements are saved (default /tmp/vow-difftest)")
    ap.add_argument("--profile", choices=["full", "basic"], default=None,
                    help="full: every stage; basic: no combinators, no finally "
                         "(the default when VOW has no --js)")
    ap.add_argument("--avoid", default=os.environ.get("DIFFTEST_AVOID", ""),
                    help="comma-separated known disagreements to leave out: " +
                         "; ".join(f"{k}: {v}" for k, v in AVOIDABLE.items()))
    ap.add_argument("--no-js", action="store_true",
                    help="run vow in its default mode (programs without combinators and finally)")
    ap.add_argument("--no-emit", action="store_true", help="skip the run of vow's own --emit-js twin")
    ap.add_argument("--node", choices=["processes", "workers"], default="processes",
                    help="run each JavaScript program in a node process of its own (default), or in a "
                         "worker thread of one of four node processes (for long campaigns, with -j 16)")
    ap.add_argument("--show", type=int, metavar="SEED", help="print the program of SEED and its twin")
    ap.add_argument("--minimise", "--minimize", type=int, metavar="SEED",
                    help="shrink the disagreement of SEED to a small program")
    ap.add_argument("--file", help="run a hand-written vow program (vow, --emit-js) and compare")
    args = ap.parse_args()
    global NODE_RUNNER
    if args.node == "workers":
        NODE_RUNNER = NodeRunners(4)

    here = os.path.dirname(os.path.abspath(__file__))
    vow = os.environ.get("VOW", os.path.join(here, "..", ".build", "release", "vow"))
    if args.show is None and not os.access(vow, os.X_OK):
        print(f"difftest: no vow binary at {vow} (set VOW)", file=sys.stderr)
        return 2
    flags = vow_flags(vow) if args.show is None else {"js": True, "emit": True}
    if args.no_emit:
        flags["emit"] = False
    if args.no_js:
        flags["js"] = False
    profile = args.profile or ("full" if flags["js"] else "basic")
    avoid = tuple(a for a in args.avoid.split(",") if a)
    for a in avoid:
        if a not in AVOIDABLE:
            print(f"difftest: --avoid {a}: not one of {', '.join(AVOIDABLE)}", file=sys.stderr)
            return 2

    if args.show is not None:
        prog = generate(args.show, profile, avoid)
        print(vow_program(prog), end="")
        print("// ----- twin")
        print(js_program(prog), end="")
        return 0

    if args.file:
        with open(args.file) as f:
            src = f.read()
        tmp = tempfile.mkdtemp(prefix="difftest-")
        res, problems = run_program(src, None, vow, flags, tmp)
        for k, r in res.items():
            print(f"== {k} (exit {r['rc']})")
            print(filtered(r["stdout"]))
        print("\n".join(problems) or "agree")
        shutil.rmtree(tmp, ignore_errors=True)
        return 1 if problems else 0

    if args.minimise is not None:
        prog = generate(args.minimise, profile, avoid)
        tmp = tempfile.mkdtemp(prefix="difftest-min-")
        best, problems = minimise(prog, vow, flags, tmp, log=lambda s: print(s, file=sys.stderr))
        res, problems = run_program(vow_program(best), js_program(best), vow, flags, tmp)
        print(vow_program(best), end="")
        for k, r in res.items():
            print(f"-- {k} (exit {r['rc']}): " + " ".join(filtered(r["stdout"]).split("\n")))
        print("\n".join(problems) or "agree")
        shutil.rmtree(tmp, ignore_errors=True)
        return 1 if problems else 0

    if not flags["js"]:
        print("difftest: VOW has no --js; running without it, programs without combinators "
              "and finally", file=sys.stderr)
    work = tempfile.mkdtemp(prefix="difftest-")
    t0 = time.time()
    passed = failed = 0

    def attempt(i):
        seed = args.seed + i
        prog = generate(seed, profile, avoid)
        wd = os.path.join(work, str(seed))
        res, problems = run_program(vow_program(prog), js_program(prog), vow, flags, wd)
        return seed, prog, wd, res, problems

    def record(seed, wd, res, problems):
        dest = os.path.join(args.out, f"seed-{seed}")
        shutil.rmtree(dest, ignore_errors=True)
        save(wd, res, problems)
        os.makedirs(args.out, exist_ok=True)
        shutil.move(wd, dest)
        print(f"seed {seed}: {'; '.join(problems)}  [{dest}]", flush=True)

    again = []
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        for seed, prog, wd, res, problems in ex.map(attempt, range(args.n)):
            if not problems:
                passed += 1
                shutil.rmtree(wd, ignore_errors=True)
            elif any("timeout" in p or "error" in p for p in problems):
                failed += 1
                record(seed, wd, res, problems)
            else:
                again.append((seed, prog, wd))
    # An ordering bug repeats; a run that lost a timer race to a busy machine does not. The
    # disagreements run again one at a time, once the others are done, up to three times (a
    # machine loaded by other work can lose the race again): a program that agrees once was
    # a timing flake; one that disagrees every time is a bug.
    flakes = 0
    for seed, prog, wd in again:
        # Then with its timers four times as far apart: a machine busy enough to make a timer
        # late by more than the generator's gap (MIN_GAP_MS) cannot reorder them, while an
        # ordering bug does not depend on the gaps.
        for scale in (1, 4, 4):
            run = scaled(prog, scale)
            res, problems = run_program(vow_program(run), js_program(run), vow, flags, wd)
            if not problems:
                break
            time.sleep(0.5)
        if problems:
            failed += 1
            record(seed, wd, res, problems)
        else:
            passed += 1
            flakes += 1
            shutil.rmtree(wd, ignore_errors=True)
            print(f"seed {seed}: disagreed once, agreed when run again alone (timing under load)",
                  flush=True)
    shutil.rmtree(work, ignore_errors=True)
    mode = f"node {args.node}, profile {profile}{', avoiding ' + ','.join(avoid) if avoid else ''}, vow{' --js' if flags['js'] else ''}, twin" + \
        (", emitted twin" if flags["emit"] else "")
    print(f"({mode}; {time.time() - t0:.1f}s)")
    print(f"{passed} passed, {failed} failed")
    print(f"difftest: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
