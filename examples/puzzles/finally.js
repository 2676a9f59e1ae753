// finally runs on both paths and passes the outcome on; it takes a turn more than then.
Promise.resolve(1).finally(() => console.log("finally A")).then((v) => console.log("then A", v));
Promise.reject(new Error("x")).finally(() => console.log("finally B")).catch(() => console.log("catch B"));
Promise.resolve(3).then(() => console.log("t1")).then(() => console.log("t2")).then(() => console.log("t3")).then(() => console.log("t4"));
