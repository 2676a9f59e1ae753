// A thenable that is no promise (an object with a then method) costs one turn: its then is called
// in a job of its own. A promise returned from a handler costs two (adoption).
const thenable = { then(resolve) { console.log("then called"); resolve("from the thenable"); } };
Promise.resolve(null).then(() => thenable).then((v) => console.log(v));
Promise.resolve(null).then(() => Promise.resolve("from the promise")).then((v) => console.log(v));
Promise.resolve(null)
  .then(() => console.log("tick 1")).then(() => console.log("tick 2"))
  .then(() => console.log("tick 3")).then(() => console.log("tick 4"));
