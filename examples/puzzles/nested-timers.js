// A timer set inside a timer's callback waits for the next pass over the timers, even at 0 ms;
// timers of different waits fall due by list: one list a wait, each in the order set.
const sleep = (ms, v) => new Promise((resolve) => setTimeout(() => resolve(v), ms));
const show = (v) => { console.log(v); return v; };
sleep(0, "a").then(show).then(() => sleep(0, "c")).then(show).then(() => sleep(1, "e")).then(show);
sleep(0, "b").then(show).then(() => sleep(1, "d")).then(show);
sleep(2, "f").then(show);
Promise.resolve("sync first").then(show);
