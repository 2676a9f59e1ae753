// A timer's callback is a task: every microtask ready before it runs first.
// vow's `delay 0s | print timeout` is a timer that fulfils a promise, whose handler prints.
new Promise((resolve) => setTimeout(resolve, 0)).then(() => console.log("timeout"));
Promise.resolve().then(() => console.log("micro 1")).then(() => console.log("micro 2"));
console.log("sync");
