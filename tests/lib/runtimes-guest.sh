# shellcheck shell=bash
# Sourced by tests/suites/49-runtimes-guest and scripts/bench-runtimes-guest:
# the JIT runtimes of tests/lib/runtimes.sh (and CPython 3.13, as
# tests/suites/40-runtime-python takes it) recorded by jrec in a QEMU guest
# (qemu/run), all in one boot: each program runs once, recorded by jrec with
# the jmmap module inside jrec --no-jmmap (the kernel's own mapping
# records), both reports kept to the program's process.
# tests/runtimes/guest-rows.sh is what runs in the guest.
#
#   rtg_table                  every row: NAME, CALLGRAPH, OUTER, MIDDLE, LEAF,
#                              COMMAND (in the guest), separated by tabs
#   rtg_stage DIR NAME...      stage what the rows NAME... need into DIR;
#                              sets rtg_adds (qemu/run's --add options) and
#                              writes DIR/rows (the rows that can run); a row
#                              whose runtime is missing here gets
#                              `rtg_missing NAME WHY` (the caller's)
#   rtg_run DIR KERNEL MS FREQ boot KERNEL and run the staged rows, each
#                              program's hot loop running MS milliseconds
#                              (CPython's of CPU time), sampled at FREQ Hz;
#                              the guest's output in DIR/guest.out,
#                              qemu/run's in DIR/guest.err; returns
#                              qemu/run's status
#   rtg_split DIR              DIR/guest.out cut into DIR/NAME.MODE.rep (the
#                              reports) and DIR/NAME.MODE.st ("STATUS
#                              SECONDS PID": jrec record's status and wall
#                              time, the program's pid); prints the guest's
#                              seconds
#   rtg_row_figures DIR NAME MODE
#                              rt_figures of that report
#   rtg_line DIR NAME          the row's line of the table
#   rtg_not_below A B [N1 N2]  every figure of A at least B's less one point, or less three
#                              standard errors of the difference for N1 and N2 samples
#
# Needs tests/lib/runtimes.sh (rt_figures) and qemu/lib/python-chroot.sh.

