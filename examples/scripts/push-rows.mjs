// Post each row of a JSON-lines file to an API, at most RATE requests a second (an API's limit),
// eight at a time. The vow version is push-rows.vow.
//   node push-rows.mjs rows.ndjson http://127.0.0.1:8321/items [--rate 50/s]
import { readFile } from "node:fs/promises";

const args = process.argv.slice(2);
const rateAt = args.indexOf("--rate");
const rate = rateAt >= 0 ? args.splice(rateAt, 2)[1] : "20/s";
const [file, url] = args;
const [count, unit] = rate.split("/");
const interval = ({ s: 1000, m: 60000, h: 3600000 }[unit] ?? 1000) / Number(count);

const rows = (await readFile(file, "utf8")).split("\n").filter((l) => l !== "");
let next = performance.now();
const slot = () => {
    const now = performance.now(), at = Math.max(now, next);
    next = at + interval;
    return new Promise((resolve) => setTimeout(resolve, at - now));
};
const statuses = new Array(rows.length);
let taken = 0;
const worker = async () => {
    while (taken < rows.length) {
        const i = taken++;
        await slot();
        const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: rows[i] });
        await r.arrayBuffer();
        statuses[i] = r.status;
    }
};
await Promise.all(Array.from({ length: 8 }, worker));
console.log(`${statuses.filter((s) => s === 201).length} rows posted`);
