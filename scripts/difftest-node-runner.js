// The differential test's node runner for long campaigns (scripts/difftest --node workers): one
// node process runs many JavaScript programs, each in a worker thread of its own — its own V8
// isolate, event loop, microtask queue, timers, process.exitCode and unhandled-rejection
// handlers — so a program pays for a worker's start instead of a whole node process's.
//
// Requests, one JSON line each on stdin: {id, path, emitted, timeoutMs}. `emitted` loads the
// file from a check-phase callback after touching stdout, stderr and the timers, as
// `node -e "…; setImmediate(() => require(FILE))"` does for the emitted twin. Answers, one JSON
// line each on stdout: {id, stdout, stderr, rc}, rc the worker's exit code or "timeout".
"use strict";
const { Worker } = require("worker_threads");
const readline = require("readline");

const PRELUDE = "process.stdout; process.stderr; clearTimeout(setTimeout(() => {}, 1)); ";

function runOne(req) {
    const options = { stdout: true, stderr: true, argv: [], env: process.env };
    const worker = req.emitted
        ? new Worker(PRELUDE + `setImmediate(() => require(${JSON.stringify(req.path)}))`, { ...options, eval: true })
        : new Worker(req.path, options);
    const out = [];
    const err = [];
    let rc = null;
    let ended = 0;
    let timedOut = false;
    const timer = setTimeout(() => {
        timedOut = true;
        worker.terminate();
    }, req.timeoutMs);
    const finish = () => {
        if (ended < 2 || rc === null) return;
        clearTimeout(timer);
        process.stdout.write(JSON.stringify({
            id: req.id,
            stdout: Buffer.concat(out).toString("utf8"),
            stderr: Buffer.concat(err).toString("utf8"),
            rc: timedOut ? "timeout" : rc,
        }) + "\n");
    };
    worker.stdout.on("data", (d) => out.push(d));
    worker.stderr.on("data", (d) => err.push(d));
    worker.stdout.on("end", () => { ended++; finish(); });
    worker.stderr.on("end", () => { ended++; finish(); });
    // An uncaught exception: node prints it on stderr and exits with 1; the worker does the same.
    worker.on("error", (e) => err.push(Buffer.from(String((e && e.stack) || e) + "\n")));
    worker.on("exit", (code) => { rc = code; finish(); });
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
    if (line.trim()) runOne(JSON.parse(line));
});
