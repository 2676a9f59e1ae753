// A timer's callback is a task: every microtask ready before it runs first.
setTimeout(() => console.log("timeout"), 0);
Promise.resolve().then(() => console.log("micro 1")).then(() => console.log("micro 2"));
console.log("sync");
