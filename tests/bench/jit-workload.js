// A fixed JIT workload for scripts/bench-guest: K new functions, each made
// from its own source text and called until V8 compiles it to machine code.
// Prints two wall times in milliseconds and a checksum that proves the work
// was done:
//
//   WORKLOAD SINCE_EXEC SUM
//
// WORKLOAD is the loop alone (process.hrtime); SINCE_EXEC runs from node's
// exec to the end of the loop, and so includes loading node itself: from
// BENCH_EXEC_NS, set by bench_exec_stamp (CLOCK_MONOTONIC, which hrtime
// reads too), else from the start time in /proc/self/stat (10 ms steps).
//
//   [bench_exec_stamp] node jit-workload.js [K]      (default 40)
'use strict';
const fs = require('fs');
const k = Number(process.argv[2] || 40);
const t0 = process.hrtime.bigint();
let sum = 0;
for (let i = 0; i < k; i++) {
	const f = new Function('x',
		`let s = ${i}; for (let j = 0; j < 50; j++) s = (s * 31 + x + j) | 0; return s;`);
	for (let n = 0; n < 300; n++)
		sum = (sum + f(n)) | 0;
}
const t1 = process.hrtime.bigint();
let sinceExec;
if (process.env.BENCH_EXEC_NS) {
	sinceExec = Number(t1 - BigInt(process.env.BENCH_EXEC_NS)) / 1e6;
} else {
	const up = Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
	// field 22 of /proc/self/stat, counted after the ')' that ends the command name
	const stat = fs.readFileSync('/proc/self/stat', 'utf8');
	const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) / 100;
	sinceExec = (up - start) * 1000;
}
console.log((Number(t1 - t0) / 1e6).toFixed(1), sinceExec.toFixed(1), sum);
