// all, race, any and allSettled settle in the turn of the input that decides them.
const a = Promise.resolve("a"), b = Promise.reject(new Error("b")), c = Promise.resolve("c");
Promise.all([a, c]).then((v) => console.log("all", v.join(",")));
Promise.race([b, a]).catch(() => console.log("race rejected"));
Promise.any([b, c]).then((v) => console.log("any", v));
Promise.allSettled([a, b]).then((r) => console.log("settled", r.length));
Promise.resolve().then(() => console.log("t1")).then(() => console.log("t2")).then(() => console.log("t3"));
