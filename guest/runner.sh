#!/bin/sh
# The guest runner (busybox sh): runs the cells of /plan.cells, switching the
# preemption model through debugfs between them, and sends each run's JSON to
# the host over the second serial port (/dev/ttyS1, a file on the host) the
# moment that run ends, so a later crash or hang loses nothing finished.
#
# /plan.env (written by scripts/bench-kernel.sh) sets PL_LABEL PL_VIRT
# PL_DURATION PL_WARMUP PL_ARGS PL_HP2M; each line of /plan.cells is
#   ID MODEL PAGES LOCK CLIENTS REP
# Channel lines, all starting with "@@PL ":
#   READY <release> <models line>     once booted
#   START <id>                        a cell begins
#   JSON <id> <bytes> <sha256>        then base64 lines, then END <id>
#   FAIL <id> <reason>                the cell produced no result
#   DONE                              every cell was tried
set -u
# shellcheck disable=SC1091 # written per boot into the initramfs
. /plan.env
PREEMPT=/sys/kernel/debug/sched/preempt
CHAN=/dev/ttyS1
BENCH=/bin/bufbench-static

stty -F "$CHAN" raw -echo 2>/dev/null
exec 3>"$CHAN"
say() { echo "@@PL $*" >&3; }
log() { echo "runner: $*"; }

model_line() { cat "$PREEMPT" 2>/dev/null || echo "unreadable"; }
# The current model is the one in parentheses: "none voluntary (full) lazy".
model_now() { model_line | sed -n 's/.*(\([a-z_]*\)).*/\1/p'; }

# set_model M: switch and read back; "current" keeps what the kernel booted.
set_model() {
	[ "$1" = current ] && return 0
	[ "$(model_now)" = "$1" ] && return 0
	[ -w "$PREEMPT" ] || { echo "no writable $PREEMPT (kernel without PREEMPT_DYNAMIC or debugfs)"; return 1; }
	echo "$1" > "$PREEMPT" 2>/dev/null
	now=$(model_now)
	[ "$now" = "$1" ] || { echo "model $1 not accepted: debugfs reads '$(model_line)'"; return 1; }
}

# set_hugepages PAGES: 2 MB pages are reserved here, only while 2 MB cells
# run, so 4 KB cells get that memory back; 1 GB pages come from the kernel
# command line (hugepagesz=1G hugepages=N) since they are rarely free later.
set_hugepages() {
	case $1 in
	2m|try-2m) want=$PL_HP2M ;;
	*) want=0 ;;
	esac
	echo "$want" > /proc/sys/vm/nr_hugepages 2>/dev/null
	have=$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)
	hp_short=""
	[ "$have" -ge "$want" ] && return 0
	hp_short="the guest could reserve only $have of $want 2 MB pages: give it more memory (MEM_MB)"
	log "$hp_short"
	return 0	# bufbench decides: 2m fails clearly (exit 3), try-2m falls back
}

send_json() {
	bytes=$(wc -c < "$2")
	sum=$(sha256sum "$2" | cut -d' ' -f1)
	{
		echo "@@PL JSON $1 $bytes $sum"
		base64 "$2"
		echo "@@PL END $1"
	} >&3
}

say READY "$(uname -r)" "$(model_line)"
log "kernel $(uname -r), models: $(model_line), $(nproc) CPUs, $(sed -n 's/MemTotal: *//p' /proc/meminfo)"
log "1 GB pages reserved: $(cat /sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages 2>/dev/null || echo none)"
while read -r id model pages lock clients rep; do
	[ -n "$id" ] || continue
	say START "$id"
	log "cell $id"
	if ! why=$(set_model "$model"); then
		say FAIL "$id" "$why"; log "$why"; continue
	fi
	set_hugepages "$pages"
	rm -f /tmp/run.json
	# shellcheck disable=SC2086 # PL_ARGS holds several options
	PREEMPTLAB_KERNEL=$PL_LABEL PREEMPTLAB_VIRT=$PL_VIRT "$BENCH" \
		--clients "$clients" --duration "$PL_DURATION" --warmup "$PL_WARMUP" \
		--pages "$pages" --lock "$lock" --seed "$rep" $PL_ARGS \
		--json /tmp/run.json > /tmp/run.log 2>&1
	rc=$?
	cat /tmp/run.log
	if [ "$rc" = 0 ] && [ -s /tmp/run.json ]; then
		send_json "$id" /tmp/run.json
	else
		say FAIL "$id" "bufbench exit $rc: $(tail -n1 /tmp/run.log)${hp_short:+ ($hp_short)}"
	fi
done < /plan.cells
set_hugepages 4k
say DONE
exec 3>&-
