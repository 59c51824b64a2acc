/*
 * build/model --validate PREDICTIONS RUN: the predictions written before RUN
 * was measured (scripts/model-validate.sh) against what RUN measured.  The
 * issue's acceptance: the predicted ratio within max(the measured ratio's
 * mde at 80% power, 2 points) of the measured; the sign right wherever the
 * measured difference is resolved (its 95% interval excludes 1); p_f within
 * 20% of the measured.  T is printed beside its rule's value, not judged.
 * A bare run (no EVIDENCE) is judged on its ratios alone: p_f and T are
 * printed as not measured, and not counted as misses.
 */
#include "validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "statistics.h"
#include "rng.h"

/* cpus 0: a predictions file from before the column (any CPU count). */
static const struct extract_group *find(const struct extract_set *s, const char *page, int clients, int cpus)
{
	for (int i = 0; i < s->ngroups; i++)
		if (strcmp(s->g[i].page, page) == 0 && s->g[i].clients == clients &&
		    (cpus == 0 || s->g[i].cpus == cpus))
			return &s->g[i];
	return NULL;
}

static double group_t_us(const struct extract_group *g)
{
	return g->nt ? st_mean(g->t_us, (size_t)g->nt) : 0;
}

/* The cell's CPUs: the prediction's, else the measurement's, else "?". */
static const char *cpu_text(int cpus, const struct extract_group *g)
{
	static char buf[16];
	if (cpus > 0 || g)
		snprintf(buf, sizeof(buf), "%d", cpus > 0 ? cpus : g->cpus);
	else
		snprintf(buf, sizeof(buf), "?");
	return buf;
}

