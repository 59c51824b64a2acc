#!/bin/sh
# reproduce.sh from hostile documents and manifests (issue 15, defect 1):
# values carrying $(...), backquotes, quotes and ; reach the make line and
# the revision check of reproduce.sh, which readers run as root.  Each
# variant is run in a sandbox checkout with make, git and ./configure
# stubbed: it must parse (sh -n), run none of the payload's commands, and
# leave the hostile values out of the make line (issue 28, S1: make expands
# $(shell ...) even inside the shell's quotes, so quoting was not enough).
# The S1 reproductions run reproduce.sh with the real make, whose Makefile
# exports the variables as the lab's does.  A make line over 4095
# characters reaches make whole (it was cut without a word), and the
# wrapped command of report.txt pastes into sh as the same words.
# shellcheck disable=SC2016 # jq programs and the payload are literal on purpose
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run attach_hostile run-fixture report stackfold flamegraph

# The payload: every way out of a word or a quote.
p='x$(touch PWNED_a)`touch PWNED_b`'"'"'$(touch PWNED_c)'"'"';touch PWNED_d;"$(touch PWNED_e)"'
# q: p as the planner quotes a value; long: 5000 characters of options.
q=$(printf '%s' "$p" | sed "s/'/'\\\\''/g")
long=$(awk 'BEGIN { for (i = 0; i < 500; i++) printf "--opt%04d ", i }')

mkdir -p "$tmp/bin"
# make and git stubs; make writes one argument a line.
cat > "$tmp/bin/make" <<'EOF'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done > "$MAKE_ARGS"
EOF
cat > "$tmp/bin/git" <<'EOF'
#!/bin/sh
case $1 in rev-parse) exit 0 ;; describe) echo abc1234 ;; esac
EOF
chmod +x "$tmp/bin/make" "$tmp/bin/git"

# variant NAME JQ_DOCS JQ_MANIFEST: a copy of the fixture with the documents
# and the manifest (empty: none) rewritten by jq ($p, $q and $long as above).
variant() {
	v=$tmp/$1
	cp -r "$top/tests/data/run-fixture" "$v"
	for d in "$v"/runs/*.json; do
		jq --arg p "$p" "$2" "$d" > "$d.new" && mv "$d.new" "$d"
	done
	if [ -n "$3" ]; then
		jq --arg p "$p" --arg q "$q" --arg long "$long" "$3" "$v/manifest.json" > "$v/m.new" && mv "$v/m.new" "$v/manifest.json"
	else
		rm "$v/manifest.json"
	fi
}

# attached NAME: attach NAME (no PWNED file left from before) and unpack
# the attachment into $tmp/NAME.x beside a sandbox checkout $tmp/NAME.sb
# whose configure does nothing; the caller writes its Makefile.
attached() {
	v=$tmp/$1 sb=$tmp/$1.sb
	find "$tmp" -name 'PWNED*' -exec rm -f {} +
	if ! sh "$top/scripts/attach.sh" "$v" > "$tmp/$1.out" 2>&1; then
		fail "$1: attach.sh failed: $(tail -n 3 "$tmp/$1.out" | tr '\n' ' ')"
		return 1
	fi
	mkdir -p "$tmp/$1.x" "$sb/lab/report"
	tar -C "$tmp/$1.x" -xzf "$v/attachment.tar.gz"
	printf '#!/bin/sh\nexit 0\n' > "$sb/configure"
	chmod +x "$sb/configure"
}

# sandboxed NAME: attach NAME, run its reproduce.sh in a sandbox checkout;
# make's arguments land in $tmp/NAME.args.
sandboxed() {
	attached "$1" || return 1
	cp "$tmp/$1.x"/*/reproduce.sh "$tmp/$1.sh"
	: > "$sb/Makefile"
	check "$1: reproduce.sh is valid sh" sh -n "$tmp/$1.sh"
	(cd "$sb" && PATH="$tmp/bin:$PATH" MAKE_ARGS="$tmp/$1.args" sh "$tmp/$1.sh" "$sb") \
		> "$tmp/$1.run" 2>&1 || true
	check "$1: reproduce.sh ran make" test -s "$tmp/$1.args"
	check "$1: no command of the payload ran (no PWNED file)" \
		test -z "$(find "$tmp" "$top" -name 'PWNED*' 2>/dev/null)"
}

# 1. The documents' revision and models hostile; the manifest's command is
#    not the planner's (an unquoted $(...)): refused, made from the documents.
variant docs '.provenance.lab_revision = $p | .provenance.preempt_model = ("none" + $p)' \
	'.command = ("make bench KERNEL=6.12 " + $p)'
if sandboxed docs; then
	check "docs: the hostile model is left out of make's line" sh -c "! grep -q '^MODELS=' '$tmp/docs.args'"
	check "docs: and the report says why" grep -q "MODELS's value has characters outside" "$tmp/docs.out"
	check "docs: the refused command is named" grep -q "command is not a make bench line" "$tmp/docs.out"
	check "docs: a revision that is no revision reads unknown" grep -qx "rev='unknown'" "$tmp/docs.sh"
fi

# 2. The planner's own quoting around a hostile value, and hostile settings.
variant quoted '.' '.command = ("make bench KERNEL='"'"'" + $q + "'"'"' HUGEPAGES=compare") | .plan.settings.pages = ("4k " + $p)'
if sandboxed quoted; then
	check "quoted: the hostile KERNEL is left out" sh -c "! grep -q '^KERNEL=' '$tmp/quoted.args'"
	check "quoted: the plain HUGEPAGES is kept" grep -qx 'HUGEPAGES=compare' "$tmp/quoted.args"
	check "quoted: the matrix's hostile pages are left out" sh -c "! grep -q '^PAGES=' '$tmp/quoted.args'"
	check "quoted: the matrix's plain models are kept" grep -qx 'MODELS=none,full,lazy' "$tmp/quoted.args"
