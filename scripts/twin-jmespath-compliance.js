#!/usr/bin/env node
// The twin's JMESPath (Sources/VowRuntime/Teaching/twin/jmespath.js) against the JMESPath
// Community compliance suite (testdata/jmespath-community-compliance) and vow's own cases
// (testdata/pick-extras.json), plus a timing check on a long dot chain.
//
//   node scripts/twin-jmespath-compliance.js [--source FILE] [--verbose] [FILE_OR_DIR ...]
//
// --source FILE    the JMESPath source to test (default: the twin's jmespath.js); the Swift tests
//                  pass the copy embedded into the binary
// --verbose        a line per file with its figures
// FILE_OR_DIR      case files, or folders searched for *.json (default: the two above)
//
// Each file is a list of suites {given, cases}; a case has an expression and one of `result`
// (compared by deep equality, numbers as numbers, object keys in any order), `error` (the kind,
// which must be the thrown message's prefix before ":") or `bench` (the case must evaluate without
// throwing; its result is not checked). Files under a folder named `legacy` run with legacy
// literals (`foo` read as "foo"), as the suite intends. Prints a line per failure, then
// `twin-jmespath: N passed, M failed`; exits 1 on any failure.

"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const root = path.resolve(__dirname, "..");
const args = process.argv.slice(2);
let source = path.join(root, "Sources/VowRuntime/Teaching/twin/jmespath.js");
let verbose = false;
const targets = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--source") source = args[++i];
  else if (args[i] === "--verbose") verbose = true;
  else targets.push(args[i]);
}
if (targets.length === 0) {
  targets.push(path.join(root, "testdata/jmespath-community-compliance"), path.join(root, "testdata/pick-extras.json"));
}

// The source is a plain script (top-level `const jmespath = { search }`), run as the twin runs it:
// in strict mode. A fresh context keeps it from leaning on anything of this runner's.
function loadJMESPath(file) {
  const context = vm.createContext({});
  vm.runInContext('"use strict";\n' + fs.readFileSync(file, "utf8"), context, { filename: file });
  return vm.runInContext("jmespath", context);
}

// Every *.json file under `target` (or `target` itself), in a stable order.
function caseFiles(target) {
  if (!fs.statSync(target).isDirectory()) return [target];
  return fs.readdirSync(target).sort().flatMap((name) => {
    const full = path.join(target, name);
    if (fs.statSync(full).isDirectory()) return caseFiles(full);
    return name.endsWith(".json") ? [full] : [];
  });
}

// JSON equality: numbers as numbers (1 and 1.0 are one value), object keys in any order.
// Values may come from another context, so no instanceof.
function same(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
}

// One case: null when it passes, otherwise what went wrong.
function runCase(jmespath, given, c, options) {
  let result;
  try {
    result = jmespath.search(given, c.expression, options);
  } catch (e) {
    if (!e || e.kind !== "pick" || typeof e.message !== "string") return "threw " + String(e && e.stack || e);
    const kind = e.message.split(":")[0];
    if ("error" in c) return kind === c.error ? null : "error " + JSON.stringify(e.message) + ", expected " + c.error;
    if ("bench" in c) return "error " + JSON.stringify(e.message);
    return "error " + JSON.stringify(e.message) + ", expected " + JSON.stringify(c.result);
  }
  if ("bench" in c) return null;
  if ("error" in c) return "gave " + JSON.stringify(result) + ", expected error " + c.error;
  if (result === undefined) return "gave undefined, expected " + JSON.stringify(c.result);
  return same(result, c.result) ? null : "gave " + JSON.stringify(result) + ", expected " + JSON.stringify(c.result);
}

// A chain of 50,000 dots on a document 50,000 deep gives its answer (no deep recursion that
// overflows the stack). How fast is the benchmark's business (scripts/bench pickchain), not a test's.
function longChainCheck(jmespath) {
  const n = 50000;
  const expression = Array(n).fill("a").join(".");
  let data = "end";
  for (let i = 0; i < n; i++) data = { a: data };
  let problem = null;
  try {
    const r = jmespath.search(data, expression);
    if (r !== "end") problem = "gave " + JSON.stringify(r).slice(0, 80);
  } catch (e) {
    problem = "threw " + String(e && e.message || e).slice(0, 200);
  }
  return problem;
}

const jmespath = loadJMESPath(source);
let passed = 0, failed = 0;
for (const file of targets.flatMap(caseFiles)) {
  const name = path.relative(root, file);
  const options = path.dirname(file).split(path.sep).includes("legacy") ? { legacyLiterals: true } : undefined;
  const suites = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!Array.isArray(suites)) continue; // not a case file (a schema, say)
  let filePassed = 0, fileFailed = 0;
  for (const suite of suites) {
    for (const c of suite.cases) {
      const problem = runCase(jmespath, suite.given, c, options);
      if (problem === null) { filePassed++; continue; }
      fileFailed++;
      console.log("FAIL " + name + ": " + JSON.stringify(c.expression) + ": " + problem);
    }
  }
  passed += filePassed;
  failed += fileFailed;
  if (verbose) console.log("  " + name + ": " + filePassed + " passed, " + fileFailed + " failed");
}
const chain = longChainCheck(jmespath);
if (chain === null) passed++;
else { failed++; console.log("FAIL a 50,000-segment dot chain: " + chain); }
console.log("twin-jmespath: " + passed + " passed, " + failed + " failed");
process.exit(failed === 0 ? 0 : 1);
