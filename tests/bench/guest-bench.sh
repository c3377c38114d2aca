#!/bin/sh
# The guest half of scripts/bench-guest (busybox sh, run by qemu/run with the
# files below in /add): times the mapping loop and a node JIT workload with
# and without jmmap, and prints one line per run for the host to sum up:
#
#   RESULT loop MODE RUN MEAN MEDIAN      one loop iteration, microseconds:
#                                         the mean, the median iteration
#   RESULT settled MODE RUN MEAN MEDIAN   the same loop timed after 200 ms of
#                                         sleep (bench_mmap_loop --settle):
#                                         once the recorder's start-up work
#                                         is done, its steady cost
#   RESULT node MODE RUN WORKLOAD EXEC    milliseconds: the JS workload's own
#                                         wall time, and from node's exec
#
# Times are read from the guest's CLOCK_MONOTONIC, which counts executed
# instructions when QEMU runs with -icount (see scripts/bench-guest).
#   INFO KEY TEXT...                      what the host prints beside them
#   ERROR TEXT...                         the bench could not run (exit 1)
#
# Loop modes: none (jmmap not loaded), idle (loaded, no session open),
# perf (`jrec record --no-jmmap`), jmmap (`jrec record` with the module),
# session (the loop's own jmmap session, drained by a thread, no jrec).
# Node modes: perf and jmmap. Runs are interleaved, the order reversed on
# every other round, so that a slow spell of a shared host hits all modes.
# Round 0 warms up and is not reported: under TCG the first run of a
# program pays for translating its code, which later runs find cached (by
# the page's physical address, shared through the page cache). It also
# checks that jrec recorded in the mode asked for.
#
#   guest-bench.sh LOOPS RUNS NODE_FUNCS NODE_RUNS FREQ NODE_FLAGS
#
# /add holds bench_mmap_loop, and node, jit-workload.js and bench_exec_stamp
# when NODE_RUNS > 0.
set -u
loops=$1 runs=$2 node_funcs=$3 node_runs=$4 freq=$5 node_flags=$6
data=/tmp/bench.data
cd /tmp || exit 1

error() {
	echo "ERROR $*"
	exit 1
}
loaded() {
	[ -d /sys/module/jmmap ]
}
unload() {
	loaded || return 0
	rmmod jmmap 2>/tmp/rmmod.err || error "rmmod jmmap: $(cat /tmp/rmmod.err)"
}
load() {
	loaded && return 0
	insmod "$JMMAP_KO" 2>/tmp/insmod.err || error "insmod $JMMAP_KO: $(cat /tmp/insmod.err)"
}
# functions jmmap traces now (tracefs: its ftrace callbacks), or "?" where
# the kernel does not list them
traced() {
	t=/sys/kernel/tracing
	[ -r $t/enabled_functions ] || mount -t tracefs none $t 2>/dev/null
	if [ -r $t/enabled_functions ]; then
		grep -c '\[jmmap\]' $t/enabled_functions
	else
		echo '?'
	fi
}
record() {
	jrec record -q --no-buildid-cache -F "$freq" -o "$data" "$@"
}
# check_mode WANT: the last recording was made in jrec's mode WANT
check_mode() {
	got=$(jrec report -i "$data" 2>&1 | head -n 1)
	case "$got" in
	*"mode $1"*) ;;
	*) error "jrec was to record in mode $1: $got" ;;
	esac
}
# numbers COUNT LINE: the first COUNT fields of LINE, which must be decimal numbers
numbers() {
	echo "$2" | awk -v n="$1" 'NR > 1 || NF < n { exit 1 }
		{ o = ""; for (i = 1; i <= n; i++) { if ($i !~ /^[0-9]+(\.[0-9]+)?$/) exit 1; o = o " " $i }
		  print substr(o, 2) }'
}

loop_run() { # MODE RUN [KIND]: KIND loop (the default) or settled
	kind=${3:-loop} settle=
	[ "$kind" = settled ] && settle="--settle 200"
	case "$1" in
	none)
		unload
		[ "$2" = 0 ] && [ "$kind" = loop ] && echo "INFO traced-none $(traced)"
		v=$(/add/bench_mmap_loop "$loops" $settle)
		;;
	idle)
		load
		[ "$2" = 0 ] && [ "$kind" = loop ] && echo "INFO traced-idle $(traced)"
		v=$(/add/bench_mmap_loop "$loops" $settle)
		;;
	perf)
		load
		v=$(record --no-jmmap -- /add/bench_mmap_loop "$loops" $settle)
		[ "$2" = 0 ] && check_mode fallback
		;;
	jmmap)
		load
		v=$(record -- /add/bench_mmap_loop "$loops" $settle)
		[ "$2" = 0 ] && check_mode jmmap
		;;
	session)
		load
		v=$(/add/bench_mmap_loop "$loops" --jmmap-session $settle)
		;;
	esac
	t=$(numbers 2 "$v") || error "bench_mmap_loop ($1) printed '$v', not two times"
	[ "$2" = 0 ] || echo "RESULT $kind $1 $2 $t"
}

node_run() { # MODE RUN
	# shellcheck disable=SC2086 # node's flags are words
	if [ "$1" = perf ]; then
		out=$(record --no-jmmap -- /add/bench_exec_stamp /add/node $node_flags \
			/add/jit-workload.js "$node_funcs")
	else
		out=$(record -- /add/bench_exec_stamp /add/node $node_flags \
			/add/jit-workload.js "$node_funcs")
		[ "$2" = 0 ] && check_mode jmmap
	fi
	t=$(numbers 2 "$out") || error "node ($1) printed '$out', not two times"
	[ "$2" = 0 ] || echo "RESULT node $1 $2 $t"
}

echo "INFO kernel $(uname -r)"
[ -f "$JMMAP_KO" ] || error "no $JMMAP_KO in the guest"
load
r=0
while [ "$r" -le "$runs" ]; do
	if [ $((r % 2)) = 1 ]; then
		order="none idle perf jmmap session"
	else
		order="session jmmap perf idle none"
	fi
	for m in $order; do
		loop_run "$m" "$r"
		loop_run "$m" "$r" settled
	done
	r=$((r + 1))
done
load
if [ "$node_runs" -gt 0 ]; then
	echo "INFO node $(/add/node --version) $node_flags"
	r=0
	while [ "$r" -le "$node_runs" ]; do
		# the warm-up is one run (jrec's modes were checked by the loop's)
		case $r in
		0) order=jmmap ;;
		*[13579]) order="perf jmmap" ;;
		*) order="jmmap perf" ;;
		esac
		for m in $order; do
			node_run "$m" "$r"
		done
		r=$((r + 1))
	done
fi
rm -f "$data" "$data.old"
echo "DONE"
