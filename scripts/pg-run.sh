#!/bin/sh
# One PostgreSQL cell: a private cluster with one huge_pages setting,
# pgbench -i, then the cell's pgbench runs as the planner listed them
# (lab/plan/pg_runs.c), each sampled by build/pgsample, which writes
# RUNDIR/runs/pgbench-*.json.
# The cluster, its socket directory and the huge page reservation are
# removed afterwards, also on failure and Ctrl-C.  POSIX sh: the guests
# run it under busybox sh.
#
# Usage: scripts/pg-run.sh [options] RUNDIR
#   --huge-pages off|on|try   (default off)
#   --shared-buffers SIZE     (k/M/G suffix; default $POOL or 16M)
#   --scale N                 pgbench -i -s N (required: the planner sizes it,
#                             lab/plan/sizing.c; by hand, about 15 MB a unit)
#   --runs FILE               the cell's runs: "max_connections N", then
#                             "run REP MODEL BUILTIN CLIENTS THREADS [warm]"
#                             lines in order (a unit's plan file gives them;
#                             a guest needs them; warm: a warm-up run, its
#                             document named -warm and left out of
#                             reports).  Without it, build/plan --pg-runs
#                             lists them from the next four:
#   --clients "N ..."         (default 8)
#   --builtins "B ..."        (select-only simple-update tpcb-like; default
#                              "select-only simple-update")
#   --models "M ..."          preemption models to switch to through debugfs
#                             before their runs (none voluntary full lazy);
#                             default: leave the model as it is
#   --repeat N --first-rep K  runs numbered K..K+N-1 (default 1 and 1)
#   --duration S              each run's length (default 10)
#   --bindir DIR              (PostgreSQL's bin; default $PG_BINDIR or
#                              the system server's, scripts/pg-root-lib.sh)
#   --pg-version MAJOR|system a major of pg/majors, fetched by
#                             scripts/pg-fetch.sh into a private root (the
#                             host only), or the host's own (default system)
#   --pg-root DIR             a root pg-fetch.sh made (a guest's, carried
#                             in its initramfs at the host's path)
#   --user NAME               (who runs the server; default postgres)
#   --fillfactor N            pgbench -i -F N (10..100; default 100)
#   --cold on|off             restart the server before each run, so every
#                             run starts with an empty shared_buffers and
#                             fills it through the freelist (default off)
#   --buffercache-ms MS       follow the fill of shared_buffers with
#                             pg_buffercache every MS ms (0: off)
#   --unit-conf FILE          the unit's plan file (plan/UNIT.plan; the cell
#                             runner passes it): kind guest (nothing fetched,
#                             no useradd, --runs required), the host's
#                             pg_package, and for pgsample the provenance's
#                             label, accelerator and icount values
#   --mitigation NAME         the MITIGATIONS cell these runs are (none
#                             prefault touch-before-lock hugepages pg19):
#                             named in each document and its file name
# Exit: 0 all cells measured, 1 a cell failed, 2 bad usage, 3 the page
# policy cannot be had (as bufbench).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/hugepages.sh
. "$here/hugepages.sh"
# shellcheck source=scripts/pg-lib.sh
. "$here/pg-lib.sh"
# shellcheck source=scripts/pg-root-lib.sh
. "$here/pg-root-lib.sh"

help() { sed -n '/^# Usage:/,/^# policy cannot/s/^# \{0,1\}//p' "$0"; }
usage() { echo "preemptlab: $*" >&2; help >&2; exit 2; }
case ${1:-} in -h | --help) help; exit 0 ;; esac

