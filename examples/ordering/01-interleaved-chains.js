// The JavaScript twin of 01-interleaved-chains.vow.
const log = (s) => (v) => { console.log(s); return v; };
Promise.resolve(0).then(log("a1")).then(log("a2")).then(log("a3"));
Promise.resolve(0).then(log("b1")).then(log("b2")).then(log("b3"));
