// Over 400 lines on purpose: the twin carries its JMESPath as this one script (lexer, parser,
// evaluator, functions, in that order), embedded whole into the binary and into every twin.
//
// JMESPath Community Edition (https://jmespath.site) in plain JavaScript, with vow's own
// functions (round, now, to_iso8601, from_iso8601, matches, regex_replace).
// search(data, expression) returns the result; problems are thrown as {kind: "pick", message},
// the message starting with the error type (syntax, invalid-type, invalid-arity, invalid-value,
// unknown-function, undefined-variable, not-a-number).
// search(data, expression, { legacyLiterals: true }) also reads a backtick literal that is not
// JSON as a string (`foo` as "foo"), the behaviour JEP-12 removed.

function jmesError(type, message) {
  return { kind: "pick", message: type + ": " + message };
}

// ---------------------------------------------------------------- lexer

// Tokens of one character that never start a longer one.
const JMES_SIMPLE_TOKENS = {
  ".": "dot", "*": "star", ",": "comma", ":": "colon", "{": "lbrace", "}": "rbrace",
  "]": "rbracket", "(": "lparen", ")": "rparen", "@": "current", "+": "plus", "%": "modulo",
  "?": "question", "\u2212": "minus", "\u00d7": "multiply", "\u00f7": "divide",
};
// Operators of one or two characters; the two-character form wins.
const JMES_OPERATORS = {
  "||": "or", "&&": "and", "==": "eq", "!=": "ne", "<=": "lte", ">=": "gte", "//": "intDivide",
  "|": "pipe", "&": "expref", "!": "not", "<": "lt", ">": "gt", "=": "assign", "/": "divide", "-": "minus",
};

function jmesIsIdentifierStart(c) {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
}

function jmesIsIdentifierPart(c) {
  return jmesIsIdentifierStart(c) || (c >= "0" && c <= "9");
}

function jmesIsDigit(c) {
  return c >= "0" && c <= "9";
}

// The text between the quote at `start` and its closing twin, escapes left as they are (a
// backslash always takes the next character with it); `end` is the index after the closing quote.
function jmesReadDelimited(text, start) {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length && text[i] !== quote) i += text[i] === "\\" ? 2 : 1;
  if (i >= text.length) throw jmesError("syntax", "unterminated " + quote + " at position " + start);
  return { raw: text.slice(start + 1, i), end: i + 1 };
}