HP=off SB=${POOL:-16M} SCALE="" CLIENTS_L=8 BUILTINS="select-only simple-update"
PG_VERSION=system PG_ROOT="" PG_PATCH="" UNIT_CONF="" RUNS=""
DUR=10 REP=1 FIRST_REP=1 PG_USER=postgres PG_PORT=5432 MODELS=current FF=100 COLD=off BUFCACHE_MS=0
MITIGATION=""
PG_BINDIR=${PG_BINDIR:-$(pgroot_dir "" "$PG_SYSTEM_MAJOR" bin)}
PGSAMPLE=${PGSAMPLE:-$(dirname "$here")/build/pgsample}
while [ $# -gt 1 ]; do
	case $1 in
	--huge-pages) HP=$2 ;;
	--shared-buffers) SB=$2 ;;
	--scale) SCALE=$2 ;;
	--clients) CLIENTS_L=$(split_list "$2") ;;
	--builtins) BUILTINS=$(split_list "$2") ;;
	--duration) DUR=$2 ;;
	--repeat) REP=$2 ;;
	--runs) RUNS=$2 ;;
	--first-rep) FIRST_REP=$2 ;;
	--bindir) PG_BINDIR=$2 ;;
	--pg-version) PG_VERSION=$2 ;;
	--pg-root) PG_ROOT=$2 ;;
	--user) PG_USER=$2 ;;
	--models) MODELS=$(split_list "$2") ;;
	--fillfactor) FF=$2 ;;
	--cold) COLD=$2 ;;
	--buffercache-ms) BUFCACHE_MS=$2 ;;
	--unit-conf) UNIT_CONF=$2 ;;
	--mitigation) MITIGATION=$2 ;;
	*) usage "unknown option $1" ;;
	esac
	shift 2
