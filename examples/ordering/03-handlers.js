// The JavaScript twin of 03-handlers.vow.
const log = (s) => (v) => { console.log(s); return v; };
Promise.reject(1).catch(log("A")).then(log("B"));
Promise.resolve(2).then(log("C")).then(log("D")).then(log("E")).then(log("F")).then(log("G"));
Promise.resolve(3).finally(() => console.log("H")).then(log("I"));
Promise.resolve(4).then((v) => { console.log("J"); return v; }).then(log("K"));