fi

# 3. An older manifest (no schema: guest_bench.asked with hostile keys and
#    values): read as none, the command made from the documents.
variant asked '.' '{guest_bench: {asked: {KERNEL: $p, BUFBENCH_ARGS: "--hold-events --seed 2",
	("X;touch PWNED_k;Y"): "1", MODELS: ["lazy", $p]}}}'
if sandboxed asked; then
	check "asked: the older manifest is named and read as none" grep -q 'is not preemptlab.manifest/1' "$tmp/asked.out"
	check "asked: nothing of it reaches make" sh -c "! grep -q -e '^BUFBENCH_ARGS' -e '^X' '$tmp/asked.args'"
	check "asked: the documents' kernels are kept" grep -qx 'KERNEL=6.12,7.0' "$tmp/asked.args"
fi

# 4. No manifest: the command is made from the documents alone.
variant nomanifest '.provenance.kernel_label = ("7.0" + $p)' ''
if sandboxed nomanifest; then
	check "nomanifest: the hostile kernel label is left out" sh -c "! grep -q '^KERNEL=' '$tmp/nomanifest.args'"
	check "nomanifest: the plain clients are kept" grep -q '^CLIENTS=2,4' "$tmp/nomanifest.args"
fi

# 5. A make line of over 4095 characters: BUFBENCH_ARGS of 5000.
variant long '.' '.command = ("make bench KERNEL=7.0 BUFBENCH_ARGS='"'"'" + $long + "'"'"'")'
if sandboxed long; then
	check "long: make got all 5000 characters of BUFBENCH_ARGS" grep -qxF "BUFBENCH_ARGS=$long" "$tmp/long.args"
	check "long: and the words after it" grep -qx 'PGBENCH=on' "$tmp/long.args"
	# report.txt's command, wrapped to 80 columns, pastes as the same words.
	txt=$tmp/long/report.txt
	check "long: report.txt within 80 columns" test "$(awk 'length > 80' "$txt" | wc -l)" -eq 0
	awk '/^  make bench/ { f = 1 } f { print; if (!/\\$/) exit }' "$txt" > "$tmp/long.txtcmd"
	(PATH="$tmp/bin:$PATH" MAKE_ARGS="$tmp/long.txtargs" sh "$tmp/long.txtcmd") || true
	check "long: report.txt's wrapped command gives make the same words" cmp "$tmp/long.args" "$tmp/long.txtargs"
	awk '/^One run of/ { f = 1; next } f { print; if (!/\\$/) exit }' "$txt" > "$tmp/long.oneline"
	check "long: the run's own command line in report.txt parses as sh" sh -n "$tmp/long.oneline"
fi

# 6. S1 as reported, under the real make: a Makefile that exports the bench
#    variables as the lab's does (make expands an exported value when a
#    recipe runs) and dumps the environment make bench sees.
real_make() {
	attached "$1" || return 1
	vars=$(sed -n '/^const char \*const bench_vars/,/NULL/p' "$top/lab/common/bench_vars.c" |
		grep -o '"[A-Z_0-9]*"' | tr -d '"' | tr '\n' ' ')
	{
		echo "V = $vars"
		echo '$(foreach v,$(V),$(if $(filter undefined,$(origin $(v))),,$(eval export $(v))))'
		printf 'all:\nbench:\n\t@env > "$$MAKE_ENV"\n'
	} > "$sb/Makefile"
	# None of the bench variables from this test's own environment: under
	# `make test` the Makefile exports KERNEL=host (its default) to every
	# test, which would reach the inner make as if the line had set it.
	unset_vars=""
	for n in $vars; do unset_vars="$unset_vars -u $n"; done
	# shellcheck disable=SC2086 # the -u options are words
	(cd "$sb" && env $unset_vars MAKE_ENV="$tmp/$1.env" sh "$tmp/$1.x"/*/reproduce.sh "$sb") > "$tmp/$1.run" 2>&1 || true
	check "$1: the real make ran make bench" test -s "$tmp/$1.env"
	check "$1: make expanded no \$(shell ...) of the documents (no PWNED file)" \
		test -z "$(find "$tmp" "$top" -name 'PWNED*' 2>/dev/null)"
}
variant s1docs '.provenance.kernel_label = "$(shell touch PWNED_s1)"' '.command = "not the planner"'
if real_make s1docs; then
	check "s1docs: KERNEL is left out of the line" sh -c "! grep -q '^KERNEL=' '$tmp/s1docs.env'"
	check "s1docs: the plain clients reached make" grep -q '^CLIENTS=2,4' "$tmp/s1docs.env"
fi
variant s1cmd '.' '.command = "make bench KERNEL=host MODELS='"'"'$(shell touch PWNED_m)'"'"'"'
if real_make s1cmd; then
	check "s1cmd: the plain KERNEL of the command is kept" grep -qx 'KERNEL=host' "$tmp/s1cmd.env"
	check "s1cmd: MODELS is the matrix's, not the command's" grep -qx 'MODELS=none,full,lazy' "$tmp/s1cmd.env"
fi
variant s1key '.' '.command = "make bench KERNEL=host EVIL=1"'
if real_make s1key; then
	check "s1key: a name outside the vocabulary is left out" sh -c "! grep -q '^EVIL=' '$tmp/s1key.env'"
	check "s1key: and named" grep -q "'EVIL' is no make bench variable" "$tmp/s1key.out"
fi
tests_done
