// Awaits one after another take the sum of their waits; started together, only the longest.
const sleep = (ms, v) => new Promise((resolve) => setTimeout(() => resolve(v), ms));
const show = (v) => { console.log(v); return v; };
async function seq() {
  await sleep(50, "a").then(show);
  await sleep(30, "b").then(show);
  console.log("seq done");
}
async function par() {
  await Promise.all([sleep(150, "c").then(show), sleep(10, "d").then(show)]);
  console.log("par done");
}
seq();
par();
