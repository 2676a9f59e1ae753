// Two handlers on one promise run in the order they were attached, one turn each.
const p = Promise.resolve(1);
p.then(() => console.log("a1")).then(() => console.log("a2"));
p.then(() => console.log("b1")).then(() => console.log("b2"));
