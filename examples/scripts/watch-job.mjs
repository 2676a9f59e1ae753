// Watch a job's record, printing what changed at each look, until it is done (a minute at most).
// The vow version is watch-job.vow.
//   node watch-job.mjs 'http://127.0.0.1:8080/job?key=build'
const url = process.argv[2];
const changes = (a, b, path = "@", out = []) => {
  const at = (k) => (path === "@" ? k : `${path}.${k}`);
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    for (const k of Object.keys(a)) {
      if (!(k in b)) out.push(`- ${at(k)}: ${JSON.stringify(a[k])}`);
      else changes(a[k], b[k], at(k), out);
    }
    for (const k of Object.keys(b)) if (!(k in a)) out.push(`+ ${at(k)}: ${JSON.stringify(b[k])}`);
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    out.push(`~ ${path}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  }
  return out;
};
const began = Date.now();
let last;
for (;;) {
  const job = await (await fetch(url)).json();
  if (last === undefined) console.log(JSON.stringify(job, null, 2));
  else for (const line of changes(last, job)) console.log(line);
  last = job;
  if (job.status === "done" || Date.now() - began + 200 > 60000) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
console.log(last.status);
