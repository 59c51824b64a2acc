# shellcheck shell=sh disable=SC2154 # root and lab are the caller's
# A Debian root under a chroot, for tests/native/: the host's /proc, /sys
# and /dev bound in while a step runs, and commands run in the lab's clone
# there with a login's environment.  The caller sets root (the root file
# system) and lab (the clone's path inside it), and calls unmount_all on
# exit (on_exit).

mounted=""
unmount_all() {
	for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
	mounted=""
}
# bind DIR: the host's DIR at the same path in the root, once.
bind() {
	mkdir -p "$root$1"
	mountpoint -q "$root$1" || { mount --bind "$1" "$root$1"; mounted="$root$1 $mounted"; }
}

# in_root CMD: CMD in the clone, as root, with nothing of this machine's
# environment (no PREEMPTLAB_*, no PATH additions); within $limit seconds
# when the caller set limit (timeout's status 124 then).
limit=""
in_root() {
	${limit:+timeout -k 30 "$limit"} chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/sh -c "cd $lab && $1"
}
