/*
 * The variable table (lab/common/variables.def, lab/plan/variables.c): every
 * row's field fits its kind (a wrong F() would write past a field), its
 * static defaults pass its own checks, its names are bench_vars[] in the
 * same order (the report's reproduce lines trust that list), and the
 * table-driven stages take, default, clamp and refuse values as the planner
 * did when each variable had its own lines in plan_settings.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/bench_vars.h"
#include "plan/plan.h"
#include "plan/variables.h"
#include "vocab.h"

static jmp_buf died;
static char topo_file[] = "/tmp/test_plan_variables.XXXXXX";
static void back(void) { longjmp(died, 1); }

/* Every item of the default S (blank-separated) a value of row r. */
static bool default_ok(const struct variable *r, const char *s)
{
	char buf[128], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (r->vocab && !vocab_find(r->vocab, w, NULL))
			return false;
		if (r->kind == V_COUNT || (r->kind == V_LIST && !r->vocab)) {
			char *end;
			long n = strtol(w, &end, 10);
			if (*end || n < r->min || n > r->max)
				return false;
		}
		if (r->kind == V_ON_OFF && strcmp(w, "on") && strcmp(w, "off"))
			return false;
	}
	return true;
}

static void check_rows(void)
{
	int n = 0, fields = 0, bad_field = 0, bad_def = 0, bad_doc = 0, bad_code = 0;
	for (const struct variable *r = variables; r->name; r++, n++) {
		size_t want = r->kind == V_COUNT && !(r->flags & V_KEEP_TEXT) ? sizeof(long)
			    : r->kind == V_ON_OFF ? sizeof(bool)
			    : r->kind == V_LIST ? sizeof(struct list) : 0;
		if (r->len) {
			fields++;
			if ((want && r->len != want) || (!want && r->len < 2) ||
			    r->off + r->len > sizeof(struct plan) ||
			    (r->bytes && r->bytes + sizeof(uint64_t) > sizeof(struct plan)))
				bad_field++, printf("  %s: field of %zu bytes for its kind\n", r->name, r->len);
		}
		for (int h = 0; h < 2; h++) {
			const char *d = h ? r->guest_def : r->host_def;
			if (d && *d && !r->def && !default_ok(r, d))
				bad_def++, printf("  %s: default '%s' fails its own check\n", r->name, d);
		}
		if (!r->help || !r->doc || strncmp(r->doc, "docs/", 5))
			bad_doc++, printf("  %s: no help or docs page\n", r->name);
		/* A row is taken by the table (a field), by its hook, or by code it names. */
		if (r->stage == V_CODE ? r->len || r->parse || !r->where : !r->len && !r->parse)
			bad_code++, printf("  %s: stage and field or hook disagree\n", r->name);
	}
	CHECK(n >= 50, "the table has %d rows", n);
	CHECK(bad_field == 0, "each of %d fields fits its kind (count: long, on/off: bool, list: "
	      "struct list)", fields);
	CHECK(bad_def == 0, "every static default passes its row's range or vocabulary");
	CHECK(bad_doc == 0, "every row has its help and a docs/ page");
	CHECK(bad_code == 0, "every row is taken by the table, a hook or the code it names");
	int same = 0;
	while (bench_vars[same] && variables[same].name && !strcmp(bench_vars[same], variables[same].name))
		same++;
	CHECK(same == n && !bench_vars[n], "bench_vars[] is the table's %d names in its order", n);
}

/* STAGE on a fresh host or guest plan with ARGS (NULL-ended); false if refused. */
static bool take(struct plan *p, bool guest, enum var_stage stage, const char **args)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->kernel.source, sizeof(p->kernel.source), "%s", guest ? "apt" : "host");
	p->host_cpus = 4;
	p->vcpus = 4;
	vars_clear();
	int argc = 0;
	while (args[argc])
		argc++;
	vars_from_args(argc, (char **)args, 0);
	if (setjmp(died))
		return false;
	if (guest) {
		/* A host of 4 CPUs, whatever this one has: VCPUS pins to them. */
		static char topo_arg[64];
		snprintf(topo_arg, sizeof(topo_arg), "HOST_TOPOLOGY=%s", topo_file);
		char *topo[] = { topo_arg };
		vars_from_args(1, topo, 0);
		kvm_host(p);
	}
	vars_stage(p, stage, ".");
	return true;
}

