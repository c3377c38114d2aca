// A fixed JIT workload for scripts/bench-guest: K new functions, each made
// from its own source text and called until V8 compiles it to machine code.
// Prints two wall times in milliseconds and a checksum that proves the work
// was done:
//
//   WORKLOAD SINCE_EXEC SUM
//
// WORKLOAD is the loop alone (process.hrtime); SINCE_EXEC runs from the
// process's start time in /proc/self/stat (clock ticks, so 10 ms steps) to the
// end of the loop, and so includes loading node itself.
//
//   node jit-workload.js [K]      (default 40)
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
const up = Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
// field 22 of /proc/self/stat, counted after the ')' that ends the command name
const stat = fs.readFileSync('/proc/self/stat', 'utf8');
const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) / 100;
console.log((Number(t1 - t0) / 1e6).toFixed(1), ((up - start) * 1000).toFixed(0), sum);