int mv_validate(const char *tsv, const char *run, FILE *out, char *err, size_t errlen)
{
	FILE *f = fopen(tsv, "r");
	if (!f) {
		snprintf(err, errlen, "%s: no predictions (scripts/model-validate.sh predict)", tsv);
		return MX_ERR;
	}
	static struct extract_set s;
	int rc = extract_scan_timed(run, &s, err, errlen);
	if (rc == MX_ERR) {
		/* Not measured yet (or nothing usable): every cell is printed as missing. */
		fprintf(out, "(%s)\n", err);
		memset(&s, 0, sizeof(s));
	} else if (rc != MX_OK) {
		fclose(f);
		return rc;
	}
	char line[1024];
	int lines = 0, cells = 0, hits = 0, resolved = 0, sign_right = 0, pf_cells = 0, pf_hits = 0;
	int eq_cells = 0, eq = 0;
	static double kp[MV_MAX_CELLS], km[MV_MAX_CELLS], kt[MV_MAX_CELLS];
	int nk = 0;
	fprintf(out, "%-5s %4s %7s %-9s %9s %-15s %9s %-15s %6s %-4s %-5s %9s %9s %-4s %8s %8s %s\n",
		"pages", "cpus", "clients", "model", "predicted", "interval", "measured", "interval", "tol",
		"hit", "sign", "p_f pred", "p_f meas", "hit", "T pred", "T meas", "equiv");
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || strncmp(line, "pages\t", 6) == 0)
			continue;
		char page[16], model[16];
		int clients, cpus = 0;
		double pred, plo, phi, pf, t;
		int got = sscanf(line, "%15s %d %15s %lf %lf %lf %lf %lf %d", page, &clients, model, &pred,
				 &plo, &phi, &pf, &t, &cpus);
		if (got < 8)
			continue;
		enum pmodel pm;
		const struct extract_group *g = find(&s, page, clients, cpus);
		lines++;
		if (pmodel_parse(model, &pm) != 0 || !g || g->ntps[pm] < 2 || g->ntps[PM_NONE] < 2) {
			fprintf(out, "%-5s %4s %7d %-9s %9.3f  ratio not measured (fewer than 2 runs each)", page,
				cpu_text(cpus, g), clients, model, pred);
			if (g && g->holds > 0) {
				/* p_f is every model's: judged even without the ratio. */
				double pfm = g->holds_fault / g->holds;
				int pfh = fabs(pf - pfm) <= 0.2 * pfm + 1e-12;
				pf_cells++;
				pf_hits += pfh;
				fprintf(out, "; p_f %.4g predicted, %.4g measured: %s", pf, pfm,
					pfh ? "hit" : "miss");
			}
			fputc('\n', out);
			continue;
		}
		struct ratio r = st_ratio(g->tps[PM_NONE], (size_t)g->ntps[PM_NONE], g->tps[pm],
					  (size_t)g->ntps[pm]);
		double tol = r.ok && r.mde > 0.02 ? r.mde : 0.02;
		int hit = fabs(pred - r.est) <= tol;
		int res = r.ok && (r.lo > 1 || r.hi < 1);
		int sr = res && ((pred - 1) * (r.est - 1) > 0);
		/* none against itself is an identity, not a prediction: not scored. */
		if (pm != PM_NONE && nk < MV_MAX_CELLS) {
			kp[nk] = pred;
			km[nk] = r.est;
			kt[nk] = tol;
			nk++;
		}
		cells++;
		hits += hit;
		resolved += res;
		sign_right += sr;
		char piv[32], miv[32], pfm_s[16] = "-", pfh_s[8] = "-", tm_s[16] = "-";
		if (g->holds > 0) {
			double pfm = g->holds_fault / g->holds;
			int pfh = fabs(pf - pfm) <= 0.2 * pfm + 1e-12;
			pf_cells++;
			pf_hits += pfh;
			snprintf(pfm_s, sizeof(pfm_s), "%.4g", pfm);
			snprintf(pfh_s, sizeof(pfh_s), "%s", pfh ? "hit" : "miss");
			snprintf(tm_s, sizeof(tm_s), "%.0f", group_t_us(g));
		}
		/*
		 * Equivalence at a fixed margin: the measured ratio's whole 95%
		 * interval inside the prediction +- MV_EQ_MARGIN (two one-sided
		 * tests at 2.5% each), so a wide interval cannot pass.
		 */
		int equiv = r.ok && r.lo >= pred - MV_EQ_MARGIN && r.hi <= pred + MV_EQ_MARGIN;
		if (pm != PM_NONE && r.ok) {
			eq_cells++;
			eq += equiv;
		}
		snprintf(piv, sizeof(piv), "[%.3f, %.3f]", plo, phi);
		snprintf(miv, sizeof(miv), "[%.3f, %.3f]", r.lo, r.hi);
		fprintf(out, "%-5s %4s %7d %-9s %9.3f %-15s %9.3f %-15s %6.3f %-4s %-5s %9.4g %9s %-4s %8.0f %8s %s\n",
			page, cpu_text(cpus, g), clients, model, pred, piv, r.est, miv, tol, hit ? "hit" : "miss",
			res ? (sr ? "right" : "wrong") : "-", pf, pfm_s, pfh_s, t, tm_s,
			!r.ok ? "-" : equiv ? "yes" : "no");
	}
	fclose(f);
	fprintf(out, "ratio within max(mde, 0.02): %d of %d cells; sign right in %d of %d resolved; "
		     "p_f within 20%%: %d of %d\n", hits, cells, sign_right, resolved, pf_hits, pf_cells);
	fprintf(out, "equivalent to the prediction within +-%.2f (the measured 95%% interval inside): "
		     "%d/%d cells\n", MV_EQ_MARGIN, eq, eq_cells);
	struct mv_skill k;
	mv_skill(kp, km, kt, nk, 37, &k);
	mv_skill_print(out, "these cells", &k);
	if (s.bare)
		fprintf(out, "(%d runs without EVIDENCE: ratios from their own fill tps; p_f and T not "
			     "measured, so not judged)\n", s.bare);
	if (s.twinned)
		fprintf(out, "(%d runs timed by their bare twins, CONTROLS)\n", s.twinned);
	if (!lines)
		snprintf(err, errlen, "%s: no prediction lines", tsv);
	return lines ? MX_OK : MX_ERR;
}

