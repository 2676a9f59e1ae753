// The JavaScript twin of 02-adoption.vow.
const log = (s) => (v) => { console.log(s); return v; };
Promise.resolve(0).then(() => Promise.resolve(1).then(log("inner"))).then(log("adopted"));
Promise.resolve(0).then(log("p1")).then(log("p2")).then(log("p3")).then(log("p4")).then(log("p5"));
