// JMESPath (https://jmespath.org/specification.html) in plain JavaScript.
// search(data, expression) returns the result; problems are thrown as
// {kind: "pick", message}, the message starting with the error type
// (syntax, invalid-type, invalid-arity, invalid-value, unknown-function).

function jmesError(type, message) {
  return { kind: "pick", message: type + ": " + message };
}

// ---------------------------------------------------------------- lexer

const JMES_SIMPLE_TOKENS = {
  ".": "dot", "*": "star", ",": "comma", ":": "colon", "{": "lbrace", "}": "rbrace",
  "]": "rbracket", "(": "lparen", ")": "rparen", "@": "current",
};

function jmesTokenize(text) {
  const tokens = [];
  let i = 0;
  const push = (type, value, start) => tokens.push({ type, value, start });
  // Reads up to the closing quote, skipping backslash-escaped characters.
  const readQuoted = (quote) => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== quote) i += text[i] === "\\" ? 2 : 1;
    if (i >= text.length) throw jmesError("syntax", "unterminated " + quote + " at position " + start);
    i++;
    return text.slice(start + 1, i - 1);
  };
  while (i < text.length) {
    const c = text[i], start = i;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") { i++; continue; }
    if (/[A-Za-z_]/.test(c)) {
      while (i < text.length && /[A-Za-z0-9_]/.test(text[i])) i++;
      push("unquoted", text.slice(start, i), start);
    } else if (/[0-9-]/.test(c)) {
      i++;
      while (i < text.length && /[0-9]/.test(text[i])) i++;
      if (text.slice(start, i) === "-") throw jmesError("syntax", "unexpected '-' at position " + start);
      push("number", parseInt(text.slice(start, i), 10), start);
    } else if (JMES_SIMPLE_TOKENS[c]) {
      i++;
      push(JMES_SIMPLE_TOKENS[c], c, start);
    } else if (c === "[") {
      const next = text[i + 1];
      i += next === "]" || next === "?" ? 2 : 1;
      push(next === "]" ? "flatten" : next === "?" ? "filter" : "lbracket", text.slice(start, i), start);
    } else if (c === "\"") {
      const raw = readQuoted("\"");
      let name;
      try { name = JSON.parse("\"" + raw + "\""); } catch (e) {
        throw jmesError("syntax", "invalid quoted identifier at position " + start);
      }
      push("quoted", name, start);
    } else if (c === "'") {
      push("literal", readQuoted("'").replace(/\\'/g, "'"), start);
    } else if (c === "`") {
      const raw = readQuoted("`").replace(/\\`/g, "`");
      let value;
      try { value = JSON.parse(raw); } catch (e) {
        throw jmesError("syntax", "invalid JSON literal at position " + start);
      }
      push("literal", value, start);
    } else {
      const two = text.slice(i, i + 2);
      const twoTypes = { "||": "or", "&&": "and", "==": "eq", "!=": "ne", "<=": "lte", ">=": "gte" };
      const oneTypes = { "|": "pipe", "&": "expref", "!": "not", "<": "lt", ">": "gt" };
      if (twoTypes[two]) { i += 2; push(twoTypes[two], two, start); }
      else if (oneTypes[c]) { i++; push(oneTypes[c], c, start); }
      else throw jmesError("syntax", "unexpected character '" + c + "' at position " + start);
    }
  }
  push("eof", null, text.length);
  return tokens;
}

// --------------------------------------------------------------- parser

const JMES_BP = {
  eof: 0, unquoted: 0, quoted: 0, literal: 0, number: 0, rbracket: 0, rparen: 0, comma: 0,
  rbrace: 0, colon: 0, current: 0, expref: 0, pipe: 1, or: 2, and: 3,
  eq: 5, ne: 5, lt: 5, lte: 5, gt: 5, gte: 5, flatten: 9, star: 20, filter: 21,
  dot: 40, not: 45, lbrace: 50, lbracket: 55, lparen: 60,
};
const JMES_COMPARATORS = ["eq", "ne", "lt", "lte", "gt", "gte"];

function jmesParse(text) {
  const tokens = jmesTokenize(text);
  let pos = 0;
  const peek = (n = 0) => tokens[Math.min(pos + n, tokens.length - 1)];
  const fail = (tok) => {
    throw jmesError("syntax", (tok.type === "eof" ? "unexpected end of expression"
      : "unexpected token " + JSON.stringify(String(tok.value)) + " (" + tok.type + ")") +
      " at position " + tok.start + " in " + JSON.stringify(text));
  };
  const match = (type) => { if (peek().type !== type) fail(peek()); return tokens[pos++]; };
  const IDENTITY = { type: "identity" };

  function expression(rbp) {
    let left = nud(tokens[pos++]);
    while (rbp < JMES_BP[peek().type]) left = led(tokens[pos++], left);
    return left;
  }

  function nud(tok) {
    switch (tok.type) {
      case "literal": return { type: "literal", value: tok.value };
      case "unquoted": return { type: "field", name: tok.value };
      case "quoted":
        if (peek().type === "lparen") fail(peek()); // function names cannot be quoted
        return { type: "field", name: tok.value };
      case "not": return { type: "not", child: expression(JMES_BP.not) };
      case "star":
        return { type: "valueProjection", left: IDENTITY,
          right: peek().type === "rbracket" ? IDENTITY : projectionRHS(JMES_BP.star) };
      case "filter": return led(tok, IDENTITY);
      case "lbrace": return multiselectHash();
      case "flatten":
        return { type: "projection", left: { type: "flatten", child: IDENTITY }, right: projectionRHS(JMES_BP.flatten) };
      case "lbracket":
        if (peek().type === "number" || peek().type === "colon") return projectIfSlice(IDENTITY, indexExpression());
        if (peek().type === "star" && peek(1).type === "rbracket") {
          pos += 2;
          return { type: "projection", left: IDENTITY, right: projectionRHS(JMES_BP.star) };
        }
        return multiselectList();
      case "current": return { type: "current" };
      case "expref": return { type: "expref", child: expression(JMES_BP.expref) };
      case "lparen": { const e = expression(0); match("rparen"); return e; }
      default: return fail(tok);
    }
  }

  function led(tok, left) {
    const t = tok.type;
    if (t === "dot") {
      if (peek().type === "star") {
        pos++;
        return { type: "valueProjection", left, right: projectionRHS(JMES_BP.dot) };
      }
      return { type: "subexpression", left, right: dotRHS(JMES_BP.dot) };
    }
    if (t === "pipe" || t === "or" || t === "and") return { type: t, left, right: expression(JMES_BP[t]) };
    if (JMES_COMPARATORS.includes(t)) return { type: "comparator", op: t, left, right: expression(JMES_BP[t]) };
    if (t === "lparen") {
      if (left.type !== "field") fail(tok);
      const args = [];
      while (peek().type !== "rparen") {
        args.push(expression(0));
        if (peek().type === "comma") { pos++; if (peek().type === "rparen") fail(peek()); }
        else if (peek().type !== "rparen") fail(peek());
      }
      pos++;
      jmesCheckFunction(left.name, args.length);
      return { type: "function", name: left.name, args };
    }
    if (t === "filter") {
      const condition = expression(0);
      match("rbracket");
      const right = peek().type === "flatten" ? IDENTITY : projectionRHS(JMES_BP.filter);
      return { type: "filterProjection", left, right, condition };
    }
    if (t === "flatten")
      return { type: "projection", left: { type: "flatten", child: left }, right: projectionRHS(JMES_BP.flatten) };
    if (t === "lbracket") {
      if (peek().type === "number" || peek().type === "colon") return projectIfSlice(left, indexExpression());
      match("star");
      match("rbracket");
      return { type: "projection", left, right: projectionRHS(JMES_BP.star) };
    }
    return fail(tok);
  }

  function indexExpression() {
    if (peek().type === "number" && peek(1).type === "rbracket") {
      const n = tokens[pos].value;
      pos += 2;
      return { type: "index", value: n };
    }
    const parts = [null, null, null];
    let k = 0;
    while (peek().type !== "rbracket") {
      const tok = peek();
      if (tok.type === "colon") { if (++k > 2) fail(tok); pos++; }
      else if (tok.type === "number" && parts[k] === null) { parts[k] = tok.value; pos++; }
      else fail(tok);
    }
    pos++;
    return { type: "slice", start: parts[0], stop: parts[1], step: parts[2] };
  }

  function projectIfSlice(left, right) {
    const node = { type: "indexExpression", left, right };
    if (right.type !== "slice") return node;
    return { type: "projection", left: node, right: projectionRHS(JMES_BP.star) };
  }

  function projectionRHS(rbp) {
    const t = peek().type;
    if (JMES_BP[t] < 10) return IDENTITY;
    if (t === "lbracket" || t === "filter") return expression(rbp);
    if (t === "dot") { pos++; return dotRHS(rbp); }
    return fail(peek());
  }

  function dotRHS(rbp) {
    const t = peek().type;
    if (t === "unquoted" || t === "quoted" || t === "star") return expression(rbp);
    if (t === "lbracket") { pos++; return multiselectList(); }
    if (t === "lbrace") { pos++; return multiselectHash(); }
    return fail(peek());
  }

  function multiselectList() {
    const children = [];
    for (;;) {
      children.push(expression(0));
      if (peek().type === "rbracket") { pos++; return { type: "multiselectList", children }; }
      match("comma");
    }
  }

  function multiselectHash() {
    const pairs = [];
    for (;;) {
      const key = peek();
      if (key.type !== "unquoted" && key.type !== "quoted") fail(key);
      pos++;
      match("colon");
      pairs.push({ key: key.value, value: expression(0) });
      if (peek().type === "rbrace") { pos++; return { type: "multiselectHash", pairs }; }
      match("comma");
    }
  }

  const ast = expression(0);
  if (peek().type !== "eof") fail(peek());
  return ast;
}

// ------------------------------------------------------------ evaluation

function jmesType(v) {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "object") return v.jmesExpref ? "expref" : "object";
  return typeof v; // number, string, boolean
}

function jmesIsFalse(v) {
  const t = jmesType(v);
  return v === null || v === undefined || v === false || v === "" ||
    (t === "array" && v.length === 0) || (t === "object" && Object.keys(v).length === 0);
}

function jmesEqual(a, b) {
  const ta = jmesType(a);
  if (ta !== jmesType(b)) return false;
  if (ta === "array") return a.length === b.length && a.every((x, i) => jmesEqual(x, b[i]));
  if (ta === "object") {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jmesEqual(a[k], b[k]));
  }
  return a === b || (ta === "null");
}