done
[ $# -eq 1 ] || usage "need RUNDIR as the last argument"
RUNDIR=$1
[ -z "$UNIT_CONF" ] || [ -r "$UNIT_CONF" ] || usage "--unit-conf $UNIT_CONF: no such file"
# uconf KEY: the unit's plan file's value ("" without one).
uconf() { [ -z "$UNIT_CONF" ] || plan_value "$UNIT_CONF" "$1"; }
# In a guest (the plan's kind): nothing is fetched, no user is added (pg-lib.sh).
PG_IN_GUEST=0; [ "$(uconf kind)" = guest ] && PG_IN_GUEST=1
# The server's wait and the runs are the plan's (lab/plan/runner_policy.c,
# pg_runs.c); run by hand, build/plan says them.  A guest has no
# build/plan: its unit's plan file and --runs must hold them.
PG_CTL_TIMEOUT=$(uconf pg_ctl_timeout_s)
if [ -z "$PG_CTL_TIMEOUT" ] || [ -z "$RUNS" ]; then
	[ "$PG_IN_GUEST" = 0 ] ||
		die "a guest's pg_ctl_timeout_s and --runs come from its plan (lab/plan/write.c writes them with pgbench)"
	pl=$(lab_plan) || exit 2
fi
[ -n "$PG_CTL_TIMEOUT" ] || PG_CTL_TIMEOUT=$("$pl" --runner-policy pg_ctl_timeout_s) || exit 2
if [ -n "$RUNS" ]; then
	[ -r "$RUNS" ] || usage "--runs $RUNS: no such file"
	RUN_LIST=$(cat "$RUNS")
else
	RUN_LIST=$("$pl" --pg-runs "$MODELS" "$BUILTINS" "$CLIENTS_L" "$REP" "$FIRST_REP") ||
		usage "the runs cannot be listed (above)"
fi
MAX_CONN=$(printf '%s\n' "$RUN_LIST" | sed -n 's/^max_connections //p')

# Validate everything before touching the machine (lab/pgsample/cluster.c).
[ -x "$PGSAMPLE" ] || die "no $PGSAMPLE: run make (it needs libpq-dev; ./configure --install-deps)"
SB_KB=$("$PGSAMPLE" cluster-options --huge-pages "$HP" --shared-buffers "$SB" --scale "$SCALE" \
	--duration "$DUR" --fillfactor "$FF" --cold "$COLD" --buffercache-ms "$BUFCACHE_MS" \
	--pg-version "$PG_VERSION" --max-connections "$MAX_CONN") || { help >&2; exit 2; }
# Which server: a fetched root's wrappers, or the host's own binaries.
# PG_PACKAGE goes into every document beside the server's version().
if [ -z "$PG_ROOT" ] && [ "$PG_VERSION" != system ]; then
	[ "$PG_IN_GUEST" != 1 ] || die "--pg-version $PG_VERSION in a guest needs --pg-root (the initramfs carries the root; nothing is fetched here)"
	# The one way a server is had (scripts/pg-roots.sh: Debian's package).
	PG_ROOT=$("$here/pg-roots.sh" "$PG_VERSION:debian" | cut -f3) || exit 1
	[ -n "$PG_ROOT" ] || die "PostgreSQL $PG_VERSION could not be fetched (above)"
fi
if [ -n "$PG_ROOT" ]; then
	{ [ -f "$PG_ROOT/.pg" ] && [ -f "$PG_ROOT/.complete" ]; } || die "$PG_ROOT is no complete root of scripts/pg-fetch.sh"
	PG_MAJOR=$(sed -n "s/^PG_MAJOR='\(.*\)'$/\1/p" "$PG_ROOT/.pg")
	PG_PACKAGE=$(sed -n "s/^PG_PACKAGE='\(.*\)'$/\1/p" "$PG_ROOT/.pg")
	# A root scripts/pg-build.sh made names its patch (none for Debian's
	# source as it is); a fetched binary root has none.
	PG_PATCH=$(sed -n "s/^PG_PATCH='\(.*\)'$/\1/p" "$PG_ROOT/.pg")
	[ "$PG_VERSION" = system ] || [ "$PG_VERSION" = "$PG_MAJOR" ] ||
		die "--pg-root $PG_ROOT holds PostgreSQL $PG_MAJOR, not --pg-version $PG_VERSION"
	PG_BINDIR=$(pgroot_dir "$PG_ROOT" "$PG_MAJOR" bin)
elif command -v dpkg-query >/dev/null 2>&1 &&
	pkg=$(dpkg-query -S "$PG_BINDIR/postgres" 2>/dev/null | cut -d: -f1) && [ -n "$pkg" ]; then
	PG_PACKAGE="$pkg $(dpkg-query -W -f '${Version}' "$pkg") (host)"
else
	# A guest has no dpkg database: the host said which (run-plan.sh puts
	# it in the unit's plan file).
	PG_PACKAGE=$(uconf pg_package)
	[ -n "$PG_PACKAGE" ] || PG_PACKAGE="unknown (the host, $PG_BINDIR)"
fi
for t in initdb pg_ctl postgres pgbench; do
	[ -x "$PG_BINDIR/$t" ] || die "no $PG_BINDIR/$t: apt-get install postgresql-$PG_SYSTEM_MAJOR postgresql-contrib-$PG_SYSTEM_MAJOR, or pass --bindir"
done
if printf '%s\n' "$RUN_LIST" | sed -n 's/^run [0-9]* \([a-z]*\) .*/\1/p' | grep -qvx current &&
	[ ! -w "$PG_PREEMPT" ]; then
	die "--models needs a writable $PG_PREEMPT (root, debugfs mounted, a PREEMPT_DYNAMIC kernel); leave --models out to keep the current model"
fi
# Which mitigations PostgreSQL has is their rows' (lab/common/mitigation_rows.c).
[ -z "$MITIGATION" ] || "$PGSAMPLE" mitigation "$MITIGATION" || usage "--mitigation $MITIGATION (above)"

# One zone everywhere: a guest has only this one (scripts/pg-guest-files.sh).
export TZ=UTC
TAB=$(printf '\t')

mkdir -p "$RUNDIR/runs" "$RUNDIR/logs"
RUNDIR=$(cd "$RUNDIR" && pwd)
PG_LOGS=$RUNDIR/logs
PG_SERVER_LOG=postgres-hp$HP${MITIGATION:+-mit_$MITIGATION}-$(date -u +%H%M%S).log
pg_ensure_user

trap 'pg_cleanup' EXIT
trap 'note "interrupted; cleaning up"; exit 130' INT
trap 'note "terminated; cleaning up"; exit 143' TERM
trap 'note "hung up; cleaning up"; exit 129' HUP

# The server runs as PG_USER, which must reach the fetched root: a checkout
# in root's home (/root is 0700 on Debian; a fresh root's make bench failed
# its initdb there) hides it, so the root is copied for this run where
# every user can read it, and removed with the cluster.
if [ -n "$PG_ROOT" ] && [ "$(id -u)" = 0 ] &&
	! "$PGSAMPLE" run-as "$PG_USER" "$PG_BINDIR/postgres" --version > /dev/null 2>&1; then
	PG_ROOT_COPY=$(mktemp -d "${TMPDIR:-/tmp}/pgroot.XXXXXX")
	cp -a "$PG_ROOT/." "$PG_ROOT_COPY/"
	chmod 755 "$PG_ROOT_COPY"
	PG_BINDIR=$(pgroot_dir "$PG_ROOT_COPY" "$PG_MAJOR" bin)
	"$PGSAMPLE" run-as "$PG_USER" "$PG_BINDIR/postgres" --version > /dev/null 2>&1 ||
		die "$PG_USER cannot run $PG_BINDIR/postgres, even copied out of $PG_ROOT"
	note "$PG_USER cannot reach $PG_ROOT: this run uses a copy in $PG_ROOT_COPY"
fi

# The cluster lives under the run directory; the socket directory too,
# unless the server's socket there, DIR/pgsock.XXXXXX/.s.PGSQL.PORT, would
# be longer than a unix socket's path can be (sun_path: 108 bytes with
# its NUL).
PG_CLUSTER=$(mktemp -d "$RUNDIR/pgcluster.XXXXXX")
sock_path="$RUNDIR/pgsock.XXXXXX/.s.PGSQL.$PG_PORT"
if [ ${#sock_path} -le 107 ]; then
	PG_SOCK=$(mktemp -d "$RUNDIR/pgsock.XXXXXX")
else
	PG_SOCK=$(mktemp -d "${TMPDIR:-/tmp}/pgsock.XXXXXX")
fi
chmod 700 "$PG_CLUSTER" "$PG_SOCK"
if [ "$(id -u)" = 0 ]; then
	chown "$PG_USER" "$PG_CLUSTER" "$PG_SOCK"
	# shellcheck disable=SC2016 # $1 is expanded by the inner shell
	pg_runas /bin/sh -c 'test -w "$1"' sh "$PG_CLUSTER" ||
		die "user $PG_USER cannot reach $PG_CLUSTER: make the parents of $RUNDIR world-searchable (chmod o+x) or pick another run directory"
fi
PGDATA=$PG_CLUSTER/data

note "pg hp=$HP: initdb ($("$PG_BINDIR/postgres" --version); $PG_PACKAGE)"
# -N: a throw-away cluster needs no fsync of its catalog.
pg_wait_job "$PGSAMPLE" run-as "$PG_USER" "$PG_BINDIR/initdb" -D "$PGDATA" -U postgres --auth=trust \
	--no-locale -E UTF8 -N > "$PG_LOGS/initdb-hp$HP.log" 2>&1 ||
	die "initdb failed; see $PG_LOGS/initdb-hp$HP.log"

# Non-default settings, kept in the run's logs for the report.
cat >> "$PGDATA/postgresql.conf" <<CONF

# preemptlab (scripts/pg-run.sh)
listen_addresses = ''
unix_socket_directories = '$PG_SOCK'
port = $PG_PORT
shared_buffers = ${SB_KB}kB
huge_pages = $HP
max_connections = $MAX_CONN
# Commit latency would be the disk's, not the buffer manager's.
synchronous_commit = off
CONF
sed -n '/^# preemptlab/,$p' "$PGDATA/postgresql.conf" > "$PG_LOGS/postgresql-hp$HP.conf"

# huge_pages=on|try: reserve exactly what the server will map, where the
# policy (pgsample huge-pages, lab/pgsample/hugepages.c) says it can be had.
if [ "$HP" != off ]; then
	need=$(pg_runas "$PG_BINDIR/postgres" -D "$PGDATA" -C shared_memory_size_in_huge_pages)
	verdict=$("$PGSAMPLE" huge-pages check "${need:-0}" "$SB_KB") ||
		die "the server's shared_memory_size_in_huge_pages is '$need', not a count"
	IFS=$TAB read -r act hpkb want text fix <<-EOV
	$verdict
	EOV
	if [ "$act" = reserve ] && ! hp_reserve "$hpkb" "$need"; then
		IFS=$TAB read -r act _ _ text fix <<-EOV
		$("$PGSAMPLE" huge-pages failed "$need" "$want")
		EOV
	fi
	if [ "$act" != refuse ]; then
		note "pg hp=$HP: $text"
	elif [ "$HP" = on ]; then
		echo "preemptlab: huge_pages=on cannot be had: $text. Fix: $fix" >&2
		exit 3
	else
		note "pg hp=try: $text; PostgreSQL will fall back to 4 KB pages (the result records what it got)"
	fi
fi

note "pg hp=$HP: starting the server (shared_buffers ${SB_KB}kB)"
if ! pg_wait_job "$PGSAMPLE" run-as "$PG_USER" "$PG_BINDIR/pg_ctl" -D "$PGDATA" -l "$PG_CLUSTER/server.log" \
	-w -t "$PG_CTL_TIMEOUT" start > "$PG_LOGS/pg_ctl-hp$HP.log" 2>&1; then
	tail -n 5 "$PG_CLUSTER/server.log" >&2 || true
	if [ "$HP" = on ]; then
		echo "preemptlab: PostgreSQL could not start with huge_pages=on (its log above); reserve more huge pages as root: sysctl -w vm.nr_hugepages=<more>, or HUGEPAGES=off|try" >&2
		exit 3
	fi
	die "the PostgreSQL server did not start; its log: $PG_LOGS/$PG_SERVER_LOG"
fi

note "pg hp=$HP: pgbench -i -s $SCALE -F $FF"
pg_wait_job "$PG_BINDIR/pgbench" -h "$PG_SOCK" -p "$PG_PORT" -U postgres -i -s "$SCALE" -F "$FF" \
	-q postgres > "$PG_LOGS/pgbench-init-hp$HP.log" 2>&1 ||
	die "pgbench -i failed; see $PG_LOGS/pgbench-init-hp$HP.log"
if [ "$BUFCACHE_MS" -gt 0 ]; then
	# pgbench runs any SQL: no psql is needed, and guests have none.
	echo 'CREATE EXTENSION IF NOT EXISTS pg_buffercache;' > "$PG_CLUSTER/buffercache.sql"
	pg_wait_job "$PG_BINDIR/pgbench" -h "$PG_SOCK" -p "$PG_PORT" -U postgres -n -t 1 \
		-f "$PG_CLUSTER/buffercache.sql" postgres > "$PG_LOGS/buffercache-hp$HP.log" 2>&1 ||
		die "CREATE EXTENSION pg_buffercache failed (apt-get install postgresql-contrib-15); see $PG_LOGS/buffercache-hp$HP.log"
fi

# cold_restart: an empty shared_buffers for the next run, so that it
# fills through the freelist as after a start, not from where the last
# run left it.  The tables stay in the OS page cache, as in the report.
cold_restart() {
	[ "$COLD" = on ] || return 0
	pg_wait_job "$PGSAMPLE" run-as "$PG_USER" "$PG_BINDIR/pg_ctl" -D "$PGDATA" \
		-l "$PG_CLUSTER/server.log" -w -t "$PG_CTL_TIMEOUT" -m fast restart \
		>> "$PG_LOGS/pg_ctl-hp$HP.log" 2>&1 ||
		die "the server did not restart; its log: $PG_LOGS/$PG_SERVER_LOG"
}

# run_one REP MODEL BUILTIN CLIENTS THREADS [warm]: one planned run.
run_one() {
	cold_restart
	if pg_wait_job "$PGSAMPLE" --host "$PG_SOCK" --port "$PG_PORT" \
		--pgbench "$PG_BINDIR/pgbench" --builtin "$3" --clients "$4" \
		--threads "$5" --duration "$DUR" --huge-pages "$HP" --pgdata "$PGDATA" \
		--buffercache-ms "$BUFCACHE_MS" --pg-package "$PG_PACKAGE" \
		${UNIT_CONF:+--unit-conf "$UNIT_CONF"} \
		${PG_PATCH:+--pg-patch "$PG_PATCH"} ${MITIGATION:+--mitigation "$MITIGATION"} \
		${6:+--warm} --out-dir "$RUNDIR" --rep "$1" > "$PG_LOGS/.pgsample.out"; then
		# pgsample's line, since the runner may already have
		# shipped the document itself: PATH TPS SPINDELAY PAGE_KB.
		IFS=$TAB read -r doc tps spin pk < "$PG_LOGS/.pgsample.out"
		note "pg hp=$HP model=$2 $3 c=$4 r$1: tps $tps, SpinDelay samples $spin, pages ${pk} kB -> ${doc#"$RUNDIR"/}"
	else
		failed=$((failed + 1))
		note "pg hp=$HP model=$2 $3 c=$4 r$1: FAILED (logs in $PG_LOGS)"
	fi
}

# The planned runs in their order; the model is switched where it changes.
failed=0
model_set=""
while read -r kw rep m b c j warm; do
	[ "$kw" = run ] || continue
	if [ "$m" != "$model_set" ] && ! why=$(pg_set_model "$m"); then
		failed=$((failed + 1))
		note "pg hp=$HP model=$m $b c=$c r$rep: skipped: $why"
		continue
	fi
	model_set=$m
	run_one "$rep" "$m" "$b" "$c" "$j" "$warm"
done <<RUNS
$RUN_LIST
RUNS
rm -f "$PG_LOGS/.pgsample.out"
[ "$failed" -eq 0 ] || die "$failed pgbench run(s) failed"
