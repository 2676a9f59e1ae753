// then(onFulfilled, onRejected) is one reaction: its rejection handler never sees a throw of the
// fulfilment handler beside it (that goes on down the chain), while a catch after a then does.
Promise.resolve(1)
  .then(async () => { throw new Error("from the first handler"); }, async () => console.log("two handlers: never"))
  .catch((e) => console.log("caught further down:", e.message));
Promise.resolve(1)
  .then(async () => { throw new Error("from then"); })
  .catch((e) => console.log("then + catch:", e.message));
Promise.reject(new Error("boom"))
  .then(async () => console.log("never"), async (e) => console.log("rejection handler:", e.message));
