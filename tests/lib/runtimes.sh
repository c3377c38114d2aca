# Sourced by tests/suites/41-runtimes and scripts/bench-runtimes: the JIT
# runtimes from Debian that both record (tests/runtimes/ holds the programs,
# each a hot chain outer -> middle -> leaf) and how their reports are read.
#
# rt_figures REPORT OUTER MIDDLE LEAF: "named=N outer=N middle=N leaf=N" of
# a --children --sort sym -g none report: the Self of every named row added
# up, and the Children of the three functions. With a samples column (-n)
# the named share is counted in samples instead, out of all the rows'
# samples, free of the rounding of thousands of small rows' percentages
# (cpu-clock samples all have one period). A leading '$' of a name is
# dropped (Erlang's perf map has it, its jitdump not), and so are V8's kind
# ("JS:" in Node 20, "LazyCompile:" and others in Debian's Node 18), its tier
# mark and the location after the name (a function's tiers add up).
rt_figures() {
	awk -v o="$2" -v m="$3" -v l="$4" '$1 ~ /%$/ && ($3 ~ /^\[/ || ($3 ~ /^[0-9]+$/ && $4 ~ /^\[/)) {
		c = $1; s = $2; sub(/%/, "", c); sub(/%/, "", s)
		if ($3 ~ /^[0-9]+$/) { s = $3; counted = 1; all += s }
		n = substr($0, index($0, "] ") + 2); sub(/^\$/, "", n)
		if (sub(/^(JS|LazyCompile|Function|InterpretedFunction):[*~^+]?/, "", n)) sub(/ .*/, "", n)
		if (n !~ /^0x/) named += s
		if (n == o) co += c; if (n == m) cm += c; if (n == l) cl += c }
		END { if (counted) named = all ? 100 * named / all : 0
			printf "named=%.2f outer=%.2f middle=%.2f leaf=%.2f\n", named, co, cm, cl }' "$1"
}

# rt_rows DIR SECS: call `row NAME INJECT CALLGRAPH OUTER MIDDLE LEAF --
# COMMAND...` (the caller's) for each runtime installed here, its program
# compiled into DIR where it needs that, running about SECS/1000 seconds;
# INJECT is "inject" where perf needs perf inject --jit (a jitdump), else
# "no"; CALLGRAPH fp or dwarf. A runtime that is missing gets
# `rt_missing WHAT WHY` (the caller's).
rt_rows() {
	local dir=$1 secs=$2 top=${JREC_TOP:?} mode inject jdk js
	if command -v erlc >/dev/null && command -v erl >/dev/null &&
		erlc -o "$dir" "$top/tests/runtimes/hot.erl"; then
		for mode in true map dump; do
			inject=inject
			[ "$mode" = map ] && inject=no
			row "erlang-JPperf-$mode" "$inject" fp hot:outer/2 hot:middle/1 hot:leaf/2 -- \
				erl -noshell +JPperf "$mode" -pa "$dir" -run hot main "$secs" -s init stop
		done
	else
		rt_missing "Erlang/OTP rows" "erlang-base is not installed (scripts/debian-packages)"
	fi
	if command -v mcs >/dev/null && command -v mono >/dev/null &&
		mcs -O+ -out:"$dir/hot.exe" "$top/tests/runtimes/Hot.cs" >/dev/null; then
		row mono-jitmap no fp "Hot:Outer (ulong)" "Hot:Middle (ulong)" "Hot:Leaf (ulong)" -- \
			mono --jitmap "$dir/hot.exe" "$secs"
	else
		rt_missing "Mono rows" "mono-runtime and mono-mcs are not installed (scripts/debian-packages)"
	fi
	jdk=${JREC_JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
	if [ -x "$jdk/bin/javac" ] && "$jdk/bin/javac" -d "$dir" "$top/tests/runtimes/HotChain.java"; then
		# the perf map written at exit, after the code it names ran; -XX:-Inline keeps each a frame
		row java-PreserveFramePointer-map-at-exit no fp "long HotChain.outer(long)" \
			"long HotChain.middle(long)" "long HotChain.leaf(long)" -- "$jdk/bin/java" \
			-XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit \
			-XX:-Inline -cp "$dir" HotChain "$secs"
	else
		rt_missing "OpenJDK 17 rows" "openjdk-17-jdk-headless is not installed (scripts/debian-packages)"
	fi
	if command -v node >/dev/null; then
		js=$top/tests/runtimes/hot.js
		row node-perf-basic-prof no fp outer middle leaf -- node --perf-basic-prof --no-turbo-inlining "$js" "$secs"
		row node-perf-prof inject fp outer middle leaf -- node --perf-prof --no-turbo-inlining "$js" "$secs"
		row node-perf-prof-unwinding-info-dwarf inject dwarf outer middle leaf -- \
			node --perf-prof --perf-prof-unwinding-info --no-turbo-inlining "$js" "$secs"
		row node-interpreted-frames-native-stack no fp outer middle leaf -- \
			node --perf-basic-prof --interpreted-frames-native-stack --no-turbo-inlining "$js" "$secs"
	else
		rt_missing "Node rows" "nodejs is not installed (scripts/debian-packages)"
	fi
}

# rt_record NAME INJECT CALLGRAPH -- COMMAND...: COMMAND recorded by $jrec into
# NAME.jrec and by perf (-k 1) into NAME.perf, and for INJECT "inject" perf
# inject --jit into NAME.perf.jit; each run's perf map and jitdump, which
# these runtimes leave in /tmp, removed by its pid (the programs print it
# first). Sets rt_perf_in to the file perf reports.
rt_record() {
	local name=$1 inject=$2 cg=$3 pid freq=4000
	shift 4
	# a DWARF sample carries 8 KiB of stack: at 1 kHz, still hundreds of
	# samples a run, perf inject and perf report take seconds, not a minute
	[ "$cg" = dwarf ] && freq=1000
	"$jrec" record -q -F $freq --call-graph "$cg" -o "$name.jrec" -- "$@" >"$name.jrec.out" 2>"$name.jrec.err"
	pid=$(head -n 1 "$name.jrec.out")
	rm -f "/tmp/perf-$pid.map" "/tmp/jit-$pid.dump"
	perf record -q -k 1 -F $freq --call-graph "$cg" -o "$name.perf" -- "$@" >"$name.perf.out" 2>"$name.perf.err"
	rt_perf_pid=$(head -n 1 "$name.perf.out")
	rt_perf_in=$name.perf
	if [ "$inject" = inject ]; then
		perf inject --jit -i "$name.perf" -o "$name.perf.jit" >/dev/null 2>&1 && rt_perf_in=$name.perf.jit
	fi
}

# rt_cleanup: the perf map and jitdump of the last perf run, and the
# jitted-PID-N.so files perf inject wrote beside its jitdump
rt_cleanup() {
	rm -f "/tmp/perf-$rt_perf_pid.map" "/tmp/jit-$rt_perf_pid.dump"
	rm -f "/tmp/jitted-$rt_perf_pid-"*.so
}
