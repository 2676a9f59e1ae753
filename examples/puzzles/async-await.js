// The classic: what runs at once, what after an await, what after a timer.
async function async1() {
  console.log("async1 start");
  await async2();
  console.log("async1 end");
}
async function async2() {
  console.log("async2");
}
console.log("script start");
// vow's `delay 0s | print …` is a timer that fulfils a promise, whose handler prints: the same
// order, and the same turns.
new Promise((resolve) => setTimeout(resolve, 0)).then(() => console.log("setTimeout"));
async1();
new Promise((resolve) => {
  console.log("promise1");
  resolve();
}).then(() => console.log("promise2"));
console.log("script end");
