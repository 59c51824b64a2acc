# shellcheck shell=sh
# Huge page reservations that are always given back (sourced, not run).
#
# hp_reserve SIZE_KB COUNT raises the pool of SIZE_KB pages to at least
# COUNT free pages and remembers how many pages it added; hp_restore_all
# takes exactly those away again.  It restores by the difference, not to
# the old absolute nr_hugepages: a job beside this one that reserved pages
# meanwhile keeps them.  Callers install
#   trap 'hp_restore_all' EXIT INT TERM
# so Ctrl-C or a failure leaves no reservation behind.

HP_ADDED=""	# "SIZE_KB:PAGES ..." added by this process

# hp_added SIZE_KB: pages of that size this process has added so far.
hp_added() {
	for e in $HP_ADDED; do
		[ "${e%%:*}" = "$1" ] && { echo "${e#*:}"; return 0; }
	done
	echo 0
}

hp_note_added() { # SIZE_KB PAGES
	total=$(( $(hp_added "$1") + $2 ))
	rest=""
	for e in $HP_ADDED; do
		[ "${e%%:*}" = "$1" ] || rest="$rest $e"
	done
	HP_ADDED="$rest $1:$total"
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

# hp_reserve SIZE_KB COUNT: returns 0 when COUNT pages are free afterwards.
hp_reserve() {
	pool=$(hp_pool "$1")
	hp_have_pool "$1" || { note "no writable $pool (need root and a kernel with that page size)"; return 1; }
	cur=$(cat "$pool/nr_hugepages")
	free=$(cat "$pool/free_hugepages")
	if [ "$free" -lt "$2" ]; then
		want=$((cur + $2 - free))
		# Compaction may be needed for contiguous pages; try twice.
		echo "$want" > "$pool/nr_hugepages" 2>/dev/null || true
		if [ "$(cat "$pool/free_hugepages")" -lt "$2" ]; then
			echo 1 > /proc/sys/vm/compact_memory 2>/dev/null || true
			echo "$want" > "$pool/nr_hugepages" 2>/dev/null || true
		fi
		now=$(cat "$pool/nr_hugepages")
		[ "$now" -gt "$cur" ] && hp_note_added "$1" $((now - cur))
	fi
	[ "$(cat "$pool/free_hugepages")" -ge "$2" ]
}

hp_restore_all() {
	for e in $HP_ADDED; do
		pool=$(hp_pool "${e%%:*}")
		now=$(cat "$pool/nr_hugepages" 2>/dev/null) || continue
		left=$((now - ${e#*:}))
		[ "$left" -lt 0 ] && left=0
		echo "$left" > "$pool/nr_hugepages" 2>/dev/null || true
	done
	HP_ADDED=""
}