static double skill_of(const double *pred, const double *meas, const int *idx, int n, double *sm,
		       double *sn)
{
	double a = 0, b = 0;
	for (int i = 0; i < n; i++) {
		int j = idx ? idx[i] : i;
		a += (meas[j] - pred[j]) * (meas[j] - pred[j]);
		b += (meas[j] - 1) * (meas[j] - 1);
	}
	*sm = a;
	*sn = b;
	return b > 0 ? 1 - a / b : NAN;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void mv_skill(const double *pred, const double *meas, const double *tol, int n, uint64_t seed,
	      struct mv_skill *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	for (int i = 0; i < n; i++)
		out->tests += fabs(pred[i] - 1) > tol[i];
	out->skill = skill_of(pred, meas, NULL, n, &out->sse_model, &out->sse_null);
	out->lo = out->hi = NAN;
	if (n < 2 || !(out->sse_null > 0))
		return;
	static int idx[MV_MAX_CELLS];
	static double boot[MV_BOOT];
	int nb = 0;
	uint64_t rng = seed;
	for (int b = 0; b < MV_BOOT; b++) {
		for (int i = 0; i < n; i++)
			idx[i] = (int)(mrng_unit(&rng) * n);
		double sm, sn, v = skill_of(pred, meas, idx, n, &sm, &sn);
		/*
		 * A resample whose cells all measured exactly 1.000 has no null
		 * error: the model ties the null there (0) or loses to it.
		 */
		if (isnan(v))
			v = sm > 0 ? -INFINITY : 0;
		boot[nb++] = v;
	}
	if (nb < 2)
		return;
	qsort(boot, (size_t)nb, sizeof(double), cmp_double);
	out->lo = boot[(int)(0.025 * (nb - 1))];
	out->hi = boot[(int)(0.975 * (nb - 1) + 0.5)];
	/* A validation: beats the null, with at least one cell whose predicted effect is a test. */
	out->beats = out->lo > 0 && out->tests > 0;
}

void mv_skill_print(FILE *out, const char *label, const struct mv_skill *k)
{
	if (isnan(k->skill)) {
		fprintf(out, "skill against the null 1.000x (%s): not defined over %d cells (no measured "
			     "effect to beat)\n", label, k->n);
		return;
	}
	char iv[64];
	if (isnan(k->lo))
		snprintf(iv, sizeof(iv), "no interval from %d cell%s", k->n, k->n == 1 ? "" : "s");
	else
		snprintf(iv, sizeof(iv), "[%.3f, %.3f]", k->lo, k->hi);
	fprintf(out, "skill against the null 1.000x (%s): %.3f %s over %d cells (SSE model %.4g, "
		     "null %.4g); cells testing the model (predicted effect beyond tolerance): %d/%d; "
		     "%s\n", label, k->skill, iv, k->n, k->sse_model, k->sse_null, k->tests, k->n,
		k->beats ? "beats the null: counts as a validation"
		: !(k->lo > 0) ? "does not beat the null: not a validation"
			       : "beats the null, but no cell's predicted effect exceeds its tolerance: not a test");
}

/* One row of a validation table: predicted, measured and its interval, tol; 0 when not a cell. */
static int table_row(char *line, double *pred, double *meas, double *mlo, double *mhi, double *tol)
{
	if (strncmp(line, "pages ", 6) == 0 || strstr(line, "not measured"))
		return 0;
	/* none against itself is an identity, not a prediction. */
	if (strstr(line, " none ") && !strstr(line, "/none"))
		return 0;
	char *tok[40];
	int nt = 0;
	for (char *p = strtok(line, " \t\n"); p && nt < 40; p = strtok(NULL, " \t\n"))
		tok[nt++] = p;
	/* predicted [lo, hi] measured [lo, hi] tol */
	int i = 0;
	while (i < nt && tok[i][0] != '[')
		i++;
	if (i < 1 || i + 5 >= nt || tok[i + 3][0] != '[')
		return 0;
	char *e[5];
	*pred = strtod(tok[i - 1], &e[0]);
	*meas = strtod(tok[i + 2], &e[1]);
	*mlo = strtod(tok[i + 3] + 1, &e[2]);
	*mhi = strtod(tok[i + 4], &e[3]);
	*tol = strtod(tok[i + 5], &e[4]);
	return !*e[0] && !*e[1] && *e[2] == ',' && *e[3] == ']' && !*e[4];
}

int mv_read_table(const char *path, double *pred, double *meas, double *tol, int max, char *err,
		  size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot read", path);
		return -1;
	}
	char line[1024];
	int n = 0;
	double lo, hi;
	while (fgets(line, sizeof(line), f) && n < max)
		n += table_row(line, &pred[n], &meas[n], &lo, &hi, &tol[n]);
	fclose(f);
	if (!n) {
		snprintf(err, errlen, "%s: no measured cells", path);
		return -1;
	}
	return n;
}

int mv_table_equivalent(const char *path, int *cells)
{
	FILE *f = fopen(path, "r");
	*cells = 0;
	if (!f)
		return 0;
	char line[1024];
	int eq = 0;
	double p, m, lo, hi, t;
	while (fgets(line, sizeof(line), f))
		if (table_row(line, &p, &m, &lo, &hi, &t)) {
			(*cells)++;
			eq += lo >= p - MV_EQ_MARGIN && hi <= p + MV_EQ_MARGIN;
		}
	fclose(f);
	return eq;
}
