// A handler that logs and then throws rejects in its own turn; one that returns a rejected
// promise rejects two turns later (the promise it returns is adopted).
Promise.reject(new Error("a"))
  .catch((e) => { console.log("logged", e.message); throw new Error("thrown"); })
  .catch((e) => console.log("caught", e.message));
Promise.reject(new Error("b"))
  .catch((e) => { console.log("logged", e.message); return Promise.reject(new Error("returned")); })
  .catch((e) => console.log("caught", e.message));
Promise.resolve()
  .then(() => console.log("tick 1")).then(() => console.log("tick 2"))
  .then(() => console.log("tick 3")).then(() => console.log("tick 4"));
