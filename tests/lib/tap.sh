# shellcheck shell=bash
# TAP 13 for the shell suites (tests/suites/*) and qemu/guest-suite: source
# it, then report each test with one of
#
#   ok WHAT                  "ok N - WHAT"
#   not_ok WHAT              "not ok N - WHAT", counted in $failed
#   skip WHAT WHY            "ok N - WHAT # SKIP WHY"
#   check WHAT COMMAND...    ok or not_ok by COMMAND's status
#   diag [FILE...]           FILE (or stdin) as "#   " diagnostic lines
#   tap_done                 the plan "1..N"; returns 1 when any test failed
#
# $n counts tests and $failed failures; a suite may read both. Setting
# tap_prefix before a test puts it in front of every WHAT (the guest suite
# names its kernel series that way).
n=0 failed=0
tap_prefix=${tap_prefix:-}

ok() {
	n=$((n + 1))
	echo "ok $n - $tap_prefix$*"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $tap_prefix$*"
}

skip() {
	n=$((n + 1))
	echo "ok $n - $tap_prefix$1 # SKIP $2"
}

check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

diag() {
	sed 's/^/#   /' "$@"
}

# check_help_man WHAT JREC COMMAND MANPAGE: COMMAND's --help and its man page
# name the same long options
check_help_man() {
	local help man
	help=$("$2" "$3" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	man=$(grep -oE -- '\\-\\-[a-z][a-z\\-]+' "$4" 2>/dev/null | sed 's/\\//g' | sort -u)
	if [ -n "$man" ] && [ "$help" = "$man" ]; then
		ok "$1"
	else
		not_ok "$1"
		diff <(echo "$help") <(echo "$man") | diag
	fi
}

tap_done() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
