// The JavaScript program of tests/suites/41-runtimes: a hot chain outer ->
// middle -> leaf run for MILLISECONDS; prints the pid first (the perf map is
// named after it). Run with --no-turbo-inlining so that each stays a frame.
//   node [PERF FLAGS] --no-turbo-inlining hot.js MILLISECONDS
function leaf(x) { for (let i = 0; i < 2000; i++) x = (x * 1103 + 12345) & 0xfffff; return x; }
function middle(x) { return leaf(x) + 1; }
function outer(x) { for (let i = 0; i < 50; i++) x = middle(x); return x; }
console.log(process.pid);
const end = Date.now() + Number(process.argv[2]);
let x = 1;
while (Date.now() < end) x = outer(x);
console.log(x & 0xffff);