int main(void)
{
	static struct plan p;
	plan_die_hook = back;
	int fd = mkstemp(topo_file);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f)
		return perror("mkstemp"), 1;
	fputs("# CPU,Socket,Core\n0,0,0\n1,0,1\n2,0,2\n3,0,3\n", f);
	fclose(f);
	check_rows();

	const char *none[] = { NULL };
	CHECK(take(&p, false, V_PROFILE, none) && !p.profile && p.profile_freq == 99 &&
	      !strcmp(p.profile_callgraph, "dwarf"), "host: PROFILE off, 99 Hz, dwarf by default");
	CHECK(take(&p, true, V_PROFILE, none) && !strcmp(p.profile_callgraph, "fp"),
	      "a guest: fp, its own default");
	const char *freq0[] = { "PROFILE_FREQ=0", NULL };
	CHECK(!take(&p, false, V_PROFILE, freq0), "PROFILE_FREQ=0 is refused (1..10000)");
	const char *dwarf[] = { "PROFILE_CALLGRAPH=dwarf", NULL };
	CHECK(!take(&p, true, V_PROFILE, dwarf), "PROFILE_CALLGRAPH=dwarf in a guest: refused by its check");
	const char *yes[] = { "PROFILE=yes", NULL }, *maybe[] = { "PROFILE=maybe", NULL };
	CHECK(take(&p, false, V_PROFILE, yes) && p.profile, "PROFILE=yes is on");
	CHECK(!take(&p, false, V_PROFILE, maybe), "PROFILE=maybe is refused");

	CHECK(take(&p, true, V_GUEST, none) && p.vcpus == 4 && !p.mem_given && p.icount_shift == 3 &&
	      p.boots == 1 && !strcmp(p.model_switch, "boot"),
	      "a guest: the host's 4 CPUs, RAM sized later, shift 3, one boot, model by boot");
	const char *many[] = { "VCPUS=8", "MEM_MB=2048", "BOOTS=2", "MODEL_SWITCH=runtime", NULL };
	CHECK(take(&p, true, V_GUEST, many) && p.vcpus == 4 && p.mem_given && p.mem_mb == 2048 &&
	      p.boots == 2 && !strcmp(p.model_switch, "runtime"),
	      "VCPUS=8 clamped to the host's 4; MEM_MB, BOOTS and MODEL_SWITCH taken");
	const char *boots[] = { "BOOTS=17", NULL }, *sw[] = { "MODEL_SWITCH=hot", NULL };
	CHECK(!take(&p, true, V_GUEST, boots), "BOOTS=17 is refused (1..16)");
	CHECK(!take(&p, true, V_GUEST, sw), "MODEL_SWITCH=hot is refused (its vocabulary)");
	const char *pin[] = { "PIN_VCPUS=always", NULL }, *ghp[] = { "GUEST_HUGEPAGES=4m", NULL };
	CHECK(!take(&p, true, V_GUEST, pin), "PIN_VCPUS=always is refused");
	CHECK(!take(&p, true, V_GUEST, ghp), "GUEST_HUGEPAGES=4m is refused");
	const char *two[] = { "VCPUS=2", "PIN_VCPUS=on", "GUEST_HUGEPAGES=2m", NULL };
	CHECK(take(&p, true, V_GUEST, two) && !strcmp(p.pin, "on") && p.vcpu_pin[0] != p.vcpu_pin[1] &&
	      !strcmp(p.guest_hugepages, "2m"), "VCPUS=2 PIN_VCPUS=on: two host CPUs; GUEST_HUGEPAGES=2m");
	const char *con[] = { "CONTROLS=on", NULL }, *conx[] = { "CONTROLS=maybe", NULL };
	CHECK(take(&p, false, V_CONTROLS, none) && !p.controls, "CONTROLS: off where no run is instrumented");
	CHECK(take(&p, false, V_CONTROLS, con) && !p.controls, "CONTROLS=on with nothing to control: off");
	CHECK(!take(&p, false, V_CONTROLS, conx), "CONTROLS=maybe is refused");
	unlink(topo_file);
	return CHECK_DONE();
}
