# shellcheck shell=sh
# Whether a PostgreSQL root scripts/pg-fetch.sh made before may be used
# again (sourced, not run; needs common.sh, private-apt.sh, pg-root-lib.sh
# and deb-tree.sh).  The root was reused whenever its .complete existed,
# so a changed wrapper or binary in it ran (issue 35, N2).  Now each reuse
# checks, against the packages it was made from (each .deb verified
# against the signed lists again), that the root holds exactly what
# pg-fetch.sh would make of them: every file and link of the packages
# (build/plan --pg-root-expect: the programs moved to bin.elf/, the JIT
# provider left out), the wrappers, .pg and .closure as pg-fetch.sh
# writes them, and nothing else.
# Hashing a root of a few hundred files takes a second or two; nothing is
# downloaded.

# pgroot_dotpg MAJOR SUITE PKGVER LIBC: the root's .pg, which pg-run.sh
# reads.
pgroot_dotpg() {
	echo "PG_MAJOR='$1'"
	echo "PG_SUITE='$2'"
	echo "PG_PACKAGE='postgresql-$1 $3 ($2)'"
	echo "PG_LIBC='$4'"
}

# pgroot_packages ROOT: ROOT's .packages, when it is the package set
# ROOT's name was made from (its sha256 begins with the name's 12 hex
# digits); fails otherwise.
pgroot_packages() {
	[ -f "$1/.packages" ] && [ ! -L "$1/.packages" ] || return 1
	[ "$(sha256sum < "$1/.packages" | cut -c1-12)" = "${1##*-}" ] || return 1
	# "package version suite" of plain words only: they become file names.
	grep -vqE '^[a-z0-9][a-z0-9.+-]* [A-Za-z0-9.+~:-]+ [a-z0-9-]+$' "$1/.packages" && return 1
	cat "$1/.packages"
}

# pgroot_verify ROOT MAJOR SUITE: ROOT is what pg-fetch.sh makes of its
# packages; otherwise say why on stderr and fail.  A .deb that no longer
# matches the signed lists stops here (kapt_verify); a .deb that is gone
# fails the check, and the caller makes the root again from a download.
pgroot_verify() {
	if [ -L "$1" ] || [ ! -d "$1" ]; then
		note "$1 is not a directory of the cache (a symbolic link?): not used"
		return 1
	fi
	pgroot_unchanged "$1" && return 0
	pgroot_verify_full "$@" || return 1
	pgroot_stamp "$1"
}

# The full check costs about a minute of CPU (the packages' trees are
# listed again); a root that has not changed since it passed need not pay
# it twice.  "Not changed" is its fingerprint: every entry's type, inode,
# size, change time and link target.  Changing a file or a directory's
# entries sets the change time to now, which no user can set back, so a
# root altered after its check has another fingerprint.  The fingerprint
# is kept outside the cache, in a directory only this user can write
# (PREEMPTLAB_VERIFIED_DIR, default ~/.cache/preemptlab-verified): who
# can write the cache cannot forge it.

# pgroot_stamp_dir: that directory, made 0700; fails (saying why) when it
# is a link, another user's, or writable by group or others.
pgroot_stamp_dir() {
	ps_d=${PREEMPTLAB_VERIFIED_DIR:-${HOME:-/root}/.cache/preemptlab-verified}
	[ -L "$ps_d" ] || [ -d "$ps_d" ] || (umask 077 && mkdir -p "$ps_d") || return 1
	if [ -L "$ps_d" ] || [ ! -d "$ps_d" ] || [ "$(stat -c %u "$ps_d")" != "$(id -u)" ] ||
		[ -n "$(find "$ps_d" -maxdepth 0 -perm /022)" ]; then
		note "$ps_d is not a directory of yours that only you can write: roots are checked in full each time"
		return 1
	fi
	echo "$ps_d"
}

pgroot_fingerprint() {
	(cd "$1" && find . -printf '%p\t%y\t%i\t%s\t%C@\t%l\n' | LC_ALL=C sort | sha256sum | cut -c1-64)
}

pgroot_stamp_file() {
	ps_dir=$(pgroot_stamp_dir) || return 1
	echo "$ps_dir/$(realpath "$1" | sha256sum | cut -c1-32)"
}

# pgroot_unchanged ROOT: ROOT passed the full check and has not changed since.
pgroot_unchanged() {
	pu_f=$(pgroot_stamp_file "$1") || return 1
	[ -f "$pu_f" ] && [ ! -L "$pu_f" ] && [ "$(stat -c %u "$pu_f")" = "$(id -u)" ] || return 1
	[ "$(head -c 64 "$pu_f")" = "$(pgroot_fingerprint "$1")" ]
}

# pgroot_stamp ROOT: remember that ROOT, as it is now, passed the full check.
pgroot_stamp() {
	pt_f=$(pgroot_stamp_file "$1") || return 0
	rm -f "$pt_f"
	(umask 077 && pgroot_fingerprint "$1" > "$pt_f.$$" && mv -f "$pt_f.$$" "$pt_f")
}

