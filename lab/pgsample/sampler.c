#include "pgsample_sampler.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLE_SQL \
	"SELECT state, wait_event_type, wait_event FROM pg_stat_activity " \
	"WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"

struct sampler {
	PGconn *conn;
	char version[192];
};

static void set_err(char *err, size_t len, const char *what, PGconn *c)
{
	const char *m = c ? PQerrorMessage(c) : "";
	snprintf(err, len, "%s: %s", what, m);
	err[strcspn(err, "\n")] = '\0';
}

struct sampler *sampler_open(const char *conninfo, char *err, size_t errlen)
{
	struct sampler *s = calloc(1, sizeof(*s));
	PGresult *r;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->conn = PQconnectdb(conninfo);
	if (PQstatus(s->conn) != CONNECTION_OK) {
		set_err(err, errlen, "cannot connect", s->conn);
		sampler_close(s);
		return NULL;
	}
	r = PQprepare(s->conn, "sample", SAMPLE_SQL, 0, NULL);
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		set_err(err, errlen, "cannot prepare the sample query", s->conn);
		PQclear(r);
		sampler_close(s);
		return NULL;
	}
	PQclear(r);
	return s;
}

int sampler_sample(struct sampler *s, struct wait_tally *t, char *err, size_t errlen)
{
	PGresult *r = PQexecPrepared(s->conn, "sample", 0, NULL, NULL, NULL, 0);
	int rows;

	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		set_err(err, errlen, "sample query failed", s->conn);
		PQclear(r);
		return -1;
	}
	rows = PQntuples(r);
	for (int i = 0; i < rows; i++) {
		const char *v[3];
		for (int c = 0; c < 3; c++)
			v[c] = PQgetisnull(r, i, c) ? NULL : PQgetvalue(r, i, c);
		tally_row(t, v[0], v[1], v[2]);
	}
	tally_end_sample(t);
	PQclear(r);
	return 0;
}

int sampler_show(struct sampler *s, const char *name, char *out, size_t outlen)
{
	char sql[128];
	PGresult *r;
	int rc = -1;

	snprintf(sql, sizeof(sql), "SHOW %s", name);
	r = PQexec(s->conn, sql);
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
		snprintf(out, outlen, "%s", PQgetvalue(r, 0, 0));
		rc = 0;
	}
	PQclear(r);
	return rc;
}

const char *sampler_server_version(struct sampler *s)
{
	/* version() names the build (compiler, platform) as well as the
	 * release: what a bug report must give; server_version only if the
	 * query fails. */
	PGresult *r = PQexec(s->conn, "SELECT version()");
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
		snprintf(s->version, sizeof(s->version), "%s", PQgetvalue(r, 0, 0));
	} else {
		const char *v = PQparameterStatus(s->conn, "server_version");
		snprintf(s->version, sizeof(s->version), "%s", v ? v : "");
	}
	PQclear(r);
	return s->version;
}

void sampler_close(struct sampler *s)
{
	if (!s)
		return;
	PQfinish(s->conn);
	free(s);
}
