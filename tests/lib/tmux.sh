# The terminal suites' tmux helper (42-report-terminal, 46-report-tui, 47-top).

# tmux_new SOCKET WIDTH HEIGHT CMD: a fresh tmux server on SOCKET with one
# WIDTHxHEIGHT window running CMD. A server killed just before may still be
# exiting, and a new session then fails ("server exited unexpectedly"): it is
# tried again, for up to 2 s.
tmux_new() {
	local i
	tmux -S "$1" kill-server 2>/dev/null
	for i in $(seq 20); do
		tmux -S "$1" new-session -d -x "$2" -y "$3" "$4" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