# shellcheck disable=SC2016 # $MS and $SECS are the guest's
rtg_table() {
	local py='chroot /tmp/py /usr/bin/python3.13' erl='erl -noshell -pa /add -run hot main $MS -s init stop'
	local node='/add/node --no-turbo-inlining' js='/add/hot.js $MS'
	local java='/add/jdk/bin/java -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:-Inline -cp /add HotChain $MS'
	local jo='long HotChain.outer(long)' jm='long HotChain.middle(long)' jl='long HotChain.leaf(long)'
	local po=py::outer:/tmp/prog.py pm=py::middle:/tmp/prog.py pl=py::leaf:/tmp/prog.py
	local t=$'\t'
	cat <<-EOF
	node-perf-basic-prof$t-g${t}outer${t}middle${t}leaf$t$node --perf-basic-prof $js
	node-perf-prof$t-g${t}outer${t}middle${t}leaf$t$node --perf-prof $js
	node-perf-prof-unwinding-info-dwarf$t--call-graph dwarf${t}outer${t}middle${t}leaf$t$node --perf-prof --perf-prof-unwinding-info $js
	node-interpreted-frames-native-stack$t-g${t}outer${t}middle${t}leaf$t$node --perf-basic-prof --interpreted-frames-native-stack $js
	java-PreserveFramePointer-map-at-exit$t-g$t$jo$t$jm$t$jl$t$java
	erlang-JPperf-true$t-g${t}hot:outer/2${t}hot:middle/1${t}hot:leaf/2${t}erl +JPperf true ${erl#erl }
	erlang-JPperf-dump$t-g${t}hot:outer/2${t}hot:middle/1${t}hot:leaf/2${t}erl +JPperf dump ${erl#erl }
	py313-perf-fp$t-g$t$po$t$pm$t$pl$t$py -X perf /tmp/prog.py \$SECS
	py313-perf-dwarf$t--call-graph dwarf$t$po$t$pm$t$pl$t$py -X perf /tmp/prog.py \$SECS
	py313-jit-dwarf$t--call-graph dwarf$t$po$t$pm$t$pl$t$py -X perf_jit /tmp/prog.py \$SECS
	EOF
}

# rtg_field NAME N: field N of row NAME
rtg_field() {
	rtg_table | awk -F '\t' -v n="$1" -v f="$2" '$1 == n { print $f }'
}

# rtg_python_root DIR LOG: DIR/pyroot.tar, CPython 3.13 from the cached
# trixie chroot cut to what the program needs: the interpreter, the
# libraries it links (the chroot's own), its standard library and the
# usr-merge links
rtg_python_root() {
	local dir=$1 log=$2 root r lib
	root=$(qemu_python_chroot_make "$log") || return 1
	[ -x "$root/usr/bin/python3.13" ] || return 1
	r=$dir/pyroot
	rm -rf "$r"
	mkdir -p "$r/usr/bin" "$r/usr/lib/x86_64-linux-gnu" "$r/tmp" || return 1
	cp -a "$root/bin" "$root/lib" "$root/lib64" "$r/" && cp -a "$root/usr/lib64" "$r/usr/" || return 1
	cp -a "$root/usr/bin/python3.13" "$r/usr/bin/" && cp -a "$root/usr/lib/python3.13" "$r/usr/lib/" || return 1
	for lib in $(chroot "$root" /usr/bin/ldd /usr/bin/python3.13 2>>"$log" |
		awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		cp -L "$root$(chroot "$root" readlink -f "$lib")" "$r/usr/lib/x86_64-linux-gnu/$(basename "$lib")" ||
			return 1
	done
	tar -C "$r" -cf "$dir/pyroot.tar" . && rm -rf "$r"
}

# rtg_jdk DIR JDK: DIR/jdk, links to what `java` runs with (qemu/run copies
# what they point to): the launcher, conf, release and lib without the
# compiler's files
rtg_jdk() {
	local d=$1/jdk jdk=$2 f
	rm -rf "$d"
	mkdir -p "$d/bin" "$d/lib" || return 1
	ln -s "$jdk/bin/java" "$d/bin/java" && ln -s "$jdk/conf" "$d/conf" && ln -s "$jdk/release" "$d/release" ||
		return 1
	for f in "$jdk"/lib/*; do
		case ${f##*/} in
		ct.sym | src.zip) ;;
		*) ln -s "$f" "$d/lib/" || return 1 ;;
		esac
	done
}

rtg_stage() {
	local dir=$1 name have=" " top=${JREC_TOP:?} jdk
	shift
	rtg_adds=(--add "$top/tests/runtimes/guest-rows.sh" --add "$dir/rows")
	: >"$dir/rows"
	for name in "$@"; do
		case $name in
		node-*)
			if ! command -v node >/dev/null; then
				rtg_missing "$name" "nodejs is not installed (scripts/debian-packages)"
				continue
			fi
			[[ $have == *" node "* ]] || rtg_adds+=(--add "$(command -v node)" --add "$top/tests/runtimes/hot.js")
			have+="node "
			;;
		java-*)
			jdk=${JREC_JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
			if [[ $have != *" java "* ]]; then
				if ! [ -x "$jdk/bin/javac" ] || ! "$jdk/bin/javac" -d "$dir" "$top/tests/runtimes/HotChain.java" ||
					! rtg_jdk "$dir" "$jdk"; then
					rtg_missing "$name" "openjdk-17-jdk-headless is not installed (scripts/debian-packages)"
					continue
				fi
				rtg_adds+=(--add "$dir/jdk" --add "$dir/HotChain.class")
			fi
			have+="java "
			;;
		erlang-*)
			if [[ $have != *" erlang "* ]]; then
				if ! command -v erlc >/dev/null || ! [ -d /usr/lib/erlang ] ||
					! erlc -o "$dir" "$top/tests/runtimes/hot.erl"; then
					rtg_missing "$name" "erlang-base is not installed (scripts/debian-packages)"
					continue
				fi
				rtg_adds+=(--add /usr/lib/erlang --add "$dir/hot.beam")
			fi
			have+="erlang "
			;;
		py313-*)
			if [[ $have != *" python "* ]]; then
				if ! rtg_python_root "$dir" "$dir/python-root.log"; then
					rtg_missing "$name" "no python3.13 chroot: $(tail -n 1 "$dir/python-root.log")"
					continue
				fi
				rtg_adds+=(--add "$dir/pyroot.tar" --add "$top/tests/runtimes/hot.py")
			fi
			have+="python "
			;;
		*)
			rtg_missing "$name" "no such row (rtg_table in tests/lib/runtimes-guest.sh)"
			continue
			;;
		esac
		rtg_table | awk -F '\t' -v n="$name" '$1 == n' >>"$dir/rows"
	done
}

