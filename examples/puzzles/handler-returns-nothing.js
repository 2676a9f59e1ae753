// A handler that returns nothing gives undefined: the next handler gets undefined, not the value
// before it (`catch print` would pass the error record on, as print passes its input).
Promise.reject(new Error("oops"))
  .catch((e) => { console.log(`caught ${e.message}`); })
  .then((v) => console.log(`after the catch: ${v}`));
Promise.resolve(1)
  .then((v) => { console.log(`logged ${v}`); })
  .then((v) => console.log(`after the then: ${v}`));
