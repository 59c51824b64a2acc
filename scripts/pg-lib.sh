# shellcheck shell=sh
# PostgreSQL cluster helpers for scripts/pg-run.sh (sourced, not run).
# POSIX sh that also runs under busybox sh in a guest: no bash, no jq, no
# pgrep, no runuser.  The uid switch is `pgsample run-as`, because
# busybox's setpriv cannot change uids and its su needs a shell quoting
# round trip.
#
# State (globals, read by pg_cleanup from a trap):
#   PG_USER PG_BINDIR PGSAMPLE  who runs the server, where its binaries are
#   PG_CLUSTER                   private directory holding data/ and the log
#   PG_SOCK                      0700 socket directory owned by PG_USER
#   PG_ROOT_COPY                 a fetched root copied where PG_USER reaches it
#   PG_CHILD                     pid of the foreground job we wait for
#   PG_LOGS                      where the server log is kept afterwards

PG_CLUSTER=""
PG_SOCK=""
PG_ROOT_COPY=""
PG_CHILD=""

# pg_runas PROG ARGS...: PROG as PG_USER.  Always an external command
# (pgsample execs PROG), so pg_wait_job's kill reaches PROG itself.  When
# not root, PG_USER is ourselves: PostgreSQL only refuses root.
pg_runas() { "$PGSAMPLE" run-as "$PG_USER" "$@"; }

# pg_ensure_user: a guest has no postgres user; make one there.  On a
# normal system, adding users is the administrator's business.
pg_ensure_user() {
	[ "$(id -u)" = 0 ] || { PG_USER=$(id -un); return 0; }
	id -u "$PG_USER" >/dev/null 2>&1 && return 0
	if [ "${PG_IN_GUEST:-0}" != 1 ] && command -v useradd >/dev/null 2>&1; then
		die "no user '$PG_USER' to run PostgreSQL: useradd --system --home-dir /var/lib/postgresql $PG_USER (or apt-get install postgresql-$PG_SYSTEM_MAJOR), or pass --user NAME"
	fi
	mkdir -p /etc
	grep -q '^root:' /etc/passwd 2>/dev/null || echo 'root:x:0:0:root:/root:/bin/sh' >> /etc/passwd
	grep -q '^root:' /etc/group 2>/dev/null || echo 'root:x:0:' >> /etc/group
	uid=70
	while grep -q "^[^:]*:[^:]*:$uid:" /etc/passwd; do uid=$((uid + 1)); done
	echo "$PG_USER:x:$uid:" >> /etc/group
	echo "$PG_USER:x:$uid:$uid:PostgreSQL (preemptlab):/tmp:/bin/sh" >> /etc/passwd
	note "created user $PG_USER (uid $uid) for the server"
}

# pg_children PID: direct children of PID, from /proc (busybox has no
# pgrep).  The command name may hold spaces, so the fields are read after
# its closing parenthesis.
pg_children() {
	parent=$1
	for s in /proc/[0-9]*/stat; do
		line=$(cat "$s" 2>/dev/null) || continue
		rest=${line##*") "}
		# shellcheck disable=SC2086 # split the stat fields on purpose
		set -- $rest
		if [ "${2:-}" = "$parent" ]; then
			p=${s#/proc/}
			echo "${p%/stat}"
		fi
	done
	return 0
}

# pg_alive PID: running (a zombie waiting for its reaper does not count:
# it holds no memory and kill -0 would still succeed on it).
pg_alive() {
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	st=${st##*") "}
	[ "${st%% *}" != Z ]
}

# pg_kill_server: immediate stop, then make sure: a postmaster or backend
# left behind would keep the shared memory and the huge pages.
pg_kill_server() {
	[ -n "$PG_CLUSTER" ] && [ -f "$PG_CLUSTER/data/postmaster.pid" ] || return 0
	pm=$(head -n1 "$PG_CLUSTER/data/postmaster.pid" 2>/dev/null || true)
	case $pm in '' | *[!0-9]*) return 0 ;; esac
	kids=$(pg_children "$pm")
	pg_runas "$PG_BINDIR/pg_ctl" -D "$PG_CLUSTER/data" stop -m immediate -w -t 30 \
		>/dev/null 2>&1 || true
	if pg_alive "$pm"; then
		note "postmaster $pm survived pg_ctl stop; killing it"
		kill -KILL "$pm" 2>/dev/null || true
	fi
	for k in $kids; do kill -KILL "$k" 2>/dev/null || true; done
	# Return only when every process of the cluster is gone: a backend
	# still exiting holds the segment and would run beside the next bench.
	i=0
	while [ $i -lt 100 ]; do
		left=""
		for p in $pm $kids; do pg_alive "$p" && left="$left $p"; done
		[ -z "$left" ] && return 0
		[ $i -eq 50 ] && for p in $left; do kill -KILL "$p" 2>/dev/null || true; done
		sleep 0.1
		i=$((i + 1))
	done
	note "PostgreSQL processes$left did not exit within 10 s"
}

# pg_cleanup: the EXIT trap.  Keeps the server log, removes the cluster,
# the socket directory and the huge page reservation.
pg_cleanup() {
	if [ -n "$PG_CHILD" ]; then
		kill -TERM "$PG_CHILD" 2>/dev/null || true
		wait "$PG_CHILD" 2>/dev/null || true
		PG_CHILD=""
	fi
	pg_kill_server
	if [ -n "$PG_CLUSTER" ] && [ -f "$PG_CLUSTER/server.log" ]; then
		cp "$PG_CLUSTER/server.log" "$PG_LOGS/$PG_SERVER_LOG" 2>/dev/null || true
	fi
	for d in "$PG_CLUSTER" "$PG_SOCK" "$PG_ROOT_COPY"; do [ -z "$d" ] || rm -rf "$d"; done
	PG_CLUSTER="" PG_SOCK="" PG_ROOT_COPY=""
	hp_restore_all
}

# pg_wait_job CMD...: run CMD in the background and wait, so a TERM sent
# to this shell runs the trap at once instead of after CMD finishes.
pg_wait_job() {
	"$@" &
	PG_CHILD=$!
	rc=0
	wait "$PG_CHILD" || rc=$?
	PG_CHILD=""
	return "$rc"
}

# pg_set_model M: switch the preemption model through debugfs and read it
# back (PREEMPT_DYNAMIC kernels); "current" leaves it.  Prints why not.
PG_PREEMPT=/sys/kernel/debug/sched/preempt
pg_model_now() { sed -n 's/.*(\([a-z_]*\)).*/\1/p' "$PG_PREEMPT" 2>/dev/null || true; }
pg_set_model() {
	[ "$1" = current ] || [ "$(pg_model_now)" = "$1" ] && return 0
	[ -w "$PG_PREEMPT" ] || { echo "no writable $PG_PREEMPT (kernel without PREEMPT_DYNAMIC, or debugfs not mounted)"; return 1; }
	echo "$1" > "$PG_PREEMPT" 2>/dev/null || true
	[ "$(pg_model_now)" = "$1" ] || { echo "model $1 not accepted: debugfs reads '$(cat "$PG_PREEMPT")'"; return 1; }
}