rtg_run() {
	local dir=$1 kernel=$2 ms=$3 freq=$4
	JMMAP_QEMU_MEM=${JMMAP_QEMU_MEM:-2G} "${JREC_TOP:?}/qemu/run" --batch --kernel "$kernel" \
		--timeout "${RTG_TIMEOUT:-600}" "${rtg_adds[@]}" -- sh /add/guest-rows.sh /add/rows "$ms" "$freq" \
		>"$dir/guest.out" 2>"$dir/guest.err"
}

rtg_split() {
	awk -v d="$1" '
		/^@@row / { f = d "/" $2 "." $3 ".rep"; print $4, $5, $6 >(d "/" $2 "." $3 ".st"); printf "" >f; next }
		/^@@guest / { print $2; f = ""; next }
		f != "" { print >>f }' "$1/guest.out"
}

rtg_row_figures() {
	rt_figures "$1/$2.$3.rep" "$(rtg_field "$2" 3)" "$(rtg_field "$2" 4)" "$(rtg_field "$2" 5)"
}

# rtg_line DIR NAME: the row's line of the table: its name, call graph
# mode, and the figures with the module and without
rtg_line() {
	printf '%-38s %-6s with jmmap: %s | without: %s' "$2" "$(rtg_field "$2" 2 | sed 's/--call-graph //')" \
		"$(rtg_row_figures "$1" "$2" jmmap)" "$(rtg_row_figures "$1" "$2" no-jmmap)"
}

# rtg_samples REPORT: the samples its header counts (perf's "3K" read as 3000)
rtg_samples() {
	awk '/^# Samples: / { v = $3; m = 1; if (v ~ /K$/) m = 1000; if (v ~ /M$/) m = 1000000
		sub(/[KM]$/, "", v); print v * m; exit }' "$1"
}

# rtg_not_below WITH WITHOUT N1 N2: each figure of WITH at least WITHOUT's
# less what chance allows. The two recordings take their samples of the one
# run at their own instants, two draws of the same shares: a share differs
# between them by chance, with a standard error of
# sqrt(p (1 - p) (1/N1 + 1/N2)) for N1 and N2 samples. Allowed: 1 point, or
# three such errors where that is more.
rtg_not_below() {
	awk -v a="$1" -v b="$2" -v n1="${3:-0}" -v n2="${4:-0}" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) {
			split(x[i], p, "="); split(y[i], q, "=")
			s = (p[2] + q[2]) / 200
			if (s > 1) s = 1
			tol = 1
			if (n1 > 0 && n2 > 0) {
				e = 300 * sqrt(s * (1 - s) * (1 / n1 + 1 / n2))
				if (e > tol) tol = e
			}
			if (p[1] != q[1] || p[2] < q[2] - tol) exit 1
		}
	}'
}
