# shellcheck shell=sh
# Huge page reservations that are always given back (sourced, not run).
#
# hp_reserve SIZE_KB COUNT raises the pool of SIZE_KB pages to at least
# COUNT free pages and remembers how many pages it added; hp_restore_all
# takes exactly those away again.  It restores by the difference, not to
# the old absolute nr_hugepages: a job beside this one that reserved pages
# meanwhile keeps them.  Callers install
#   on_exit 'hp_restore_all'   (scripts/common.sh)
# so Ctrl-C or a failure leaves no reservation behind.

HP_ADDED=""	# "SIZE_KB:PAGES ..." added by this process

# hp_added SIZE_KB: pages of that size this process has added so far.
hp_added() {
	for hp_e in $HP_ADDED; do
		[ "${hp_e%%:*}" = "$1" ] && { echo "${hp_e#*:}"; return 0; }
	done
	echo 0
}

hp_note_added() { # SIZE_KB PAGES
	hp_total=$(( $(hp_added "$1") + $2 ))
	hp_rest=""
	for hp_e in $HP_ADDED; do
		[ "${hp_e%%:*}" = "$1" ] || hp_rest="$hp_rest $hp_e"
	done
	HP_ADDED="$hp_rest $1:$hp_total"
	# In the run's state file (run-state.sh): a run killed outright
	# cannot give them back itself; the next one does.
	[ -z "${RUN_STATE_FILE:-}" ] || echo "hugepages $1 $hp_total" >> "$RUN_STATE_FILE"
}

hp_pool() { echo "/sys/kernel/mm/hugepages/hugepages-${1}kB"; }

hp_have_pool() { [ -w "$(hp_pool "$1")/nr_hugepages" ]; }

# hp_pages_for BYTES SIZE_KB: pages of SIZE_KB needed to hold BYTES.
hp_pages_for() { echo $(( ($1 + $2 * 1024 - 1) / ($2 * 1024) )); }

hp_sysctl_hint() {
	if [ "$1" = 2048 ]; then
		echo "sysctl vm.nr_hugepages=$2"
	else
		echo "echo $2 > $(hp_pool "$1")/nr_hugepages (or boot with hugepagesz=1G hugepages=$2)"
	fi
}

# Sourced into scripts with their own variables: everything here is hp_*.

# hp_reserve SIZE_KB COUNT: returns 0 when COUNT pages are free afterwards.
hp_reserve() {
	hp_dir=$(hp_pool "$1")
	hp_have_pool "$1" || { note "no writable $hp_dir (need root and a kernel with that page size)"; return 1; }
	hp_cur=$(cat "$hp_dir/nr_hugepages")
	hp_free=$(cat "$hp_dir/free_hugepages")
	if [ "$hp_free" -lt "$2" ]; then
		hp_want=$((hp_cur + $2 - hp_free))
		# Compaction may be needed for contiguous pages; try twice.
		echo "$hp_want" > "$hp_dir/nr_hugepages" 2>/dev/null || true
		if [ "$(cat "$hp_dir/free_hugepages")" -lt "$2" ]; then
			echo 1 > /proc/sys/vm/compact_memory 2>/dev/null || true
			echo "$hp_want" > "$hp_dir/nr_hugepages" 2>/dev/null || true
		fi
		hp_now=$(cat "$hp_dir/nr_hugepages")
		[ "$hp_now" -gt "$hp_cur" ] && hp_note_added "$1" $((hp_now - hp_cur))
	fi
	[ "$(cat "$hp_dir/free_hugepages")" -ge "$2" ]
}

hp_restore_all() {
	for hp_e in $HP_ADDED; do
		hp_dir=$(hp_pool "${hp_e%%:*}")
		hp_now=$(cat "$hp_dir/nr_hugepages" 2>/dev/null) || continue
		hp_left=$((hp_now - ${hp_e#*:}))
		[ "$hp_left" -lt 0 ] && hp_left=0
		echo "$hp_left" > "$hp_dir/nr_hugepages" 2>/dev/null || true
		[ -z "${RUN_STATE_FILE:-}" ] || echo "hugepages ${hp_e%%:*} 0" >> "$RUN_STATE_FILE"
	done
	HP_ADDED=""
}
