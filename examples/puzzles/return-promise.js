// A handler that returns a settled promise: the chain adopts it two turns later.
Promise.resolve().then(() => { console.log(0); return Promise.resolve(4); }).then((x) => console.log(x));
Promise.resolve().then(() => console.log(1)).then(() => console.log(2)).then(() => console.log(3))
  .then(() => console.log(5)).then(() => console.log(6));
