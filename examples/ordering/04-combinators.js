// The JavaScript twin of 04-combinators.vow.
const log = (s) => (v) => { console.log(s); return v; };
const delay = (ms) => new Promise((r) => setTimeout(() => r(null), ms));
Promise.all([Promise.resolve(1).then(log("a1")), Promise.resolve(2)]).then(log("all-done"));
Promise.race([Promise.resolve(1).then(log("r1")).then(log("r2")), Promise.resolve(2)]).then(log("race-done"));
Promise.resolve(0).then(log("x1")).then(log("x2")).then(log("x3")).then(log("x4")).then(log("x5"));
delay(10).then(log("timer1")).then(log("timer1-next"));
delay(10).then(log("timer2"));
