// A catch that returns a value recovers: the chain goes on fulfilled.
Promise.reject(new Error("boom")).catch(() => "recovered").then((v) => console.log("then", v));
Promise.resolve().then(() => console.log("x1")).then(() => console.log("x2"));
