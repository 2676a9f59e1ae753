// The prelude of vow's JavaScript twin (docs/javascript-twin.md).
const vow = (() => {
  const text = (v) => (typeof v === "string" ? v : v === undefined ? "undefined" : JSON.stringify(v));
  const show = (v) => (typeof v === "string" ? v : v === undefined ? "undefined" : JSON.stringify(v, null, 2));
  // An error record, `{kind, message, …}`. Its `stack` (not enumerable: not in its JSON) makes
  // it error-like to node, whose report of an unhandled rejection then shows the record itself.
  const error = (kind, message, extra) =>
    Object.defineProperty(Object.assign({ kind, message }, extra || {}), "stack", { value: `error[${kind}]: ${message}`, writable: true, configurable: true });
  // The record a catch handler sees: {kind, message, …}.
  const rec = (e) => {
    if (e instanceof AggregateError) {
      const inner = e.errors.map(rec);
      return { kind: "aggregate", message: inner.length === 0 ? "all promises rejected (there were none)"
        : `all ${inner.length} promises rejected: ` + inner.map((x) => x.message).join("; "), errors: inner };
    }
    if (e && typeof e === "object" && "kind" in e) return e;
    return { kind: "user", message: String(e && e.message !== undefined ? e.message : e) };
  };
  // A response as `fetch` makes it: {status, statusText, url, headers, body}.
  const isResponse = (v) => v !== null && typeof v === "object" && "status" in v && "body" in v && "headers" in v;
  // What pick searches: a response's JSON body (or its text), else the value itself.
  const target = (v) => {
    // A list of responses (`each fetch …`) is the list of their bodies.
    if (Array.isArray(v) && v.length > 0 && isResponse(v[0])) return v.map(target);
    if (isResponse(v)) {
      try { return JSON.parse(v.body); } catch (e) { return v.body; }
    }
    return v;
  };
  // The stage a rejection started at, noted once (vow's `stage` and `at`).
  const origin = (e, at) => {
    if (at !== undefined && e && typeof e === "object" && "kind" in e && !("at" in e)) {
      e.stage = at.split(" ")[0];
      e.at = at;
    }
    return e;
  };
  const path = (v, p) => {
    if (p === undefined || p === null || p === "") return v;
    const r = jmespath.search(target(v), p);
    return r === undefined ? null : r;
  };
  // Text that holds a JSON object or list, parsed; undefined for other text (Pick.jsonText).
  const jsonText = (s) => {
    const t = s.replace(/^[ \t\r\n]+/, "");
    if (t[0] !== "{" && t[0] !== "[") return undefined;
    try { return JSON.parse(s); } catch (e) { return undefined; }
  };
  // How an error shows the start of some text (Pick.textStart).
  const textStart = (s) => {
    const line = s.split(/\r\n|\n|\r/).find((l) => l.trim() !== "");
    if (line === undefined) return "it is empty";
    const chars = [...line];
    return `it starts "${chars.length > 60 ? chars.slice(0, 60).join("") + "…" : line}"`;
  };
  const textHint = "`| json` reads JSON text, `| lines` splits text into lines";
  // What pick gives: JSON text searched as JSON, other text as a string, nothing found in text an error.
  const pickReadingText = (v, p, stage) => {
    if (typeof v !== "string") return path(v, p);
    const parsed = jsonText(v);
    if (parsed !== undefined) return path(parsed, p);
    const r = path(v, p);
    if (r !== null) return r;
    throw error("type", `${stage}: '${p}' finds nothing in text: the input is text, not JSON (${textStart(v)}); ${textHint}`);
  };
  const joined = (args) => args.map(text).join(" ");
  const sims = new Map();
  const splitmix = (state) => {
    const M = (1n << 64n) - 1n;
    let s = state;
    return () => {
      s = (s + 0x9E3779B97F4A7C15n) & M;
      let z = s;
      z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & M;
      z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & M;
      return Number((z ^ (z >> 31n)) >> 11n) / 2 ** 53;
    };
  };
  const jobs = new Map();
  const fs = require("fs");
  const childProcess = require("child_process");
  const os = require("os");
  // A byte count as --max-size takes it: a number, or text like 10MB or 2GiB.
  const byteCount = (v) => {
    if (typeof v === "number" && v >= 0) return Math.floor(v);
    const units = [["KiB", 2 ** 10], ["MiB", 2 ** 20], ["GiB", 2 ** 30], ["KB", 1e3], ["MB", 1e6], ["GB", 1e9], ["B", 1]];
    for (const [u, f] of units) {
      if (String(v).endsWith(u)) { const n = Number(String(v).slice(0, -u.length)); if (n >= 0) return Math.floor(n * f); }
    }
    if (/^[0-9]+$/.test(String(v))) return Number(v);
    throw error("type", `read: --max-size must be a byte count like 1048576 or 10MB, got ${JSON.stringify(v)}`);
  };
  // A stream is an async iterable (docs/streams.md): its items arrive over time.
  const isStream = (v) => v !== null && typeof v === "object" && typeof v[Symbol.asyncIterator] === "function";
  const typeName = (v) => (v === null ? "null" : v === undefined ? "undefined" : Array.isArray(v) ? "list" : isStream(v) ? "stream"
    : v instanceof Uint8Array ? "bytes" : typeof v === "object" ? "record" : typeof v === "string" ? "string" : typeof v === "boolean" ? "boolean" : "number");
  // A record, or a response's JSON body that is one, as `keys` and `values` take; anything else
  // is vow's type error.
  const isRecordValue = (x) => x !== null && typeof x === "object" && !Array.isArray(x) && !isStream(x) && !(x instanceof Uint8Array);
  const recordOf = (v, stage) => {
    const t = target(v);
    if (isRecordValue(t)) return t;
    throw error("type", isResponse(v) ? `${stage}: expected a record, got a response whose body is ${typeName(t)}` : `${stage}: expected a record, got ${typeName(v)}`);
  };
  // The lines of a readable stream as they arrive, without their line breaks.
  async function* linesOf(readable) {
    readable.setEncoding("utf8");
    let rest = "";
    for await (const chunk of readable) {
      rest += chunk;
      for (let i = rest.indexOf("\n"); i >= 0; i = rest.indexOf("\n")) {
        yield rest.slice(0, i).replace(/\r$/, "");
        rest = rest.slice(i + 1);
      }
    }
    if (rest !== "") yield rest.replace(/\r$/, "");
  }
  const ioReason = (e) => ({ ENOENT: "no such file or directory", EACCES: "permission denied", EISDIR: "is a directory" })[e.code]
    || String(e.message);
  // Server-sent events (the WHATWG parsing rules): {event, id, data, retry}, data as JSON when it is JSON.
  async function* eventsOf(lines) {
    let event = "", data = [], id = null, retry = null;
    for await (const line of lines) {
      if (line === "") {
        if (data.length > 0) {
          const t = data.join("\n");
          let d;
          try { d = JSON.parse(t); } catch (e) { d = t; }
          yield { event: event === "" ? "message" : event, id, data: d, retry };
        }
        event = ""; data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const c = line.indexOf(":");
      const field = c < 0 ? line : line.slice(0, c);
      let value = c < 0 ? "" : line.slice(c + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id" && !value.includes("\0")) id = value;
      else if (field === "retry" && /^[0-9]+$/.test(value)) retry = Number(value);
    }
  }
  async function* webLines(body) {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of body) {
      rest += decoder.decode(chunk, { stream: true });
      for (let i = rest.indexOf("\n"); i >= 0; i = rest.indexOf("\n")) {
        yield rest.slice(0, i).replace(/\r$/, "");
        rest = rest.slice(i + 1);
      }
    }
    rest += decoder.decode();
    if (rest !== "") yield rest.replace(/\r$/, "");
  }
  async function* valuesOf(lines) {
    for await (const line of lines) if (line.trim() !== "") yield vow.json(line);
  }
  // Delimited text (RFC 4180, the delimiter a parameter), as vow's DelimitedText reads and writes it.
  const delimited = (() => {
    // A reader fed text piece by piece; `feed` returns the records the text completes.
    const reader = (d) => {
      let field = "", record = [], quoted = false, quoteSeen = false, started = false, line = 1, recordLine = 1, pendingCR = false;
      return {
        feed(t) {
          const done = [];
          for (const c of t) {
            if (pendingCR) { pendingCR = false; if (c === "\n") continue; }
            if (quoted) {
              if (quoteSeen) {
                quoteSeen = false;
                if (c === "\"") { field += "\""; continue; }
                quoted = false;
              } else {
                if (c === "\"") quoteSeen = true;
                else { if (c === "\n") line++; field += c; }
                continue;
              }
            }
            if (c === d) { record.push(field); field = ""; started = false; }
            else if (c === "\"" && !started && field === "") { quoted = true; started = true; }
            else if (c === "\n" || c === "\r") {
              if (c === "\r") pendingCR = true;
              line++;
              if (record.length === 0 && field === "" && !started) { recordLine = line; continue; }
              record.push(field); done.push(record); record = []; field = ""; started = false; recordLine = line;
            } else { field += c; started = true; }
          }
          return done;
        },
        finish(stage) {
          if (quoted && !quoteSeen) throw error("type", `${stage}: a quoted field that starts on line ${recordLine} is never closed`);
          quoted = false; quoteSeen = false;
          if (record.length === 0 && field === "" && !started) return null;
          record.push(field);
          const r = record; record = []; field = ""; started = false;
          return r;
        },
      };
    };
    const keysOf = (names, stage) => {
      const seen = new Map();
      names.forEach((n, i) => {
        if (seen.has(n)) throw error("type", `${stage}: the header names '${n}' twice (columns ${seen.get(n) + 1} and ${i + 1}); give --no-header to read rows as lists`);
        seen.set(n, i);
      });
      return names;
    };
    const record = (fields, keys, stage, row) => {
      if (fields.length > keys.length) throw error("type", `${stage}: row ${row} has ${fields.length} fields, the header names ${keys.length}`);
      return Object.fromEntries(keys.map((k, i) => [k, i < fields.length ? fields[i] : null]));
    };
    const field = (t, d) => (/[\r\n"]/.test(t) || t.includes(d) ? "\"" + t.replace(/"/g, "\"\"") + "\"" : t);
    const line = (fields, d) => (fields.length === 1 && fields[0] === "" ? "\"\"" : fields.map((f) => field(f, d)).join(d));
    const cell = (v) => (v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v));
    const fieldsOf = (item, cols, stage) => {
      if (Array.isArray(item)) return item.map(cell);
      if (item && typeof item === "object") return (cols ?? Object.keys(item)).map((k) => cell(item[k]));
      throw error("type", `${stage}: a row must be a record or a list, got ${typeName(item)}`);
    };
    const columnsOf = (flags, stage) => {
      const c = flags.columns;
      if (c === undefined) return null;
      const names = Array.isArray(c) ? c.map(text) : text(c).split(",").map((x) => x.trim());
      if (names.length === 0) throw error("type", `${stage}: --columns needs at least one column`);
      return names;
    };
    return {
      read(v, flags, d, stage) {
        const header = !flags["no-header"];
        if (isStream(v)) {
          return (async function* () {
            const r = reader(d);
            let keys = null, row = 0;
            const rows = function* (records) {
              for (const fields of records) {
                row++;
                if (!header) { yield fields; continue; }
                if (keys === null) { keys = keysOf(fields, stage); continue; }
                yield record(fields, keys, stage, row);
              }
            };
            for await (const item of v) {
              if (typeof item !== "string") throw error("type", `${stage}: expected lines of text, got ${typeName(item)}`);
              yield* rows(r.feed(item + "\n"));
            }
            const last = r.finish(stage);
            if (last) yield* rows([last]);
          })();
        }
        const t = target(v);
        if (typeof t !== "string") throw error("type", `${stage}: expected text, got ${typeName(v)}`);
        const r = reader(d);
        const records = r.feed(t);
        const last = r.finish(stage);
        if (last) records.push(last);
        if (!header) return records;
        if (records.length === 0) return [];
        const keys = keysOf(records[0], stage);
        return records.slice(1).map((f, i) => record(f, keys, stage, i + 2));
      },
      write(v, flags, d, stage) {
        const given = columnsOf(flags, stage);
        const header = !flags["no-header"];
        if (isStream(v)) {
          return (async function* () {
            let cols = given, started = false;
            for await (const item of v) {
              if (!started) {
                started = true;
                if (cols === null && item && typeof item === "object" && !Array.isArray(item)) cols = Object.keys(item);
                if (header && cols !== null) yield line(cols, d);
              }
              yield line(fieldsOf(item, cols, stage), d);
            }
          })();
        }
        const t = target(v);
        const items = Array.isArray(t) ? t : t && typeof t === "object" ? [t] : null;
        if (items === null) throw error("type", `${stage}: expected a list of records (or of lists), got ${typeName(v)}`);
        let cols = given;
        if (cols === null) {
          const seen = new Set();
          for (const item of items) if (item && typeof item === "object" && !Array.isArray(item)) for (const k of Object.keys(item)) seen.add(k);
          cols = items.some((x) => x && typeof x === "object" && !Array.isArray(x)) ? [...seen] : null;
        }
        const lines = [];
        if (header && cols !== null) lines.push(line(cols, d));
        for (const item of items) lines.push(line(fieldsOf(item, cols, stage), d));
        return lines.join("\r\n");
      },
    };
  })();

  return {
    text, show, error, rec, path, isStream, typeName,
    // A stage that does not take a stream gets its items as a list, once it has ended.
    async collect(s) {
      const items = [];
      for await (const item of s) items.push(item);
      return items;
    },
    whole: (v, f) => (isStream(v) ? vow.collect(v).then(f) : f(v)),
    // A statement's value prints whole; the empty string prints nothing (`run true`).
    // A result on its own line; text that ends its line prints as it is (as vow prints it).
    out(v) {
      if (v === "") return;
      if (typeof v === "string" && v.endsWith("\n")) process.stdout.write(v); else console.log(show(v));
    },
    // A statement's value that is a stream prints item by item, as the items arrive.
    async drain(s) {
      for await (const item of s) console.log(show(item));
    },
    // A first stage that finishes at once: its value, or its throw as a rejection.
    start(f) {
      try { return Promise.resolve(f()); } catch (e) { return Promise.reject(e); }
    },
    // Promise.all with the values shaped in the same turn (Promise.all's own turn).
    allMap(ps, f) {
      return new Promise((resolve, reject) => {
        const values = new Array(ps.length);
        let remaining = ps.length;
        if (remaining === 0) { resolve(f(values)); return; }
        ps.forEach((p, i) => Promise.resolve(p).then((v) => {
          values[i] = v;
          if (--remaining === 0) { try { resolve(f(values)); } catch (e) { reject(e); } }
        }, reject));
      });
    },
    // all, race, any and settle over a value (no elements written): a list's elements, or a
    // record's values (keyed again by all and settle), as the stages take them.
    over(kind, x) {
      const isRecord = x !== null && typeof x === "object" && !Array.isArray(x) && !isStream(x) && typeof x.then !== "function";
      if (!isRecord && !Array.isArray(x)) return Promise.reject(error("type", `${kind}: expects a list or a record, got ${typeName(x)}`));
      const ps = isRecord ? Object.values(x) : x;
      const keys = isRecord ? Object.keys(x) : undefined;
      switch (kind) {
        case "all": return keys ? vow.keyed(keys, ps) : Promise.all(ps);
        case "race": return Promise.race(ps);
        case "any": return Promise.any(ps);
        default: return vow.settle(ps, keys);
      }
    },
    keyed(keys, ps) {
      return vow.allMap(ps, (vs) => Object.fromEntries(keys.map((k, i) => [k, vs[i]])));
    },
    settle(ps, keys) {
      return new Promise((resolve) => {
        const out = new Array(ps.length);
        let remaining = ps.length;
        const done = () => resolve(keys ? Object.fromEntries(keys.map((k, i) => [k, out[i]])) : out);
        if (remaining === 0) { done(); return; }
        ps.forEach((p, i) => Promise.resolve(p).then(
          (value) => { out[i] = { status: "fulfilled", value }; if (--remaining === 0) done(); },
          (e) => { out[i] = { status: "rejected", reason: rec(e) }; if (--remaining === 0) done(); }));
      });
    },
    // `thenable S`: an object with a then method, not a promise; its then runs S and resolves
    // with what S gives (a throw rejects).
    thenable: (f) => ({
      then(resolve, reject) {
        let r;
        try { r = f(); } catch (e) { reject(e); return; }
        resolve(r);
      },
    }),
    // `finally S`: JavaScript's finally, with the input (or the error record) given to S.
    finally(h, at) {
      return [(v) => Promise.resolve(h(v)).then(() => v), (e) => Promise.resolve(h(origin(rec(e), at))).then(() => { throw e; })];
    },
    // A rejection passing a stage: where it started, and that it skipped this stage.
    skip: (at, text) => (e) => {
      const r = origin(e, at);
      if (r && typeof r === "object") (r.skipped = r.skipped || []).push(text);
      throw e;
    },
    tap: (h) => (v) => { if (isStream(v)) return vow.tapStream(v, h); h(v); return v; },
    tapAsync: (h) => (v) => (isStream(v) ? vow.tapStream(v, h) : h(v).then(() => v)),
    // `watch EVERY (PIPELINE)`: the pipeline run again and again, its first value printed, then
    // what changed (vow.diff), until --count, --for or --until says so.
    watch(v, f, every, flags) {
      // A flag that names a `let` still pending: its value, once it has settled.
      const waiting = Object.entries(flags).filter(([, x]) => x && typeof x.then === "function");
      if (waiting.length > 0) {
        return Promise.all(waiting.map(([, x]) => x)).then((xs) =>
          vow.watch(v, f, every, { ...flags, ...Object.fromEntries(waiting.map(([k], i) => [k, xs[i]])) }));
      }
      try { every = vow.seconds(every, "watch", "EVERY"); } catch (e) { return Promise.reject(e); }
      const began = performance.now();
      let runs = 0, last;
      const line = (c) => c.change === "added" ? `+ ${c.path}: ${JSON.stringify(c.to)}`
        : c.change === "removed" ? `- ${c.path}: ${JSON.stringify(c.from)}`
        : `~ ${c.path}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`;
      const run = () => Promise.resolve(v).then(f).then((x) => {
        runs++;
        if (runs === 1) console.log(show(x)); else for (const c of vow.diff(null, last, x)) console.log(line(c));
        last = x;
        if (flags.count !== undefined && runs >= flags.count) return x;
        if (flags.until !== undefined && vow.holds(path(x, flags.until))) return x;
        if (flags.for !== undefined && (performance.now() - began) / 1000 + every > vow.seconds(flags.for, "watch", "--for")) return x;
        return new Promise((resolve) => setTimeout(resolve, every * 1000)).then(run);
      });
      return run();
    },
    // `tap` on a stream: the handler on each item as it arrives, the item passed on after it.
    async *tapStream(s, h) { for await (const item of s) { await h(item); yield item; } },
    onError: (h, at) => (e) => h(origin(rec(e), at)),
    timeout(p, seconds) {
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(error("timeout", `timed out after ${seconds * 1000}ms`)), seconds * 1000);
        p.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
      });
    },
    job(n, p) {
      jobs.set(n, p);
      p.catch((e) => { const r = rec(e); console.error(`[${n}] rejected: ${r.message}`); if (r.kind !== "cancelled") process.exitCode = 1; });
    },
    // `cancel %N`: a job whose promise can be cancelled (a lone delay or sim) stops.
    cancel(n) {
      const p = jobs.get(n);
      if (p && p.cancel) p.cancel(`cancelled by cancel %${n}`);
      return n;
    },
    await: (v, ...a) => (a.length ? a[0] : v),
    // `retry N`: runs the upstream again while it rejects, waiting between attempts.
    // `retry N --on KINDS`: what is retried, as vow reads it (kinds and HTTP statuses; by
    // default every kind but syntax, type and cancelled).
    retries(e, on) {
      const r = rec(e);
      if (r.kind === "exit") return false;
      if (on === undefined) return !["syntax", "type", "cancelled"].includes(r.kind);
      const words = (typeof on === "string" ? on : JSON.stringify(on)).split(",").map((w) => w.trim());
      return words.some((w) => w === r.kind || (r.kind === "http" && /^[0-9]+$/.test(w) && Number(w) === (r.status ?? e.status)));
    },
    retry(make, attempts, delay, exp, on) {
      return new Promise((resolve, reject) => {
        const run = (n, wait) => make().then(resolve, (e) => {
          if (n >= attempts || !vow.retries(e, on)) { reject(e); return; }
          vow.delay(null, wait).then(() => run(n + 1, exp ? wait * 2 : wait));
        });
        run(1, delay);
      });
    },
    jobPromise(n) { return jobs.get(n); },
    fail(e) { const r = rec(e); console.error(`error[${r.kind}]: ${r.message}`); process.exitCode = r.exitStatus ?? 1; },
    // `reject … --status N`: the rejection carries the exit status of a script it ends.
    rejectWithStatus(status, v, ...a) {
      try { return vow.reject(v, ...a); } catch (e) { e.exitStatus = status; throw e; }
    },
    missing: (name) => () => { throw error("type", `${name} has no JavaScript stand-in in the twin`); },
    // A stage of an async def that waits where nothing awaits it, as vow refuses it.
    notAwaited: (def, stage) => { throw error("type", `in async def ${def}, '${stage}' waits: write 'await ${stage}' to wait for it, or make it the last stage to return its promise`); },
    // HTTP: node's fetch; a response is {status, statusText, url, headers, body}, a 4xx/5xx
    // status rejects with kind http, as vow does. Of the flags, only --stream is followed:
    // the body as a stream of server-sent events, NDJSON values or text lines.
    async fetch(v, flags, url, method = "GET", stage = "fetch") {
      if (typeof flags.json === "string" && jsonText(flags.json) !== undefined) {
        const kind = Array.isArray(jsonText(flags.json)) ? "list" : "object";
        process.stderr.write(`warning: ${stage}: --json was given text that holds a JSON ${kind}, and sends it as one JSON string; to send the ${kind}, write it unquoted: --json ${JSON.stringify(jsonText(flags.json))}\n`);
      }
      const target = /^[a-z]+:\/\//i.test(url) ? url : "http://" + url;
      let r;
      try { r = await fetch(target, { method }); } catch (e) { throw error("network", String(e.cause ? e.cause.message : e.message)); }
      if (flags.stream !== undefined && r.status < 400) {
        const type = (r.headers.get("content-type") || "").split(";")[0].trim().toLowerCase();
        const kind = flags.stream !== true ? flags.stream : type === "text/event-stream" ? "sse"
          : ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines", "application/json-lines"].includes(type) ? "lines" : "text";
        const lines = webLines(r.body);
        return kind === "sse" ? eventsOf(lines) : kind === "lines" ? valuesOf(lines) : lines;
      }
      const body = method === "HEAD" ? "" : await r.text();
      const res = { status: r.status, statusText: r.statusText, url: r.url, headers: Object.fromEntries(r.headers), body };
      if (r.status >= 400) throw error("http", `HTTP ${r.status} ${r.statusText}`, { status: r.status, body });
      return res;
    },
    get: (v, flags, url) => vow.fetch(v, flags, url, "GET", "get"),
    post: (v, flags, url) => vow.fetch(v, flags, url, "POST", "post"),
    put: (v, flags, url) => vow.fetch(v, flags, url, "PUT", "put"),
    patch: (v, flags, url) => vow.fetch(v, flags, url, "PATCH", "patch"),
    delete: (v, flags, url) => vow.fetch(v, flags, url, "DELETE", "delete"),
    head: (v, flags, url) => vow.fetch(v, flags, url, "HEAD", "head"),
    // paginate: follows Link rel="next", or --next EXPR, --next-header NAME, --cursor EXPR
    // --param NAME, for --max-pages pages (100); --items EXPR picks each page's items. A page's
    // items that are a list add their elements, null nothing, any other value itself.
    async paginate(v, flags, url) {
      let target = url ?? v;
      const items = [];
      const max = flags["max-pages"] ?? 100;
      const paced = flags.rate === undefined ? (f) => f() : vow.paced((f) => f(), vow.rateInterval(flags.rate, "paginate"));
      for (let pages = 0; target && pages < max; pages++) {
        const r = await paced(() => vow.fetch(null, {}, target));
        const page = JSON.parse(r.body);
        const found = flags.items !== undefined ? path(page, flags.items) : page;
        if (Array.isArray(found)) items.push(...found); else if (found !== null && found !== undefined) items.push(found);
        const given = (x) => x !== null && x !== undefined && x !== "";
        if (flags.next !== undefined) {
          const n = path(page, flags.next);
          target = given(n) ? new URL(text(n), r.url).href : null;
        } else if (flags["next-header"] !== undefined) {
          const h = r.headers[String(flags["next-header"]).toLowerCase()];
          target = given(h) ? new URL(h, r.url).href : null;
        } else if (flags.cursor !== undefined) {
          const c = path(page, flags.cursor);
          if (given(c)) {
            const u = new URL(r.url);
            u.searchParams.set(text(flags.param), text(c));
            target = u.href;
          } else {
            target = null;
          }
        } else {
          const m = /<([^>]*)>[^,]*rel="?[^",]*\bnext\b/i.exec(r.headers.link || "");
          target = m ? new URL(m[1], r.url).href : null;
        }
      }
      return items;
    },
    status: (v) => v.status,
    headers: (v) => v.headers,
    response: (v) => { const { body, ...rest } = v; return { ...rest, size: Buffer.byteLength(body) }; },
    // The stages.
    echo: (v, ...a) => (a.length === 0 ? null : a.length === 1 ? a[0] : joined(a)),
    print(v, flags, ...a) {
      const to = flags.stderr ? process.stderr : process.stdout;
      const end = flags["no-newline"] ? "" : "\n";
      if (a.length === 0 && isStream(v)) {
        return (async () => {
          const items = [];
          for await (const item of v) {
            items.push(item);
            const s = typeof item === "string" ? item : show(item);
            to.write(s.endsWith("\n") ? s : s + end);
          }
          return items;
        })();
      }
      const out = a.length === 0 ? v : a.length === 1 ? a[0] : joined(a);
      const s = typeof out === "string" ? out : show(out);
      to.write(s.endsWith("\n") ? s : s + end);
      return v;
    },
    resolve: (v, ...a) => (a.length ? a[0] : v),
    quiet: () => "",
    // JMESPath's truthiness: false, null, "", [] and {} are false (`if`, `assert`).
    holds: (r) => !(r === false || r === null || r === undefined || r === "" || (Array.isArray(r) && r.length === 0)
        || (typeof r === "object" && r !== null && !Array.isArray(r) && Object.keys(r).length === 0)),
    // `until COND`: runs `make` again, waiting `every` seconds, until COND holds on its value.
    until(make, cond, every, limit, max, exp) {
      const began = Date.now();
      return new Promise((resolve, reject) => {
        const attempt = (n, p, wait) => p.then((v) => {
          if (vow.holds(path(v, cond))) { resolve(v); return; }
          const seconds = (Date.now() - began) / 1000;
          if ((max !== null && n >= max) || (limit !== null && seconds + wait > limit)) {
            reject(error("timeout", `until: ${cond} did not hold after ${n} attempt${n === 1 ? "" : "s"}`, { attempts: n, last: v, condition: cond }));
            return;
          }
          vow.delay(null, wait).then(() => attempt(n + 1, make(), exp ? wait * 2 : wait));
        }, reject);
        attempt(1, make(), every);
      });
    },
    // `if COND …`: a text COND is a JMESPath expression on the value; any other value decides itself.
    condition: (v, c) => vow.holds(typeof c === "string" ? path(v, c) : c),
    // `assert COND [MESSAGE]`.
    assert(v, cond, ...a) {
      if (vow.holds(path(v, cond))) return v;
      throw error("assert", a.length ? joined(a) : `assertion failed: ${cond}`, { value: v, condition: cond });
    },
    // `exit [STATUS] [MESSAGE]`: process.exit, the message on stderr as written.
    // `arg N [NAME] [--default V]`: the script's argument N, its default, or the usage line and status 2.
    // The words `arg N` counts: all but flags (`--yes`, `--limit=4`, and the value after a
    // declared `flag --limit N`), every word after `--`.
    positional(words) {
      const out = [];
      let ended = false;
      for (let i = 0; i < words.length; i++) {
        const w = words[i];
        if (ended || !w.startsWith("--") || w === "-") out.push(w);
        else if (w === "--") ended = true;
        else if (vow.scriptFlags.some(([n, value]) => value !== null && n === w.slice(2)) && i + 1 < words.length && !words[i + 1].startsWith("--")) i++;
      }
      return out;
    },
    // The script's declared flags, [name, VALUE or null] (`flag --limit N`), set by checkScript.
    scriptFlags: [],
    // A script's words checked before its first statement (ScriptArguments.check): --help, a
    // flag not declared, a valued flag without its value, a required argument missing.
    checkScript(words, required, usage, flags, declaresArgs) {
      vow.scriptFlags = flags;
      const end = words.indexOf("--");
      const before = end < 0 ? words : words.slice(0, end);
      if (before.includes("--help") && (declaresArgs || flags.length) && !flags.some(([n]) => n === "help")) {
        process.stdout.write(usage + "\n");
        process.exit(0);
      }
      if (flags.length) {
        for (let i = 0; i < before.length; i++) {
          const w = before[i];
          if (!w.startsWith("--")) continue;
          const name = w.slice(2).split("=")[0];
          const f = flags.find(([n]) => n === name);
          if (!f) { process.stderr.write(`${usage}\nunknown flag --${name}\n`); process.exit(2); }
          if (f[1] !== null && !w.includes("=")) {
            if (i + 1 >= before.length || before[i + 1].startsWith("--")) { process.stderr.write(`${usage}\n--${name} needs a value (${f[1]})\n`); process.exit(2); }
            i++;
          }
        }
      }
      if (vow.positional(words).length < required) { process.stderr.write(usage + "\n"); process.exit(2); }
    },
    // `flag --NAME [VALUE] [--default V]`: true or false, or the word after --NAME (or in
    // --NAME=V), or the default.
    flag(v, fl, written, value) {
      const words = process.argv.slice(2);
      for (let i = 0; i < words.length && words[i] !== "--"; i++) {
        const w = words[i];
        if (w === written) {
          if (value === undefined) return true;
          if (i + 1 >= words.length || words[i + 1].startsWith("--")) throw error("type", `flag: ${written} needs a value (${value})`);
          return words[i + 1];
        }
        if (value !== undefined && w.startsWith(written + "=")) return w.slice(written.length + 1);
      }
      if (value === undefined) return false;
      return fl.default !== undefined ? fl.default : null;
    },
    arg(n, fallback, usage) {
      const given = vow.positional(process.argv.slice(2));
      if (n <= given.length) return given[n - 1];
      if (fallback !== undefined) return fallback;
      process.stderr.write(usage + "\n");
      process.exit(2);
    },
    exit(v, ...a) {
      if (a.length && !(Number.isInteger(a[0]) || (typeof a[0] === "string" && /^\s*-?[0-9]+\s*$/.test(a[0])))) {
        throw error("type", `exit: STATUS must be a whole number from 0 to 255, got ${JSON.stringify(a[0])} (a message alone is written exit 0 MESSAGE)`);
      }
      const status = a.length ? Number(a.shift()) : 0;
      if (a.length) process.stderr.write(joined(a) + "\n");
      process.exit(status);
    },
    reject(v, ...a) {
      if (a.length === 1 && a[0] && typeof a[0] === "object" && !Array.isArray(a[0])) {
        const { message, ...rest } = a[0];
        // An error record given back is raised again with its kind (`reject $_`).
        const known = ["syntax", "http", "network", "timeout", "cancelled", "json", "pick", "io", "process", "user", "aggregate", "type", "recursion", "assert"];
        if (typeof rest.kind === "string" && known.includes(rest.kind)) {
          const { kind, ...fields } = rest;
          throw error(kind, message === undefined ? "rejected" : text(message), fields);
        }
        throw error("user", message === undefined ? "rejected" : text(message), rest);
      }
      throw error("user", a.length === 0 ? "rejected" : joined(a));
    },
    delay(v, seconds, ...a) {
      // A stand-in that returns a promise rejects, never throws: the chain's catch sees it.
      try { seconds = vow.seconds(seconds, "delay", "DURATION"); } catch (e) { return Promise.reject(e); }
      let cancel;
      const p = new Promise((resolve, reject) => {
        const t = setTimeout(() => resolve(a.length ? a[0] : v), seconds * 1000);
        cancel = (reason) => { clearTimeout(t); reject(error("cancelled", reason)); };
      });
      p.cancel = cancel;
      return p;
    },
    sim(v, key, flags, ...a) {
      const seed = flags.seed ?? 1;
      const k = `${seed}|${key}`;
      const attempt = (sims.get(k) ?? 0) + 1;
      sims.set(k, attempt);
      const rng = splitmix((BigInt.asUintN(64, BigInt(seed) * 0x9E3779B9n) + BigInt(attempt)) & ((1n << 64n) - 1n));
      const delay = flags.delay !== undefined ? flags.delay : flags.seed !== undefined ? 0.010 + 0.090 * rng() : 0.010;
      const fails = (flags.fail ?? 0) > 0 && rng() < flags.fail;
      const value = a.length ? a[0] : v;
      // A failure is a timer, then a throw (one turn later), as vow's sim does.
      if (!fails) return vow.delay(null, delay, value);
      const timer = vow.delay(null, delay, null);
      const p = timer.then(() => { throw error("user", `simulated failure (seed ${seed}, attempt ${attempt})`); });
      p.cancel = timer.cancel;
      return p;
    },
    // `len` counts a stream's items as they are read, without keeping them.
    len: (v) => (isStream(v) ? (async () => { let n = 0; for await (const _ of v) n++; return n; })()
      : typeof v === "string" ? [...v].length : Array.isArray(v) ? v.length : v && typeof v === "object" ? Object.keys(v).length
      : (() => { throw error("type", `len: expected a list, record, string or bytes, got ${typeName(v)}`); })()),
    // A duration as vow reads one (DurationUnit): a number of seconds, or text like 250ms, 2s,
    // 1.5m, 1h, 20us; a type error for anything else.
    seconds(x, stage, what) {
      if (typeof x === "number" && x >= 0) return x;
      if (typeof x === "string") {
        for (const [u, f] of [["ms", 0.001], ["us", 0.000001], ["s", 1], ["m", 60], ["h", 3600]]) {
          if (x.endsWith(u) && x.length > u.length && /^[0-9]*\.?[0-9]+$/.test(x.slice(0, -u.length))) return Number(x.slice(0, -u.length)) * f;
        }
        if (/^[0-9]*\.?[0-9]+$/.test(x)) return Number(x);
      }
      throw error("type", `${stage}: ${what} must be a duration like 250ms or 2s, got ${JSON.stringify(x)}`);
    },
    // `range FROM TO [--step N] [--stream]`: the whole numbers from FROM to TO, both included.
    range(v, flags, from, to) {
      const step = flags.step ?? 1;
      if (step === 0) throw error("type", "range: --step must not be 0");
      from = Number(from);
      to = Number(to);
      const count = step > 0 ? (to < from ? 0 : Math.floor((to - from) / step) + 1) : (to > from ? 0 : Math.floor((from - to) / -step) + 1);
      if (flags.stream) return (async function* () { for (let i = 0; i < count; i++) yield from + i * step; })();
      if (count > 10000000) throw error("type", `range: ${count} numbers are more than a list holds (10000000); --stream makes them as they are consumed`);
      return Array.from({ length: count }, (_, i) => from + i * step);
    },
    // `take N`: the first N of a list, or of a stream, which then stops.
    take(v, n) {
      if (Array.isArray(v)) return v.slice(0, n);
      if (!isStream(v)) throw error("type", `take: expected a stream or a list, got ${typeName(v)}`);
      if (n <= 0) { v[Symbol.asyncIterator]().return?.(); return []; }
      return (async () => {
        const out = [];
        for await (const item of v) { out.push(item); if (out.length >= n) break; }
        return out;
      })();
    },
    // vow's variables inside an expression, given as JMESPath `let` bindings (ExpressionVariables).
    bindExpression: (e, pairs) => (pairs.length === 0 ? e
      : "let " + pairs.map(([n, v]) => `$${n} = \`${JSON.stringify(v === undefined ? null : v).replace(/`/g, "\\`")}\``).join(", ") + " in (" + e + ")"),
    // `where EXPR`: the items on which EXPR holds; a stream is filtered as it arrives.
    where(v, expr) {
      const holds = (x) => vow.holds(path(typeof x === "string" && jsonText(x) !== undefined ? jsonText(x) : x, expr));
      if (Array.isArray(v)) return v.filter(holds);
      if (isResponse(v)) {
        const body = target(v);
        if (!Array.isArray(body)) throw error("type", `where: expected a list or a stream, got a response whose body is ${typeName(body)}`);
        return body.filter(holds);
      }
      if (typeof v === "string") {
        const parsed = jsonText(v);
        if (Array.isArray(parsed)) return parsed.filter(holds);
        throw error("type", `where: expected a list or a stream, got text (${textStart(v)}); ${textHint}`);
      }
      if (!isStream(v)) throw error("type", `where: expected a list or a stream, got ${typeName(v)}`);
      return (async function* () { for await (const x of v) if (holds(x)) yield x; })();
    },
    // `read PATH`: the file's text; with --stream, its lines as they are read.
    read(v, flags, p) {
      const file = p ?? v;
      let fd;
      if (!flags.stream) {
        // A file over --max-size (default 1 GiB) is refused before it is read, as vow refuses it.
        let size;
        try { size = fs.statSync(file).size; } catch (e) { throw error("io", `cannot read ${file}: ${ioReason(e)}`); }
        const limit = flags["max-size"] === undefined ? 2 ** 30 : byteCount(flags["max-size"]);
        if (size > limit) {
          throw error("io", `${file} is ${size} bytes, over the limit of ${limit} bytes (--max-size); --stream reads it line by line in bounded memory`,
            { limit, size });
        }
      }
      try {
        if (!flags.stream) return fs.readFileSync(file, "utf8");
        fd = fs.openSync(file, "r");
      } catch (e) { throw error("io", `cannot read ${file}: ${ioReason(e)}`); }
      return linesOf(fs.createReadStream(null, { fd }));
    },
    env: (v, name) => process.env[name] ?? null,
    // `defer (P)`: clean-up run last first when the program ends, or on SIGINT/SIGTERM.
    deferred: [],
    defer(f) {
      if (vow.deferred.length === 0 && !vow.trapped) {
        vow.trapped = true;
        for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]]) {
          process.on(signal, () => { vow.runDeferred().finally(() => process.exit(status)); });
        }
      }
      vow.deferred.push(f);
      return "";
    },
    async runDeferred() {
      while (vow.deferred.length) {
        const f = vow.deferred.pop();
        try { await f(); } catch (e) { const r = rec(e); console.error(`error[${r.kind}]: ${r.message}`); }
      }
    },
    // `ask`, `confirm`, `choose`: one line of standard input each, in the order asked
    // (readline's lines, read in turn); on a terminal the question goes to stderr first.
    async answer(shown) {
      if (!vow.answerLines) {
        vow.answerReader = require("readline").createInterface({ input: process.stdin, terminal: false });
        vow.answerLines = vow.answerReader[Symbol.asyncIterator]();
      }
      if (process.stdin.isTTY) process.stderr.write(shown);
      const r = await vow.answerLines.next();
      return r.done ? null : r.value;
    },
    endQuestions() { if (vow.answerReader) vow.answerReader.close(); },
    async ask(v, flags, ...prompt) {
      const q = joined(prompt);
      const fallback = flags.default === undefined ? undefined : text(flags.default);
      const line = await vow.answer(q + (fallback === undefined ? "" : ` [${fallback}]`) + ": ");
      if (line) return line;
      if (fallback !== undefined) return fallback;
      if (line !== null) return line;
      throw error("io", `ask: standard input ended before an answer to '${q}'`, { question: q });
    },
    async confirm(v, flags, ...prompt) {
      const q = joined(prompt);
      const yes = flags.default !== undefined && ["yes", "y", "true"].includes(text(flags.default).toLowerCase());
      const line = await vow.answer(q + (yes ? " [Y/n] " : " [y/N] "));
      const a = line === null ? "" : line.trim().toLowerCase();
      if (a === "") return yes;
      if (a === "y" || a === "yes") return true;
      if (a === "n" || a === "no") return false;
      throw error("type", `confirm: answer yes or no to '${q}', got '${a}'`);
    },
    async choose(v, flags, ...prompt) {
      const q = joined(prompt);
      const items = flags.from;
      const texts = items.map(text);
      const listing = process.stdin.isTTY ? texts.map((t, i) => `  ${i + 1}) ${t}\n`).join("") : "";
      const line = await vow.answer(listing + `${q} [1-${items.length}]: `);
      if (line === null) throw error("io", `choose: standard input ended before an answer to '${q}'`, { question: q });
      const a = line.trim();
      const n = Number(a);
      if (Number.isInteger(n) && n >= 1 && n <= items.length) return items[n - 1];
      const i = texts.indexOf(a);
      if (i >= 0) return items[i];
      throw error("type", `choose: '${a}' is not one of the ${items.length} choices of '${q}' (a number from 1 to ${items.length}, or one of them)`);
    },
    // `glob PATTERN`: `*`, `?`, `[…]` within a name (a leading dot only by a dot), `**` any
    // number of directories; sorted, empty when nothing matches.
    glob(v, pattern) {
      const found = new Set();
      const isDir = (p, follow) => { try { return (follow ? fs.statSync(p) : fs.lstatSync(p)).isDirectory(); } catch { return false; } };
      const names = (d) => { try { return fs.readdirSync(d); } catch { return []; } };
      const matcher = (part) => new RegExp("^" + part.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]") + "$");
      const walk = (base, parts) => {
        if (parts.length === 0) { if (base) found.add(base.length > 1 && base.endsWith("/") ? base.slice(0, -1) : base); return; }
        const [part, ...rest] = parts;
        const dir = base || ".";
        if (part === "**") {
          walk(base, rest);
          for (const n of names(dir)) if (!n.startsWith(".") && isDir(base + n, false)) walk(base + n + "/", parts);
          return;
        }
        if (!/[*?[]/.test(part)) {
          const p = base + part;
          if (rest.length === 0 ? fs.existsSync(p) || isDir(p, false) : isDir(p, true)) walk(p + "/", rest);
          return;
        }
        const re = matcher(part);
        for (const n of names(dir)) {
          if (n.startsWith(".") && !part.startsWith(".")) continue;
          if (re.test(n) && (rest.length === 0 || isDir(base + n, true))) walk(base + n + "/", rest);
        }
      };
      walk(pattern.startsWith("/") ? "/" : "", pattern.split("/").filter((x) => x));
      return [...found].sort();
    },
    // `write PATH`: the input written to PATH and passed on; a stream a line per item as
    // it arrives, fulfilling with the number of lines.
    write(v, flags, p) {
      if (isStream(v)) {
        return (async () => {
          let fd;
          try { fd = fs.openSync(p, flags.append ? "a" : "w"); } catch (e) { throw error("io", `cannot write ${p}`); }
          let n = 0;
          try {
            for await (const item of v) { fs.writeSync(fd, (typeof item === "string" ? item : JSON.stringify(item)) + "\n"); n++; }
          } finally { fs.closeSync(fd); }
          return n;
        })();
      }
      let data = typeof v === "string" ? (v === "" || v.endsWith("\n") ? v : v + "\n") : v && typeof v === "object" && "body" in v && "status" in v ? v.body
        : flags.append ? JSON.stringify(v) + "\n" : JSON.stringify(v, null, 2) + "\n";
      if (flags.append && !String(data).endsWith("\n")) data += "\n";
      // An append starts a line of its own when the file does not end with a line break.
      if (flags.append) {
        try {
          const size = fs.statSync(p).size;
          if (size > 0) {
            const fd = fs.openSync(p, "r"), last = Buffer.alloc(1);
            fs.readSync(fd, last, 0, 1, size - 1);
            fs.closeSync(fd);
            if (last[0] !== 10) data = "\n" + data;
          }
        } catch (e) {}
      }
      try { fs.writeFileSync(p, data, { flag: flags.append ? "a" : "w" }); } catch (e) { throw error("io", `cannot write ${p}`); }
      return v;
    },
    // `stdin`: all of standard input; with --stream, its lines as they arrive.
    stdin(v, flags) {
      if (flags.stream) return linesOf(process.stdin);
      return (async () => { let all = ""; process.stdin.setEncoding("utf8"); for await (const c of process.stdin) all += c; return all; })();
    },
    // `run CMD ARG…`: the program's output (a non-zero exit rejects with kind process); with
    // --stream, its lines as it prints them, and a program no longer read from is killed.
    run(v, flags, ...argv) {
      let input = v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
      if (input !== "" && !input.endsWith("\n")) input += "\n";
      const child = childProcess.spawn(text(argv[0]), argv.slice(1).map(text), { stdio: ["pipe", "pipe", "pipe"] });
      child.stdin.on("error", () => {});
      child.stdin.end(input);
      let err = "";
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (d) => { err += d; });
      let started = true;
      const exited = new Promise((resolve) => {
        child.on("error", (e) => { started = false; resolve(e); });
        child.on("close", (code, signal) => resolve(code ?? { signal }));
      });
      const failure = (code, out) => {
        if (!started) {
          const reason = code.code === "ENOENT" ? (text(argv[0]).includes("/") ? "no such file" : "no such program on PATH") : ioReason(code);
          const words = text(argv[0]).split(/[|;&<>$`*]/)[0].split(" ").filter((w) => w !== "").join(" ");
          const shell = /[ |;&<>$`*]/.test(text(argv[0]))
            ? `; run takes a program and its arguments, never through a shell: ${words === "" ? "" : `run ${words}, or `}for a command line run sh -c '${argv[0]}'` : "";
          return error("process", `cannot start ${argv[0]}: ${reason}${shell}`);
        }
        const tail = err.trim() === "" ? "" : ": " + err.trim().slice(0, 500);
        if (typeof code === "object") {
          const status = 128 + (os.constants.signals[code.signal] ?? 0);
          const details = { status, signal: code.signal };
          if (out !== undefined) details.stdout = out;
          details.stderr = err;
          return error("process", `${argv[0]} killed by ${code.signal}${tail}`, details);
        }
        const details = { status: code };
        if (out !== undefined) details.stdout = out;
        details.stderr = err;
        return error("process", `${argv[0]} exited with status ${code}${tail}`, details);
      };
      if (flags.stream) {
        return (async function* () {
          try {
            yield* linesOf(child.stdout);
            const code = await exited;
            if (code !== 0) throw failure(code, undefined);
          } finally {
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
          }
        })();
      }
      let out = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (d) => { out += d; });
      // The output without its final line breaks, as a shell's $(…) gives it.
      return exited.then((code) => { if (code !== 0) throw failure(code, out); return out.replace(/\n+$/, ""); });
    },
    // `--rate N/UNIT`: the seconds between two starts, as vow spaces them (RateLimit: evenly,
    // 5 % wider than the period over the count).
    rateInterval(r, stage) {
      const m = /^\s*(\d+)\s*\/\s*(.+?)\s*$/.exec(typeof r === "string" ? r : JSON.stringify(r));
      const count = m ? Number(m[1]) : 0, unit = m ? m[2] : "";
      let period = unit === "s" ? 1 : unit === "m" ? 60 : unit === "h" ? 3600 : 0;
      if (m && period === 0) { try { period = vow.seconds(unit, stage, "--rate"); } catch { period = 0; } }
      if (!(count >= 1) || !(period > 0)) throw error("type", `${stage}: --rate must be a count per time, like 50/s, 120/m, 1000/h or 10/2s, got ${JSON.stringify(r)}`);
      return (period / count) * 1.05;
    },
    // `f` started at most once every `interval` seconds, in the order it is called.
    paced(f, interval) {
      let next = null;
      return (x) => {
        const now = performance.now(), slot = Math.max(now, next ?? now);
        next = slot + interval * 1000;
        if (slot <= now) return f(x);
        return new Promise((resolve) => setTimeout(resolve, slot - now)).then(() => f(x));
      };
    },
    // `each STAGE`: STAGE on every element of a list, or every item of a stream as it
    // arrives, at most --limit at once (16); the results in order.
    each(v, flags, f) {
      // `--limit $n`, $n bound by `let`: its value, once its promise has settled.
      if (flags.limit && typeof flags.limit.then === "function") return flags.limit.then((n) => vow.each(v, { ...flags, limit: n }, f));
      if (flags.rate && typeof flags.rate.then === "function") return flags.rate.then((r) => vow.each(v, { ...flags, rate: r }, f));
      if (flags.rate !== undefined) f = vow.paced(f, vow.rateInterval(flags.rate, "each"));
      const limit = flags.limit ?? 16;
      if (isStream(v)) return vow.eachItem(v, limit, f);
      const items = target(v);
      if (!Array.isArray(items)) throw error("type", `each: expected a list, got ${typeName(items)}`);
      if (items.length === 0) return [];
      return new Promise((resolve, reject) => {
        const results = new Array(items.length);
        let next = 0, done = 0, failed = false;
        const launch = () => {
          if (next >= items.length || failed) return;
          const i = next++;
          let p;
          try { p = Promise.resolve(f(items[i])); } catch (e) { p = Promise.reject(e); }
          p.then((r) => {
            results[i] = r;
            if (++done === items.length) resolve(results); else launch();
          }, (e) => { if (!failed) { failed = true; reject(e); } });
        };
        for (let k = 0; k < Math.min(limit, items.length); k++) launch();
      });
    },
    eachItem(s, limit, f) {
      const it = s[Symbol.asyncIterator]();
      return new Promise((resolve, reject) => {
        const results = [];
        let running = 0, ended = false, taking = false, failed = false;
        const finish = () => { if (ended && running === 0 && !failed) resolve(results); };
        const take = () => {
          if (taking || ended || failed || running >= limit) return;
          taking = true;
          it.next().then((r) => {
            taking = false;
            if (r.done) { ended = true; finish(); return; }
            launch(r.value);
            take();
          }, (e) => { ended = true; if (!failed) { failed = true; reject(e); } });
        };
        const launch = (x) => {
          const i = results.length;
          results.push(null);
          running++;
          let p;
          try { p = Promise.resolve(f(x)); } catch (e) { p = Promise.reject(e); }
          p.then((r) => { running--; results[i] = r; finish(); take(); },
            (e) => { running--; if (!failed) { failed = true; it.return?.(); reject(e); } });
        };
        take();
      });
    },
    keys: (v) => Object.keys(recordOf(v, "keys")),
    values: (v) => Object.values(recordOf(v, "values")),
    // Text, bytes or a response's body, as vow's `lines` takes (anything else is its type error).
    lines(v) {
      const t = typeof v === "string" ? v : v instanceof Uint8Array ? Buffer.from(v).toString("utf8") : isResponse(v) ? v.body : null;
      if (t === null) throw error("type", `lines: expected text, bytes or a response, got ${typeName(v)}`);
      return t.split("\n").filter((l, i, all) => i < all.length - 1 || l !== "").map((l) => l.replace(/\r$/, ""));
    },
    format: (v, f) => f,
    json(v) {
      try {
        return typeof v === "string" ? JSON.parse(v) : v && typeof v === "object" && "body" in v && "status" in v ? JSON.parse(v.body) : v;
      } catch (e) { throw error("json", String(e.message)); }
    },
    "to-json": (v, flags) => (flags.pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v)),
    // `csv`, `tsv`: RFC 4180 text read into records (a header row names the keys), or into
    // lists of fields with --no-header; a stream of lines gives an async generator of rows.
    csv: (v, flags) => delimited.read(v, flags, ",", "csv"),
    tsv: (v, flags) => delimited.read(v, flags, "\t", "tsv"),
    // `to-csv`, `to-tsv`: records (or lists) written as lines joined by CRLF, a header first.
    "to-csv": (v, flags) => delimited.write(v, flags, ",", "to-csv"),
    "to-tsv": (v, flags) => delimited.write(v, flags, "\t", "to-tsv"),
    // table: --columns picks and orders the columns (every key by default); --width is not
    // followed (no cell is cut); widths count UTF-16 units, where vow counts terminal columns.
    table(v, flags) {
      if (!Array.isArray(v)) throw error("type", `table: expected a list of records, got ${typeName(v)}`);
      if (v.length === 0) return "";
      const bad = v.findIndex((r) => !isRecordValue(r));
      if (bad >= 0) throw error("type", `table: expected a list of records, element ${bad + 1} is ${typeName(v[bad])}`);
      let cols = [];
      for (const r of v) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
      if (flags.columns !== undefined) {
        cols = Array.isArray(flags.columns) ? flags.columns.map(text) : text(flags.columns).split(",").map((c) => c.trim()).filter((c) => c !== "");
      }
      const clean = (s) => s.replace(/\n/g, "\\n").replace(/\t/g, "\\t").replace(/\r/g, "\\r");
      const cell = (x) => x === undefined || x === null ? ["", false] : typeof x === "string" ? [clean(x), false]
        : typeof x === "number" ? [JSON.stringify(x), true] : [clean(JSON.stringify(x)), false];
      const cells = v.map((r) => cols.map((c) => cell(r[c])));
      const heads = cols.map(clean);
      const widths = cols.map((c, i) => Math.max(heads[i].length, ...cells.map((row) => row[i][0].length)));
      const numeric = cols.map((c, i) => cells.every((row) => row[i][1] || row[i][0] === ""));
      const line = (parts) => parts.map(([t, num], i) => {
        const pad = " ".repeat(Math.max(0, widths[i] - t.length));
        return num ? pad + t : i === parts.length - 1 ? t : t + pad;
      }).join("  ").replace(/ +$/, "");
      return [line(heads.map((h, i) => [h, numeric[i]])), widths.map((w) => "─".repeat(w)).join("  "), ...cells.map(line)].join("\n");
    },
    text: (v) => text(v),
    // `pick EXPR`: as `path`, with text read as pick reads it.
    pick: (v, p) => pickReadingText(v, p, "pick"),
    // A path in an argument (`$v.path`, `{path}` in a template): JMESPath on the value as it is.
    path: (v, p) => path(v, p),
    // `$env.API/users` in a word: a record's fields named with dots after it, then the rest of
    // the text; any other value as text, the dot and all.
    dotted(v, rest) {
      let m;
      while (v !== null && typeof v === "object" && !Array.isArray(v) && (m = /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(rest))) {
        v = v[m[1]] ?? null;
        rest = rest.slice(m[0].length);
      }
      return text(v) + rest;
    },
  };
})();