function jmesSet(obj, key, value) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  return obj;
}

// Orders strings by Unicode code point (UTF-16 code units sort surrogates wrongly).
function jmesCompareStrings(a, b) {
  const fix = (c) => (c >= 0xe000 ? c - 0x800 : c >= 0xd800 ? c + 0x2000 : c);
  for (let i = 0; i < a.length && i < b.length; i++) {
    const d = fix(a.charCodeAt(i)) - fix(b.charCodeAt(i));
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function jmesCompare(a, b) {
  return typeof a === "number" ? a - b : jmesCompareStrings(a, b);
}

function jmesSlice(arr, node) {
  const len = arr.length, step = node.step === null ? 1 : node.step;
  if (step === 0) throw jmesError("invalid-value", "slice step cannot be 0");
  const clamp = (v, dflt) => {
    if (v === null) return dflt;
    if (v < 0) return Math.max(v + len, step < 0 ? -1 : 0);
    return Math.min(v, step < 0 ? len - 1 : len);
  };
  const start = clamp(node.start, step < 0 ? len - 1 : 0);
  const stop = clamp(node.stop, step < 0 ? -1 : len);
  const out = [];
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(arr[i]);
  return out;
}

function jmesEval(node, value) {
  switch (node.type) {
    case "identity": case "current": return value;
    case "literal": return node.value;
    case "field":
      return jmesType(value) === "object" && Object.prototype.hasOwnProperty.call(value, node.name)
        ? value[node.name] : null;
    case "subexpression": case "indexExpression": case "pipe":
      return jmesEval(node.right, jmesEval(node.left, value));
    case "index": {
      if (!Array.isArray(value)) return null;
      const i = node.value < 0 ? value.length + node.value : node.value;
      return i >= 0 && i < value.length ? value[i] : null;
    }
    case "slice": return Array.isArray(value) ? jmesSlice(value, node) : null;
    case "projection": case "valueProjection": case "filterProjection": {
      let base = jmesEval(node.left, value);
      if (node.type === "valueProjection") {
        if (jmesType(base) !== "object") return null;
        base = Object.values(base);
      } else if (!Array.isArray(base)) return null;
      const out = [];
      for (const item of base) {
        if (node.type === "filterProjection" && jmesIsFalse(jmesEval(node.condition, item))) continue;
        const r = jmesEval(node.right, item);
        if (r !== null && r !== undefined) out.push(r);
      }
      return out;
    }
    case "flatten": {
      const base = jmesEval(node.child, value);
      if (!Array.isArray(base)) return null;
      return [].concat(...base.map((x) => (Array.isArray(x) ? x : [x])));
    }
    case "comparator": {
      const a = jmesEval(node.left, value), b = jmesEval(node.right, value);
      if (node.op === "eq") return jmesEqual(a, b);
      if (node.op === "ne") return !jmesEqual(a, b);
      // Two numbers, or two strings by code point (as vow orders them); anything else is null.
      let c;
      if (typeof a === "number" && typeof b === "number") c = a < b ? -1 : a > b ? 1 : 0;
      else if (typeof a === "string" && typeof b === "string") c = jmesCompareStrings(a, b);
      else return null;
      return node.op === "lt" ? c < 0 : node.op === "lte" ? c <= 0 : node.op === "gt" ? c > 0 : c >= 0;
    }
    case "or": { const l = jmesEval(node.left, value); return jmesIsFalse(l) ? jmesEval(node.right, value) : l; }
    case "and": { const l = jmesEval(node.left, value); return jmesIsFalse(l) ? l : jmesEval(node.right, value); }
    case "not": return jmesIsFalse(jmesEval(node.child, value));
    case "multiselectList":
      return value === null ? null : node.children.map((c) => jmesEval(c, value));
    case "multiselectHash":
      if (value === null) return null;
      return node.pairs.reduce((o, p) => jmesSet(o, p.key, jmesEval(p.value, value)), {});
    case "expref": return { jmesExpref: true, node: node.child };
    case "function":
      return jmesCall(node.name, node.args.map((a) => jmesEval(a, value)));
    default: throw jmesError("syntax", "unknown node " + node.type);
  }
}

// ------------------------------------------------------------- functions

// Each entry: [argument type lists..., implementation]; a type list is
// "|"-separated; a trailing "..." on the last marks it variadic.
const JMES_FUNCTIONS = {
  abs: ["number", (n) => Math.abs(n)],
  avg: ["array-number", (a) => (a.length ? a.reduce((s, x) => s + x, 0) / a.length : null)],
  ceil: ["number", (n) => Math.ceil(n)],
  contains: ["array|string", "any", (s, x) =>
    typeof s === "string" ? typeof x === "string" && s.includes(x) : s.some((y) => jmesEqual(y, x))],
  ends_with: ["string", "string", (s, x) => s.endsWith(x)],
  floor: ["number", (n) => Math.floor(n)],
  join: ["string", "array-string", (g, a) => a.join(g)],
  keys: ["object", (o) => Object.keys(o)],
  length: ["string|array|object", (v) =>
    typeof v === "string" ? [...v].length : Array.isArray(v) ? v.length : Object.keys(v).length],
  map: ["expref", "array", (e, a) => a.map((x) => { const r = jmesEval(e.node, x); return r === undefined ? null : r; })],
  max: ["array-number|array-string", (a) => jmesExtreme(a, (x) => x, 1)],
  max_by: ["array", "expref", (a, e) => jmesExtreme(a, jmesKeyFunction(a, e, "max_by"), 1)],
  merge: ["object...", (...objs) => objs.reduce((o, x) => {
    for (const k of Object.keys(x)) jmesSet(o, k, x[k]);
    return o;
  }, {})],
  min: ["array-number|array-string", (a) => jmesExtreme(a, (x) => x, -1)],
  min_by: ["array", "expref", (a, e) => jmesExtreme(a, jmesKeyFunction(a, e, "min_by"), -1)],
  not_null: ["any...", (...args) => { const v = args.find((x) => x !== null); return v === undefined ? null : v; }],
  reverse: ["string|array", (v) => (typeof v === "string" ? [...v].reverse().join("") : v.slice().reverse())],
  sort: ["array-number|array-string", (a) => a.slice().sort(jmesCompare)],
  sort_by: ["array", "expref", (a, e) => {
    const key = jmesKeyFunction(a, e, "sort_by");
    return a.map((x) => [key(x), x]).sort((p, q) => jmesCompare(p[0], q[0])).map((p) => p[1]);
  }],
  starts_with: ["string", "string", (s, x) => s.startsWith(x)],
  sum: ["array-number", (a) => a.reduce((s, x) => s + x, 0)],
  to_array: ["any", (v) => (Array.isArray(v) ? v : [v])],
  to_number: ["any", (v) => {
    if (typeof v === "number") return v;
    if (typeof v === "string" && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(v)) return Number(v);
    return null;
  }],
  to_string: ["any", (v) => (typeof v === "string" ? v : JSON.stringify(v))],
  type: ["any", (v) => jmesType(v)],
  values: ["object", (o) => Object.values(o)],
};

function jmesCheckFunction(name, count) {
  const spec = JMES_FUNCTIONS[Object.prototype.hasOwnProperty.call(JMES_FUNCTIONS, name) ? name : ""];
  if (!spec) throw jmesError("unknown-function", "unknown function " + name + "()");
  const types = spec.slice(0, -1);
  const variadic = types[types.length - 1].endsWith("...");
  if (variadic ? count < types.length : count !== types.length)
    throw jmesError("invalid-arity", name + "() takes " + (variadic ? "at least " : "") +
      types.length + " argument(s), got " + count);
}

function jmesMatchesType(value, type) {
  const t = jmesType(value);
  if (type === "any") return t !== "expref";
  if (type.startsWith("array-"))
    return t === "array" && value.every((x) => jmesType(x) === type.slice(6));
  return t === type;
}

function jmesCall(name, args) {
  jmesCheckFunction(name, args.length);
  const spec = JMES_FUNCTIONS[name], fn = spec[spec.length - 1];
  args.forEach((arg, i) => {
    const expected = spec[Math.min(i, spec.length - 2)].replace("...", "");
    if (!expected.split("|").some((type) => jmesMatchesType(arg, type)))
      throw jmesError("invalid-type", name + "() argument " + (i + 1) + " must be " + expected +
        ", got " + jmesType(arg));
  });
  return fn(...args);
}

// Evaluates an expression reference on every element up front, requiring
// all results to be numbers or all to be strings.
function jmesKeyFunction(array, expref, name) {
  const keys = new Map();
  let kind = null;
  for (const item of array) {
    let k = jmesEval(expref.node, item);
    if (k === undefined) k = null;
    const t = jmesType(k);
    if ((t !== "number" && t !== "string") || (kind !== null && t !== kind))
      throw jmesError("invalid-type", name + "() expression must give " + (kind || "number or string") +
        " values, got " + t);
    kind = t;
    keys.set(item, k);
  }
  return (item) => keys.get(item);
}

function jmesExtreme(array, key, sign) {
  let best = null, bestKey = null;
  for (const item of array) {
    const k = key(item);
    if (best === null || jmesCompare(k, bestKey) * sign > 0) { best = item; bestKey = k; }
  }
  return best;
}

function search(data, expression) {
  if (typeof expression !== "string") throw jmesError("invalid-type", "expression must be a string");
  return jmesEval(jmesParse(expression), data);
}

const jmespath = { search };