# pgroot_verify_full ROOT MAJOR SUITE: the whole check, below.
pgroot_verify_full() {
	pv_set=$(pgroot_packages "$1") || {
		note "$1/.packages is not the package set its name was made from: not used"
		return 1
	}
	pv_w=$(mktemp -d)
	pv_bin=usr/lib/postgresql/$2/bin
	# The signed lists' SHA256 of every package, one apt-cache call a
	# suite (each call reads the lists whole: seconds, not per package).
	for s in $(echo "$pv_set" | awk '{ print $3 }' | sort -u); do
		# shellcheck disable=SC2046 # one PACKAGE=VERSION argument each
		kapt "$s" apt-cache show $(echo "$pv_set" | awk -v s="$s" '$3 == s { print $1 "=" $2 }') 2>/dev/null |
			awk '/^Package: / { p = $2 } /^Version: / { v = $2 } /^SHA256: / { print p, v, $2 }'
	done > "$pv_w/sums"
	echo "$pv_set" | while read -r p v s; do
		pv_deb=$(kapt_deb "$p" "$v")
		if [ ! -f "$pv_deb" ] || [ -L "$pv_deb" ]; then
			echo "$p $v" > "$pv_w/gone"
			break
		fi
		pv_want=$(awk -v p="$p" -v v="$v" '$1 == p && $2 == v { print $3; exit }' "$pv_w/sums")
		pv_have=$(sha256sum < "$pv_deb" | cut -c1-64)
		[ -n "$pv_want" ] && [ "$pv_have" = "$pv_want" ] ||
			die "$pv_deb does not match the signed $s lists (sha256 $pv_have, expected ${pv_want:-none}): remove it and rerun"
		debtree_expect "$pv_deb"
	done > "$pv_w/packages" || {
		# die said which .deb (it ends the loop's subshell only).
		rm -rf "$pv_w"
		return 1
	}
	if [ -f "$pv_w/gone" ]; then
		note "the .deb of $(cat "$pv_w/gone"), which $1 was made from, is gone: $1 cannot be checked"
		rm -rf "$pv_w"
		return 1
	fi
	# As pg-fetch.sh made the root: later packages over earlier ones (cp
	# -al), the programs in bin.elf/, no JIT provider, the merged-/usr links.
	"$KAPT_PLAN" --pg-root-expect "$2" < "$pv_w/packages" > "$pv_w/expect"
	pv_ver=$(echo "$pv_set" | awk -v p="postgresql-$2" '$1 == p { print $2 }')
	pv_libc=$(echo "$pv_set" | awk '$1 == "libc6" { print $2 }')
	{
		# The wrappers: the interpreter is the (checked) program's own.
		pv_interp=$(readelf -l "$1/$pv_bin.elf/postgres" 2>/dev/null |
			sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p')
		awk -F '\t' -v b="$pv_bin.elf/" '($1 == "f" || $1 == "l") && index($3, b) == 1 &&
			index(substr($3, length(b) + 1), "/") == 0 { print substr($3, length(b) + 1) }' "$pv_w/expect" |
		while IFS= read -r n; do
			printf 'f\t%s\t%s\n' "$(pgroot_wrapper "$2" "$pv_interp" "$pv_ver, $3" "$n" | md5sum | cut -c1-32)" "$pv_bin/$n"
		done
		printf 'f\t%s\t.pg\n' "$(pgroot_dotpg "$2" "$3" "$pv_ver" "$pv_libc" | md5sum | cut -c1-32)"
		printf 'f\t%s\t.packages\n' "$(md5sum < "$1/.packages" | cut -c1-32)"
		printf 'f\t%s\t.complete\n' "$(md5sum < /dev/null | cut -c1-32)"
		# .closure (which pg-guest-files.sh copies into a guest) names
		# libraries by their path in the root: each must lead, through
		# the root's own links, to a file of the packages.
		if [ -f "$1/.closure" ] && [ ! -L "$1/.closure" ]; then
			pv_real=$(realpath "$1")
			while IFS= read -r c; do
				r=$(realpath -e "$1$c" 2>/dev/null) || r=""
				case $r in "$pv_real"/*) echo "${r#"$pv_real"/}" ;; *) echo "/nonexistent" ;; esac
			done < "$1/.closure" > "$pv_w/closure"
			if awk -F '\t' 'NR == FNR { if ($1 == "f") have[$3] = 1; next } !($0 in have) { bad = 1 } END { exit bad }' \
				"$pv_w/expect" "$pv_w/closure"; then
				printf 'f\t%s\t.closure\n' "$(md5sum < "$1/.closure" | cut -c1-32)"
			fi
		fi
	} > "$pv_w/generated"
	cat "$pv_w/generated" >> "$pv_w/expect"
	debtree_actual "$1" > "$pv_w/actual"
	pv_diff=$(debtree_diff "$pv_w/expect" "$pv_w/actual")
	rm -rf "$pv_w"
	if [ -n "$pv_diff" ]; then
		note "$1 is not what its packages make (first differences: $(echo "$pv_diff" | tr '\n' ';' | sed 's/;$//; s/;/; /g')): not used"
		return 1
	fi
}
