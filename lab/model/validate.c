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
#include <string.h>

#include "report/stats.h"

/* cpus 0: a predictions file from before the column (any CPU count). */
static const struct mx_group *find(const struct mx_set *s, const char *page, int clients, int cpus)
{
	for (int i = 0; i < s->ngroups; i++)
		if (strcmp(s->g[i].page, page) == 0 && s->g[i].clients == clients &&
		    (cpus == 0 || s->g[i].cpus == cpus))
			return &s->g[i];
	return NULL;
}

static double group_t_us(const struct mx_group *g)
{
	return g->nt ? st_mean(g->t_us, (size_t)g->nt) : 0;
}

/* The cell's CPUs: the prediction's, else the measurement's, else "?". */
static const char *cpu_text(int cpus, const struct mx_group *g)
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
	static struct mx_set s;
	int rc = mx_scan_timed(run, &s, err, errlen);
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
	fprintf(out, "%-5s %4s %7s %-9s %9s %-15s %9s %-15s %6s %-4s %-5s %9s %9s %-4s %8s %8s\n",
		"pages", "cpus", "clients", "model", "predicted", "interval", "measured", "interval", "tol",
		"hit", "sign", "p_f pred", "p_f meas", "hit", "T pred", "T meas");
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
		const struct mx_group *g = find(&s, page, clients, cpus);
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
		snprintf(piv, sizeof(piv), "[%.3f, %.3f]", plo, phi);
		snprintf(miv, sizeof(miv), "[%.3f, %.3f]", r.lo, r.hi);
		fprintf(out, "%-5s %4s %7d %-9s %9.3f %-15s %9.3f %-15s %6.3f %-4s %-5s %9.4g %9s %-4s %8.0f %8s\n",
			page, cpu_text(cpus, g), clients, model, pred, piv, r.est, miv, tol, hit ? "hit" : "miss",
			res ? (sr ? "right" : "wrong") : "-", pf, pfm_s, pfh_s, t, tm_s);
	}
	fclose(f);
	fprintf(out, "ratio within max(mde, 0.02): %d of %d cells; sign right in %d of %d resolved; "
		     "p_f within 20%%: %d of %d\n", hits, cells, sign_right, resolved, pf_hits, pf_cells);
	if (s.bare)
		fprintf(out, "(%d runs without EVIDENCE: ratios from their own fill tps; p_f and T not "
			     "measured, so not judged)\n", s.bare);
	if (s.twinned)
		fprintf(out, "(%d runs timed by their bare twins, CONTROLS)\n", s.twinned);
	if (!lines)
		snprintf(err, errlen, "%s: no prediction lines", tsv);
	return lines ? MX_OK : MX_ERR;
}
