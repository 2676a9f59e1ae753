// Promise.resolve(p) is p itself; new Promise((r) => r(p)) adopts p, two turns later.
const p = Promise.resolve(1);
new Promise((resolve) => resolve(p)).then(() => console.log("new Promise"));
Promise.resolve(p).then(() => console.log("Promise.resolve"));
Promise.resolve().then(() => console.log("t1")).then(() => console.log("t2")).then(() => console.log("t3"));
