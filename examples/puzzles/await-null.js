// await of a plain value still takes a turn: the rest of the function is a microtask.
async function f() {
  console.log("f1");
  await null;
  console.log("f2");
  await null;
  console.log("f3");
}
f();
Promise.resolve().then(() => console.log("p1")).then(() => console.log("p2")).then(() => console.log("p3"));
