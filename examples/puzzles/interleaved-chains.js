// Two chains interleave one turn per step.
Promise.resolve().then(() => console.log("a1")).then(() => console.log("a2")).then(() => console.log("a3"));
Promise.resolve().then(() => console.log("b1")).then(() => console.log("b2")).then(() => console.log("b3"));
