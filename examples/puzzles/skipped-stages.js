// A rejection skips the thens before the catch, but every skip still takes a turn.
Promise.reject(new Error("r")).then(() => console.log("a")).then(() => console.log("b")).catch(() => console.log("c"));
Promise.resolve().then(() => console.log("d")).then(() => console.log("e")).then(() => console.log("f"));