// 'raw string': only \' and \\ are escapes; any other backslash stands for itself.
function jmesRawString(raw) {
  return raw.replace(/\\([\\'])/g, "$1");
}

// `json literal`, with \` for a backtick. With legacy literals, text that is not JSON is read as
// the contents of a JSON string (leading blanks dropped).
function jmesJSONLiteral(raw, start, legacy) {
  const json = raw.replace(/\\`/g, "`");
  try { return JSON.parse(json); } catch (e) { /* tried below */ }
  if (legacy) {
    try { return JSON.parse("\"" + json.replace(/^\s+/, "") + "\""); } catch (e) { /* a syntax error */ }
  }
  throw jmesError("syntax", "invalid JSON literal at position " + start);
}

// "quoted identifier": a JSON string.
function jmesQuotedIdentifier(raw, start) {
  try { return JSON.parse("\"" + raw + "\""); } catch (e) {
    throw jmesError("syntax", "invalid quoted identifier at position " + start);
  }
}

function jmesTokenize(text, legacy) {
  const tokens = [];
  const push = (type, value, start) => tokens.push({ type, value, start });
  let i = 0;
  while (i < text.length) {
    const c = text[i], start = i;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") { i++; continue; }
    if (jmesIsIdentifierStart(c)) {
      while (i < text.length && jmesIsIdentifierPart(text[i])) i++;
      push("unquoted", text.slice(start, i), start);
    } else if (jmesIsDigit(c) || (c === "-" && jmesIsDigit(text[i + 1] || ""))) {
      i++;
      while (i < text.length && jmesIsDigit(text[i])) i++;
      push("number", parseInt(text.slice(start, i), 10), start);
    } else if (c === "$") {
      i++;
      if (!jmesIsIdentifierStart(text[i] || "")) { push("root", "$", start); continue; }
      while (i < text.length && jmesIsIdentifierPart(text[i])) i++;
      push("variable", text.slice(start + 1, i), start);
    } else if (c === "[") {
      const next = text[i + 1];
      i += next === "]" || next === "?" ? 2 : 1;
      push(next === "]" ? "flatten" : next === "?" ? "filter" : "lbracket", text.slice(start, i), start);
    } else if (c === "\"" || c === "'" || c === "`") {
      const { raw, end } = jmesReadDelimited(text, start);
      i = end;
      if (c === "\"") push("quoted", jmesQuotedIdentifier(raw, start), start);
      else push("literal", c === "'" ? jmesRawString(raw) : jmesJSONLiteral(raw, start, legacy), start);
    } else if (JMES_SIMPLE_TOKENS[c]) {
      i++;
      push(JMES_SIMPLE_TOKENS[c], c, start);
    } else {
      const two = text.slice(i, i + 2);
      const op = JMES_OPERATORS[two] ? two : JMES_OPERATORS[c] ? c : null;
      if (op === null) throw jmesError("syntax", "unexpected character '" + c + "' at position " + start);
      i += op.length;
      push(JMES_OPERATORS[op], op, start);
    }
  }
  push("eof", null, text.length);
  return tokens;
}

// --------------------------------------------------------------- parser

// How tightly each token binds what is on its left, weakest first; a token not listed binds
// nothing (ends an expression). Below JMES_PROJECTION_STOP a token ends a projection.
const JMES_BP = {
  pipe: 1, question: 2, or: 3, and: 4, eq: 5, ne: 5, lt: 5, lte: 5, gt: 5, gte: 5,
  plus: 6, minus: 6, star: 7, multiply: 7, divide: 7, modulo: 7, intDivide: 7,
  flatten: 9, filter: 21, dot: 40, lbracket: 55, lparen: 60,
};
const JMES_PROJECTION_STOP = 10;
// What a projection applies to the right of `*`, `[*]` and slices, and what `!`, unary signs and
// `&` take.
const JMES_RBP = { star: 20, not: 45, sign: 6, expref: 0 };
const JMES_COMPARATORS = ["eq", "ne", "lt", "lte", "gt", "gte"];
const JMES_ARITHMETIC = ["plus", "minus", "star", "multiply", "divide", "modulo", "intDivide"];

function jmesBindingPower(type) {
  return JMES_BP[type] || 0;
}

// `left.right` or `left[index]`: one chain of steps, so that a long one is neither deep nor slow.
function jmesChain(left, right) {
  if (left.type === "chain") { left.steps.push(right); return left; }
  return { type: "chain", steps: [left, right] };
}

// `a | b`, `a || b`, `a && b` gather their operands the same way.
function jmesGather(type, left, right) {
  if (left.type === type) { left.children.push(right); return left; }
  return { type, children: [left, right] };
}

// A Pratt parser over the tokens. Functions are checked (known, right number of arguments) once
// the whole expression has parsed, so that a syntax error anywhere is the error reported.
function jmesParse(text, legacy) {
  const tokens = jmesTokenize(text, legacy);
  const calls = [];
  let pos = 0;
  const peek = (n = 0) => tokens[Math.min(pos + n, tokens.length - 1)];
  const fail = (tok) => {
    throw jmesError("syntax", (tok.type === "eof" ? "unexpected end of expression"
      : "unexpected token " + JSON.stringify(String(tok.value)) + " (" + tok.type + ")") +
      " at position " + tok.start + " in " + JSON.stringify(text));
  };
  const match = (type) => { if (peek().type !== type) fail(peek()); return tokens[pos++]; };
  const CURRENT = { type: "current" };

  function expression(rbp) {
    let left = nud(tokens[pos++]);
    while (rbp < jmesBindingPower(peek().type)) left = led(tokens[pos++], left);
    return left;
  }

  // A token at the start of an expression.
  function nud(tok) {
    switch (tok.type) {
      case "literal": return { type: "literal", value: tok.value };
      case "unquoted":
        if (tok.value === "let" && peek().type === "variable") return letExpression();
        return { type: "field", name: tok.value };
      case "quoted":
        if (peek().type === "lparen") fail(peek()); // function names cannot be quoted
        return { type: "field", name: tok.value };
      case "variable": return { type: "variable", name: tok.value };
      case "root": return { type: "root" };
      case "current": return CURRENT;
      case "not": return { type: "not", child: expression(JMES_RBP.not) };
      case "plus": case "minus": return { type: "unary", op: tok.type, child: expression(JMES_RBP.sign) };
      case "star":
        return { type: "projection", kind: "object", left: CURRENT,
          right: peek().type === "rbracket" ? CURRENT : projectionRHS(JMES_RBP.star) };
      case "filter": return led(tok, CURRENT);
      case "lbrace": return multiselectHash();
      case "flatten":
        return { type: "projection", kind: "array", left: { type: "flatten", child: CURRENT },
          right: projectionRHS(JMES_BP.flatten) };
      case "lbracket":
        if (peek().type === "number" || peek().type === "colon") return bracket(null);
        if (peek().type === "star" && peek(1).type === "rbracket") {
          pos += 2;
          return { type: "projection", kind: "array", left: CURRENT, right: projectionRHS(JMES_RBP.star) };
        }
        return multiselectList();
      case "lparen": { const e = expression(0); match("rparen"); return e; }
      // A bare number is a number literal (`n > 5`), as in vow's own parser.
      case "number":
        if (peek().type === "dot" && peek(1).type === "number") fail(peek());
        return { type: "literal", value: tok.value };
      default: return fail(tok);
    }
  }

  // A token after an expression (`left`).
  function led(tok, left) {
    const t = tok.type;
    if (t === "dot") {
      if (peek().type === "star") {
        pos++;
        return { type: "projection", kind: "object", left, right: projectionRHS(JMES_BP.dot) };
      }
      return jmesChain(left, dotRHS(JMES_BP.dot));
    }
    if (t === "pipe" || t === "or" || t === "and") return jmesGather(t, left, expression(JMES_BP[t]));
    if (t === "question") {
      const whenTrue = expression(0);
      match("colon");
      // One less than `?` itself: `a ? b : c ? d : e` nests to the right, and `|` still ends it.
      return { type: "ternary", condition: left, whenTrue, whenFalse: expression(JMES_BP.question - 1) };
    }
    if (JMES_COMPARATORS.includes(t)) return { type: "comparator", op: t, left, right: expression(JMES_BP[t]) };
    if (JMES_ARITHMETIC.includes(t))
      return { type: "arithmetic", op: t === "star" ? "multiply" : t, left, right: expression(JMES_BP[t]) };
    if (t === "lparen") return functionCall(tok, left);
    if (t === "filter") {
      const condition = expression(0);
      match("rbracket");
      const right = peek().type === "flatten" ? CURRENT : projectionRHS(JMES_BP.filter);
      return { type: "projection", kind: "filter", left, right, condition };
    }
    if (t === "flatten")
      return { type: "projection", kind: "array", left: { type: "flatten", child: left }, right: projectionRHS(JMES_BP.flatten) };
    if (t === "lbracket") {
      if (peek().type === "number" || peek().type === "colon") return bracket(left);
      match("star");
      match("rbracket");
      return { type: "projection", kind: "array", left, right: projectionRHS(JMES_RBP.star) };
    }
    return fail(tok);
  }

  // `name(args…)`, after the name.
  function functionCall(tok, left) {
    if (left.type !== "field") fail(tok);
    const node = { type: "function", name: left.name, args: [], start: tok.start };
    calls.push(node);
    while (peek().type !== "rparen") {
      node.args.push(argument());
      if (peek().type === "comma") { pos++; if (peek().type === "rparen") fail(peek()); }
      else if (peek().type !== "rparen") fail(peek());
    }
    pos++;
    return node;
  }

  // A function's argument: an expression, or `&expression` (only here: an expression reference
  // is never a value of its own).
  function argument() {
    if (peek().type !== "expref") return expression(0);
    pos++;
    return { type: "expref", child: expression(JMES_RBP.expref) };
  }

  // `let $a = …, $b = … in body`, after `let`. Every binding is evaluated in the scope around the
  // let; the body sees them all.
  function letExpression() {
    const bindings = [];
    for (;;) {
      const name = match("variable").value;
      match("assign");
      bindings.push({ name, value: expression(0) });
      if (peek().type === "unquoted" && peek().value === "in") { pos++; break; }
      match("comma");
    }
    return { type: "let", bindings, body: expression(0) };
  }

  // `[number]` or `[start:stop:step]`, after the `[`; `left` is what it applies to (null: the
  // current value). A slice starts a projection.
  function bracket(left) {
    if (peek().type === "number" && peek(1).type === "rbracket") {
      const index = { type: "index", value: tokens[pos].value };
      pos += 2;
      return left === null ? index : jmesChain(left, index);
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
    const slice = { type: "slice", start: parts[0], stop: parts[1], step: parts[2] };
    return { type: "projection", kind: "array", fromSlice: true,
      left: left === null ? slice : jmesChain(left, slice), right: projectionRHS(JMES_RBP.star) };
  }

  // What a projection applies to each element: nothing (the element) when the next token ends
  // the projection.
  function projectionRHS(rbp) {
    const t = peek().type;
    if (jmesBindingPower(t) < JMES_PROJECTION_STOP) return CURRENT;
    if (t === "lbracket" || t === "filter") return expression(rbp);
    if (t === "dot") { pos++; return dotRHS(rbp); }
    return fail(peek());
  }

  // After a dot: a name, a function call, `*`, or a multiselect.
  function dotRHS(rbp) {
    const t = peek().type;
    if (t === "unquoted" && peek().value === "let" && peek(1).type === "variable") fail(peek());
    if (t === "unquoted" || t === "quoted" || t === "star") return expression(rbp);
    if (t === "lbracket") { pos++; return multiselectList(); }
    if (t === "lbrace") { pos++; return multiselectHash(); }
    return fail(peek());
  }

  function multiselectList() {
    const children = [];
    for (;;) {
      // A bare number is no element of a multiselect list (`foo.[0]` is an error), as in vow.
      if (peek().type === "number" && (peek(1).type === "comma" || peek(1).type === "rbracket")) fail(peek());
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
  for (const call of calls) jmesCheckFunction(call.name, call.args.length);
  return ast;
}

// ------------------------------------------------------------ evaluation

// A function's `&expression` argument: the expression and the variables it sees.
class JmesExpression {
  constructor(node, context) {
    this.node = node;
    this.context = context;
  }
}

function jmesType(v) {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "array";
  if (v instanceof JmesExpression) return "expref";
  return typeof v; // object, number, string, boolean
}

function jmesIsFalse(v) {
  if (v === null || v === undefined || v === false || v === "") return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === "object" && !(v instanceof JmesExpression) && Object.keys(v).length === 0;
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
  return a === b || ta === "null";
}

// Sets a key even when it is "__proto__".
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

// Python's slice of a list of `length` items: the indices it selects.
function jmesSliceIndices(length, start, stop, step) {
  if (step === 0) throw jmesError("invalid-value", "slice step cannot be 0");
  const clamp = (v, dflt) => {
    if (v === null) return dflt;
    if (v < 0) return Math.max(v + length, step < 0 ? -1 : 0);
    return Math.min(v, step < 0 ? length - 1 : length);
  };
  const from = clamp(start, step < 0 ? length - 1 : 0), to = clamp(stop, step < 0 ? -1 : length);
  const out = [];
  for (let i = from; step > 0 ? i < to : i > to; i += step) out.push(i);
  return out;
}

// A slice of an array, or of a string by code point (giving a string).
function jmesSlice(value, node) {
  const step = node.step === null ? 1 : node.step;
  if (typeof value === "string") {
    const chars = Array.from(value);
    return jmesSliceIndices(chars.length, node.start, node.stop, step).map((i) => chars[i]).join("");
  }
  if (!Array.isArray(value)) return null;
  return jmesSliceIndices(value.length, node.start, node.stop, step).map((i) => value[i]);
}

function jmesLookupVariable(name, scope) {
  for (let s = scope; s !== null; s = s.parent) if (s.vars.has(name)) return s.vars.get(name);
  throw jmesError("undefined-variable", "$" + name + " is not defined here");
}

// Two numbers, or two strings by code point (as vow orders them); anything else is null.
function jmesOrder(op, a, b) {
  let c;
  if (typeof a === "number" && typeof b === "number") c = a < b ? -1 : a > b ? 1 : 0;
  else if (typeof a === "string" && typeof b === "string") c = jmesCompareStrings(a, b);
  else return null;
  return op === "lt" ? c < 0 : op === "lte" ? c <= 0 : op === "gt" ? c > 0 : c >= 0;
}

// Python's floor division and modulo (the remainder takes the divisor's sign, and
// a == b * (a // b) + a % b).
function jmesFloorDivMod(a, b) {
  let mod = a % b, div = (a - mod) / b;
  if (mod !== 0 && (b < 0) !== (mod < 0)) { mod += b; div -= 1; }
  let floor = Math.floor(div);
  if (div - floor > 0.5) floor += 1;
  return [floor, mod];
}

// + - * / % // on two numbers; anything else, a zero divisor or a result too large is not-a-number.
function jmesArithmetic(op, a, b) {
  const symbol = { plus: "+", minus: "-", multiply: "*", divide: "/", modulo: "%", intDivide: "//" }[op];
  if (typeof a !== "number" || typeof b !== "number")
    throw jmesError("not-a-number", "'" + symbol + "' needs two numbers, got " + jmesType(a) + " and " + jmesType(b));
  if ((op === "divide" || op === "modulo" || op === "intDivide") && b === 0)
    throw jmesError("not-a-number", "'" + symbol + "' by zero");
  let r;
  if (op === "plus") r = a + b;
  else if (op === "minus") r = a - b;
  else if (op === "multiply") r = a * b;
  else if (op === "divide") r = a / b;
  else r = jmesFloorDivMod(a, b)[op === "intDivide" ? 0 : 1];
  if (!Number.isFinite(r)) throw jmesError("not-a-number", "'" + symbol + "' gives a number too large");
  return r;
}

function jmesUnary(op, a) {
  if (typeof a !== "number")
    throw jmesError("not-a-number", "unary '" + (op === "minus" ? "-" : "+") + "' needs a number, got " + jmesType(a));
  return op === "minus" ? -a : a;
}

// The elements a projection applies its right side to, or null when there are none to have.
function jmesProjectionBase(node, base) {
  if (node.kind === "object") return jmesType(base) === "object" ? Object.values(base) : null;
  return Array.isArray(base) ? base : null;
}

// `context` is { root, scope }: the document searched (`$`) and the variables in scope, a
// chain of { vars: Map, parent }.
function jmesEval(node, value, context) {
  switch (node.type) {
    case "current": return value;
    case "root": return context.root;
    case "literal": return node.value;
    case "variable": return jmesLookupVariable(node.name, context.scope);
    case "field":
      return jmesType(value) === "object" && Object.prototype.hasOwnProperty.call(value, node.name)
        ? value[node.name] : null;
    case "chain": {
      // `a.b[0].c`: each step applies to the result of the one before; null stops the chain.
      let v = value;
      for (const step of node.steps) {
        v = jmesEval(step, v, context);
        if (v === null || v === undefined) return null;
      }
      return v;
    }
    case "pipe": {
      // Unlike a chain, a pipe carries null on to its right side.
      let v = value;
      for (const step of node.children) v = jmesEval(step, v, context);
      return v;
    }
    case "index": {
      if (!Array.isArray(value)) return null;
      const i = node.value < 0 ? value.length + node.value : node.value;
      return i >= 0 && i < value.length ? value[i] : null;
    }
    case "slice": return jmesSlice(value, node);
    case "projection": {
      const base = jmesEval(node.left, value, context);
      // A sliced string is one value, not elements to project onto.
      if (node.fromSlice && typeof base === "string") return jmesEval(node.right, base, context);
      const elements = jmesProjectionBase(node, base);
      if (elements === null) return null;
      const out = [];
      for (const item of elements) {
        if (node.kind === "filter" && jmesIsFalse(jmesEval(node.condition, item, context))) continue;
        const r = jmesEval(node.right, item, context);
        if (r !== null && r !== undefined) out.push(r);
      }
      return out;
    }
    case "flatten": {
      const base = jmesEval(node.child, value, context);
      if (!Array.isArray(base)) return null;
      const out = [];
      for (const x of base) { if (Array.isArray(x)) out.push(...x); else out.push(x); }
      return out;
    }
    case "comparator": {
      const a = jmesEval(node.left, value, context), b = jmesEval(node.right, value, context);
      if (node.op === "eq") return jmesEqual(a, b);
      if (node.op === "ne") return !jmesEqual(a, b);
      return jmesOrder(node.op, a, b);
    }
    case "arithmetic":
      return jmesArithmetic(node.op, jmesEval(node.left, value, context), jmesEval(node.right, value, context));
    case "unary": return jmesUnary(node.op, jmesEval(node.child, value, context));
    case "or": case "and": {
      // The first operand that is true (||) or false (&&), else the last.
      let v = null;
      for (const child of node.children) {
        v = jmesEval(child, value, context);
        if (jmesIsFalse(v) === (node.type === "and")) return v;
      }
      return v;
    }
    case "not": return jmesIsFalse(jmesEval(node.child, value, context));
    case "ternary":
      return jmesEval(jmesIsFalse(jmesEval(node.condition, value, context)) ? node.whenFalse : node.whenTrue, value, context);
    case "multiselectList": return node.children.map((c) => jmesEval(c, value, context));
    case "multiselectHash":
      return node.pairs.reduce((o, p) => jmesSet(o, p.key, jmesEval(p.value, value, context)), {});
    case "let": {
      const vars = new Map();
      for (const b of node.bindings) vars.set(b.name, jmesEval(b.value, value, context));
      return jmesEval(node.body, value, { root: context.root, scope: { vars, parent: context.scope } });
    }
    case "expref": return new JmesExpression(node.child, context);
    case "function":
      return jmesCall(node.name, node.args.map((a) => jmesEval(a, value, context)));
    default: throw jmesError("syntax", "unknown node " + node.type);
  }
}

// Evaluates an expression reference on one value; null for nothing.
function jmesApply(expref, value) {
  const r = jmesEval(expref.node, value, expref.context);
  return r === undefined ? null : r;
}

// ------------------------------------------------------------- functions

// Each entry: the argument types, then the implementation. A type is "|"-separated; a trailing
// "?" marks an optional argument, a trailing "..." a last argument that may repeat (at least once).
const JMES_FUNCTIONS = {
  abs: ["number", (n) => Math.abs(n)],
  avg: ["array-number", (a) => (a.length ? a.reduce((s, x) => s + x, 0) / a.length : null)],
  ceil: ["number", (n) => Math.ceil(n)],
  contains: ["array|string", "any", (s, x) =>
    typeof s === "string" ? typeof x === "string" && s.includes(x) : s.some((y) => jmesEqual(y, x))],
  ends_with: ["string", "string", (s, x) => s.endsWith(x)],
  find_first: ["string", "string", "number?", "number?", (s, x, from, to) => jmesFind("find_first", s, x, from, to, false)],
  find_last: ["string", "string", "number?", "number?", (s, x, from, to) => jmesFind("find_last", s, x, from, to, true)],
  floor: ["number", (n) => Math.floor(n)],
  from_items: ["array", jmesFromItems],
  group_by: ["array", "expref", jmesGroupBy],
  items: ["object", (o) => Object.keys(o).map((k) => [k, o[k]])],
  join: ["string", "array-string", (g, a) => a.join(g)],
  keys: ["object", (o) => Object.keys(o)],
  length: ["string|array|object", (v) =>
    typeof v === "string" ? Array.from(v).length : Array.isArray(v) ? v.length : Object.keys(v).length],
  lower: ["string", (s) => s.toLowerCase()],
  map: ["expref", "array", (e, a) => a.map((x) => jmesApply(e, x))],
  max: ["array-number|array-string", (a) => jmesExtreme(a, (x) => x, 1)],
  max_by: ["array", "expref", (a, e) => jmesExtreme(a, jmesKeyFunction(a, e, "max_by"), 1)],
  merge: ["object...", (...objs) => objs.reduce((o, x) => {
    for (const k of Object.keys(x)) jmesSet(o, k, x[k]);
    return o;
  }, {})],
  min: ["array-number|array-string", (a) => jmesExtreme(a, (x) => x, -1)],
  min_by: ["array", "expref", (a, e) => jmesExtreme(a, jmesKeyFunction(a, e, "min_by"), -1)],
  not_null: ["any...", (...args) => { const v = args.find((x) => x !== null); return v === undefined ? null : v; }],
  pad_left: ["string", "number", "string?", (s, w, p) => jmesPad("pad_left", s, w, p, true)],
  pad_right: ["string", "number", "string?", (s, w, p) => jmesPad("pad_right", s, w, p, false)],
  replace: ["string", "string", "string", "number?", jmesReplace],
  reverse: ["string|array", (v) => (typeof v === "string" ? Array.from(v).reverse().join("") : v.slice().reverse())],
  sort: ["array-number|array-string", (a) => a.slice().sort(jmesCompare)],
  sort_by: ["array", "expref", (a, e) => {
    const key = jmesKeyFunction(a, e, "sort_by");
    return a.map((x) => [key(x), x]).sort((p, q) => jmesCompare(p[0], q[0])).map((p) => p[1]);
  }],
  split: ["string", "string", "number?", jmesSplit],
  starts_with: ["string", "string", (s, x) => s.startsWith(x)],
  sum: ["array-number", (a) => a.reduce((s, x) => s + x, 0)],
  to_array: ["any", (v) => (Array.isArray(v) ? v : [v])],
  to_number: ["any", (v) => {
    if (typeof v === "number") return v;
    if (typeof v === "string" && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(v)) return Number(v);
    return null;
  }],
  to_string: ["any", (v) => (typeof v === "string" ? v : JSON.stringify(v))],
  trim: ["string", "string?", (s, chars) => jmesTrim(s, chars, true, true)],
  trim_left: ["string", "string?", (s, chars) => jmesTrim(s, chars, true, false)],
  trim_right: ["string", "string?", (s, chars) => jmesTrim(s, chars, false, true)],
  type: ["any", (v) => jmesType(v)],
  upper: ["string", (s) => s.toUpperCase()],
  values: ["object", (o) => Object.values(o)],
  zip: ["array...", (...arrays) => {
    const n = Math.min(...arrays.map((a) => a.length));
    return Array.from({ length: n }, (_, i) => arrays.map((a) => a[i]));
  }],

  // vow's own.
  round: ["number", "number?", jmesRound],
  now: [() => Date.now() / 1000],
  to_iso8601: ["number", jmesToISO8601],
  from_iso8601: ["string", jmesFromISO8601],
  matches: ["string", "string", (s, p) => jmesRegex("matches", p, "u").test(s)],
  regex_replace: ["string", "string", "string", jmesRegexReplace],
};

// Each function's signature, read once from JMES_FUNCTIONS: each parameter's types, how many
// arguments it needs at least and takes at most, and its implementation.
const JMES_SIGNATURES = new Map(Object.keys(JMES_FUNCTIONS).map((name) => {
  const spec = JMES_FUNCTIONS[name];
  const params = spec.slice(0, -1).map((p) => p.replace(/(\?|\.\.\.)$/, "").split("|"));
  const required = spec.slice(0, -1).filter((p) => !p.endsWith("?")).length;
  const variadic = params.length > 0 && spec[params.length - 1].endsWith("...");
  return [name, { params, required, most: variadic ? Infinity : params.length, fn: spec[spec.length - 1] }];
}));

function jmesCheckFunction(name, count) {
  const sig = JMES_SIGNATURES.get(name);
  if (sig === undefined) throw jmesError("unknown-function", "unknown function " + name + "()");
  if (count < sig.required || count > sig.most) {
    const wanted = sig.most === Infinity ? "at least " + sig.required
      : sig.required === sig.most ? String(sig.required) : sig.required + " to " + sig.most;
    throw jmesError("invalid-arity", name + "() takes " + wanted + " argument(s), got " + count);
  }
  return sig;
}

function jmesMatchesType(value, type) {
  const t = jmesType(value);
  if (type === "any") return t !== "expref";
  if (type.startsWith("array-"))
    return t === "array" && value.every((x) => jmesType(x) === type.slice(6));
  return t === type;
}

// Calls a function on evaluated arguments, each checked against its parameter's types (the last
// parameter's for the repeats of a variadic one).
function jmesCall(name, args) {
  const sig = jmesCheckFunction(name, args.length);
  args.forEach((arg, i) => {
    const expected = sig.params[Math.min(i, sig.params.length - 1)];
    if (!expected.some((type) => jmesMatchesType(arg, type)))
      throw jmesError("invalid-type", name + "() argument " + (i + 1) + " must be " + expected.join("|") +
        ", got " + jmesType(arg));
  });
  return sig.fn(...args);
}

function jmesRequireInteger(name, what, n) {
  if (!Number.isInteger(n)) throw jmesError("invalid-value", name + "() " + what + " must be an integer, got " + n);
}

function jmesRequireCount(name, what, n) {
  if (!Number.isInteger(n) || n < 0)
    throw jmesError("invalid-value", name + "() " + what + " must be a non-negative integer, got " + n);
}

// Evaluates an expression reference on every element up front, requiring
// all results to be numbers or all to be strings.
function jmesKeyFunction(array, expref, name) {
  const keys = new Map();
  let kind = null;
  for (const item of array) {
    const k = jmesApply(expref, item);
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

// group_by: the elements under the string their key gives, in order of first appearance; an
// element whose key is null is left out, any other key is invalid-type.
function jmesGroupBy(array, expref) {
  const groups = {};
  for (const item of array) {
    const key = jmesApply(expref, item);
    if (key === null) continue;
    if (typeof key !== "string")
      throw jmesError("invalid-type", "group_by() expression must give string or null values, got " + jmesType(key));
    if (Object.prototype.hasOwnProperty.call(groups, key)) groups[key].push(item);
    else jmesSet(groups, key, [item]);
  }
  return groups;
}

// from_items: an object from [key, value] pairs; a later pair wins.
function jmesFromItems(pairs) {
  const out = {};
  for (const p of pairs) {
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== "string")
      throw jmesError("invalid-type", "from_items() needs [string, value] pairs, got " + JSON.stringify(p));
    jmesSet(out, p[0], p[1]);
  }
  return out;
}

// Python's index into a string of `length` code points, as the bound of a slice.
function jmesClampIndex(i, length) {
  return i < 0 ? Math.max(i + length, 0) : Math.min(i, length);
}

// find_first / find_last: the code point index of the first (last) `sub` lying wholly within
// subject[start:end] (Python's slice bounds), or null; an empty `sub` is never found.
function jmesFind(name, subject, sub, start, end, last) {
  if (start !== undefined) jmesRequireInteger(name, "start", start);
  if (end !== undefined) jmesRequireInteger(name, "end", end);
  if (sub === "") return null;
  const chars = Array.from(subject), needle = Array.from(sub);
  const from = jmesClampIndex(start === undefined ? 0 : start, chars.length);
  const to = jmesClampIndex(end === undefined ? chars.length : end, chars.length);
  const at = (i) => needle.every((c, j) => chars[i + j] === c);
  if (last) { for (let i = to - needle.length; i >= from; i--) if (at(i)) return i; }
  else { for (let i = from; i + needle.length <= to; i++) if (at(i)) return i; }
  return null;
}

// pad_left / pad_right: `subject` padded to `width` code points with `pad` (one code point,
// a space by default); a subject that long already is unchanged.
function jmesPad(name, subject, width, pad, left) {
  jmesRequireCount(name, "width", width);
  const p = pad === undefined ? " " : pad;
  if (Array.from(p).length !== 1) throw jmesError("invalid-value", name + "() pad must be one character, got " + JSON.stringify(p));
  const fill = p.repeat(Math.max(0, width - Array.from(subject).length));
  return left ? fill + subject : subject + fill;
}

// replace: the first `count` (default: every) occurrences of `old` replaced, left to right. An
// empty `old` occurs before every code point and at the end, as in Python.
function jmesReplace(subject, old, replacement, count) {
  if (count !== undefined) jmesRequireCount("replace", "count", count);
  const limit = count === undefined ? Infinity : count;
  let out = "", n = 0;
  if (old === "") {
    const chars = Array.from(subject);
    for (let i = 0; i <= chars.length; i++) {
      if (n < limit) { out += replacement; n++; }
      if (i < chars.length) out += chars[i];
    }
    return out;
  }
  let from = 0;
  for (; n < limit; n++) {
    const at = subject.indexOf(old, from);
    if (at < 0) break;
    out += subject.slice(from, at) + replacement;
    from = at + old.length;
  }
  return out + subject.slice(from);
}

// split: the pieces between occurrences of `separator`, splitting at most `count` times (the
// last piece keeps the rest). An empty separator splits between code points: without a count
// every code point (an empty subject gives no pieces); with one, that many code points and then
// the rest as one piece, empty when nothing is left, as the reference implementation splits.
function jmesSplit(subject, separator, count) {
  if (count !== undefined) jmesRequireCount("split", "count", count);
  const limit = count === undefined ? Infinity : count;
  if (separator === "") {
    const chars = Array.from(subject);
    if (count === undefined) return chars;
    const cut = Math.min(limit, chars.length);
    return chars.slice(0, cut).concat([chars.slice(cut).join("")]);
  }
  const out = [];
  let from = 0;
  while (out.length < limit) {
    const at = subject.indexOf(separator, from);
    if (at < 0) break;
    out.push(subject.slice(from, at));
    from = at + separator.length;
  }
  out.push(subject.slice(from));
  return out;
}

// trim / trim_left / trim_right: leading and/or trailing code points that are in `chars`, or
// that are Unicode White_Space when `chars` is absent or empty.
function jmesTrim(subject, chars, left, right) {
  const set = chars ? new Set(Array.from(chars)) : null;
  const strip = (c) => (set ? set.has(c) : /^\p{White_Space}$/u.test(c));
  const cps = Array.from(subject);
  let a = 0, b = cps.length;
  if (left) while (a < b && strip(cps[a])) a++;
  if (right) while (b > a && strip(cps[b - 1])) b--;
  return cps.slice(a, b).join("");
}

// ----------------------------------------------------- vow's own functions

// round(x) and round(x, digits): x rounded to `digits` decimal places (an integer, default 0;
// negative rounds to tens, hundreds…), half away from zero, in decimal: the digits rounded are
// those of x's shortest decimal form (what JavaScript and Swift print for it), so round(1.45, 1)
// is 1.5 and round(2.675, 2) is 2.68 although neither 1.45 nor 2.675 is exact in binary. The
// result is the double nearest the rounded decimal; never -0; too large is not-a-number.
function jmesRound(x, digits) {
  const d = digits === undefined ? 0 : digits;
  jmesRequireInteger("round", "digits", d);
  // |x| = mantissa × 10^exponent, the mantissa an integer of the shortest digits.
  const [m, e] = Math.abs(x).toExponential().split("e");
  const mantissa = m.replace(".", ""), exponent = Number(e) - (mantissa.length - 1);
  const drop = -d - exponent; // how many trailing digits fall below 10^-d
  if (drop <= 0) return x === 0 ? 0 : x; // already that precise
  const keep = mantissa.length - drop;
  const kept = BigInt(keep > 0 ? mantissa.slice(0, keep) : "0") + (keep >= 0 && mantissa[keep] >= "5" ? 1n : 0n);
  const r = Number(kept + "e" + -d) * (x < 0 ? -1 : 1);
  if (!Number.isFinite(r)) throw jmesError("not-a-number", "round() gives a number too large");
  return r === 0 ? 0 : r;
}

// Instants to_iso8601 writes: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, in milliseconds.
const JMES_FIRST_MS = -62135596800000, JMES_LAST_MS = 253402300799999;

// to_iso8601(seconds since the epoch): UTC, to the millisecond (round(seconds, 3)), the
// fraction written only when there is one and without trailing zeros: 2026-11-25T13:58:38Z,
// 2026-11-25T13:58:38.25Z. Years 1 to 9999; any other instant is invalid-value.
function jmesToISO8601(seconds) {
  const ms = Math.round(jmesRound(seconds, 3) * 1000);
  if (!(ms >= JMES_FIRST_MS && ms <= JMES_LAST_MS))
    throw jmesError("invalid-value", "to_iso8601() needs an instant in the years 1 to 9999, got " + seconds);
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const fraction = iso.slice(20, 23).replace(/0+$/, "");
  return iso.slice(0, 19) + (fraction ? "." + fraction : "") + "Z";
}

const JMES_ISO8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

// from_iso8601(text): seconds since the epoch of YYYY-MM-DDTHH:MM:SS, optional .fraction (any
// number of digits), then Z or ±hh:mm (ASCII digits, upper-case T and Z). The whole seconds
// and the fraction are added last. A date that does not exist, a year 0000, hour 24, second 60
// or an offset past 23:59 is invalid-value, as is any other text.
function jmesFromISO8601(text) {
  const invalid = () => jmesError("invalid-value", "from_iso8601() needs a date like 2026-11-25T13:58:38Z, got " + JSON.stringify(text));
  const m = JMES_ISO8601.exec(text);
  if (!m) throw invalid();
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const offset = m[8] ? (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 3600 + Number(m[10]) * 60) : 0;
  if (year < 1 || hour > 23 || minute > 59 || second > 59 || (m[8] && (Number(m[9]) > 23 || Number(m[10]) > 59)))
    throw invalid();
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) throw invalid();
  const whole = date.getTime() / 1000 + hour * 3600 + minute * 60 + second - offset;
  return whole + (m[7] ? Number("0." + m[7]) : 0);
}

// Compiled regular expressions by flags and pattern (a few; the same ones recur in a pick).
const jmesRegexCache = new Map();

// A regular expression (Unicode mode); an invalid pattern is invalid-value.
function jmesRegex(name, pattern, flags) {
  const key = flags + "/" + pattern;
  let re = jmesRegexCache.get(key);
  if (re === undefined) {
    try { re = new RegExp(pattern, flags); } catch (e) {
      throw jmesError("invalid-value", name + "() pattern " + JSON.stringify(pattern) + " is not a valid regular expression");
    }
    if (jmesRegexCache.size >= 64) jmesRegexCache.clear();
    jmesRegexCache.set(key, re);
  }
  return re;
}

// regex_replace: every match of `pattern` in `subject` replaced. In `replacement`, $0 to $9
// stand for the match and its groups (a group that took no part gives ""), $$ for a dollar; any
// other $ is itself. A $n past the pattern's last group is invalid-value.
function jmesRegexReplace(subject, pattern, replacement) {
  const re = jmesRegex("regex_replace", pattern, "gu");
  const groups = new RegExp(re.source + "|", "u").exec("").length - 1;
  for (const m of replacement.matchAll(/\$(\$|\d)/g)) {
    if (m[1] !== "$" && Number(m[1]) > groups)
      throw jmesError("invalid-value", "regex_replace() replacement refers to group " + m[1] + " but the pattern has " + groups);
  }
  return subject.replace(re, (...match) =>
    replacement.replace(/\$(\$|\d)/g, (_, c) => (c === "$" ? "$" : match[Number(c)] === undefined ? "" : match[Number(c)])));
}

// ---------------------------------------------------------------- search

// Parsed expressions by text (and literal mode): a pick applies the same one to every value.
const jmesParseCache = new Map();

function search(data, expression, options) {
  if (typeof expression !== "string") throw jmesError("invalid-type", "expression must be a string");
  const legacy = Boolean(options && options.legacyLiterals);
  const key = (legacy ? "L" : "J") + expression;
  let ast = jmesParseCache.get(key);
  if (ast === undefined) {
    ast = jmesParse(expression, legacy);
    if (jmesParseCache.size >= 256) jmesParseCache.clear();
    jmesParseCache.set(key, ast);
  }
  const r = jmesEval(ast, data, { root: data, scope: null });
  return r === undefined ? null : r;
}

const jmespath = { search };
