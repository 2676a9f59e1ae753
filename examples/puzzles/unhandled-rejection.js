// A rejection nobody handles ends node's program once the microtasks have drained: the timer
// never fires, and the status is 1.
const p = Promise.reject(new Error("nobody listens"));
Promise.resolve().then(() => console.log("a")).then(() => console.log("b"));
setTimeout(() => console.log("never printed"), 0);
