/*
 * A built kernel's config fragments (kernels/fragments/NAME.config): each
 * line an operation of the kernel's scripts/config (=y -e, =m -m, "is not
 * set" -d, other values --set-val), and after `make olddefconfig` the
 * check that each one stuck.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_recipe.h"

static bool prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static bool suffix(const char *s, const char *x)
{
	size_t ls = strlen(s), lx = strlen(x);
	return ls >= lx && strcmp(s + ls - lx, x) == 0;
}

/* One line, its trailing blanks gone: 1 and an operation, 0 for a blank
 * line or a comment, -1 for a line that is neither. */
static int parse_line(char *l, struct frag_op *op)
{
	size_t n = strlen(l);
	while (n > 0 && strchr(" \t\r\v\f", l[n - 1]))
		l[--n] = '\0';
	memset(op, 0, sizeof(*op));
	if (!*l)
		return 0;
	if (prefix(l, "# CONFIG_") && suffix(l, " is not set") &&
	    n >= strlen("# CONFIG_") + strlen(" is not set")) {
		op->op = 'd';
		snprintf(op->sym, sizeof(op->sym), "%.*s",
			 (int)(n - strlen("# CONFIG_") - strlen(" is not set")), l + strlen("# CONFIG_"));
		return 1;
	}
	if (*l == '#')
		return 0;
	const char *s = l + strlen("CONFIG_"), *eq = strchr(l, '=');
	if (!prefix(l, "CONFIG_") || !eq)
		return -1;
	if (suffix(l, "=y") || suffix(l, "=m")) {
		op->op = suffix(l, "=y") ? 'e' : 'm';
		snprintf(op->sym, sizeof(op->sym), "%.*s", (int)(n - 2 - strlen("CONFIG_")), s);
		return 1;
	}
	op->op = 'v';
	snprintf(op->sym, sizeof(op->sym), "%.*s", (int)(eq - s), s);
	snprintf(op->val, sizeof(op->val), "%s", eq + 1);
	return 1;
}

int fragment_ops(const struct kernel_recipe *r, struct frag_op *ops, int max, char *bad,
		 size_t badlen)
{
	/* The files are read as one text, as `cat` joins them. */
	char *text = NULL;
	size_t len = 0;
	FILE *all = open_memstream(&text, &len);
	for (int i = 0; all && i < r->nfrag; i++) {
		FILE *f = fopen(r->frag[i], "r");
		char buf[4096];
		size_t got;
		while (f && (got = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, got, all);
		if (f)
			fclose(f);
	}
	if (!all || fclose(all) != 0)
		return -1;
	int n = 0, rc = 0;
	for (char *l = text, *next; l && *l && rc == 0; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		struct frag_op op;
		int got = parse_line(l, &op);
		if (got < 0) {
			snprintf(bad, badlen, "%s", l);
			rc = -1;
		} else if (got > 0 && n < max)
			ops[n++] = op;
	}
	free(text);
	return rc ? rc : n;
}

int fragment_final(struct frag_op *ops, int n)
{
	/* scripts/config applies the operations in order, so a later
	 * fragment's setting of a symbol overrides an earlier one's
	 * (hz250.config's release over rseq-stats.config's). */
	int kept = 0;
	for (int i = 0; i < n; i++) {
		bool later = false;
		for (int j = i + 1; j < n && !later; j++)
			later = strcmp(ops[i].sym, ops[j].sym) == 0;
		if (!later)
			ops[kept++] = ops[i];
	}
	return kept;
}

bool config_has_line(const char *config, const char *line, bool whole)
{
	size_t l = strlen(line);
	for (const char *p = config; p && *p;) {
		if (!strncmp(p, line, l) && (!whole || p[l] == '\n' || !p[l]))
			return true;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return false;
}

int fragment_unstuck(const struct frag_op *ops, int n, const char *config, char *out,
		     size_t len)
{
	int bad = 0;
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		char line[512], what[400];
		const struct frag_op *o = &ops[i];
		bool ok;
		if (o->op == 'd') {
			snprintf(line, sizeof(line), "CONFIG_%s=", o->sym);
			ok = !config_has_line(config, line, false);
			snprintf(what, sizeof(what), "%s(unset)", o->sym);
		} else {
			const char *v = o->op == 'e' ? "y" : o->op == 'm' ? "m" : o->val;
			snprintf(line, sizeof(line), "CONFIG_%s=%s", o->sym, v);
			ok = config_has_line(config, line, true);
			snprintf(what, sizeof(what), "%s=%s", o->sym, v);
		}
		if (!ok && used < len) {
			used += (size_t)snprintf(out + used, len - used, " %s", what);
			bad++;
		}
	}
	return bad;
}
