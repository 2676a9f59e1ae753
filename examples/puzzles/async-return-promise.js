// An async function that returns a promise adopts it: two turns more than returning a value.
async function returnsPromise() { return Promise.resolve("promise"); }
async function returnsValue() { return "value"; }
returnsPromise().then((v) => console.log(v));
returnsValue().then((v) => console.log(v));
Promise.resolve().then(() => console.log("t1")).then(() => console.log("t2")).then(() => console.log("t3"));
