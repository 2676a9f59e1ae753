// Loaded with `node -r` before a twin that scripts/difftest.py wrote: records, for every line
// the twin writes to stdout, how many turns of the program had run when it was written, and
// writes the lines with their turns as JSON to the file named by VOW_TURNS_OUT when node exits.
//
// A turn is a promise job that node's async_hooks report (`before` of a PROMISE resource): a
// reaction (then, catch, an await, a combinator's reaction to an element), and both jobs of
// adopting a promise (PromiseResolveThenableJob, then the reaction that settles the adopter:
// with hooks enabled, V8 gives it a promise of its own). The twin's scaffolding (the main
// function, the await of a statement's value, the catch of a background job) sets
// `globalThis.scaffold` just before it makes its one promise; that promise's jobs are not the
// program's, as vow's own bookkeeping is not, and are not counted.
"use strict";
const hooks = require("async_hooks");
const fs = require("fs");
const promises = new Set();
const scaffolding = new Set();
let turns = 0;
hooks.createHook({
  init(id, type) {
    if (type !== "PROMISE") return;
    promises.add(id);
    if (globalThis.scaffold) {
      scaffolding.add(id);
      globalThis.scaffold = 0;
    }
  },
  before(id) {
    if (promises.has(id) && !scaffolding.has(id)) turns++;
  },
}).enable();
const lines = [];
let partial = "";
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const parts = (partial + String(chunk)).split("\n");
  partial = parts.pop();
  for (const line of parts) lines.push([turns, line]);
  return write(chunk, ...rest);
};
process.on("exit", () => {
  if (partial) lines.push([turns, partial]);
  if (process.env.VOW_TURNS_OUT) fs.writeFileSync(process.env.VOW_TURNS_OUT, JSON.stringify(lines));
});
