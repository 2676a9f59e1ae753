// A handler that starts a chain and does not return it: nobody waits for it.
Promise.resolve()
  .then(() => {
    Promise.resolve().then(() => console.log("inner 1")).then(() => console.log("inner 2"));
    console.log("outer 1");
  })
  .then(() => console.log("outer 2"));
