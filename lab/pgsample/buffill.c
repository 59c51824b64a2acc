#include "pgsample_buffill.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* count(relfilenode) counts the buffers that hold a page. */
#define FILL_SQL "SELECT count(relfilenode), count(*) FROM pg_buffercache"

int buffill_open(struct buffill *b, const char *conninfo, double step_s, char *err, size_t len)
{
	memset(b, 0, sizeof(*b));
	b->step_s = step_s;
	b->fill_s = -1;
	b->total = -1;
	PGconn *c = PQconnectdb(conninfo);
	b->conn = c;
	if (PQstatus(c) != CONNECTION_OK) {
		snprintf(err, len, "pg_buffercache connection: %s", PQerrorMessage(c));
		err[strcspn(err, "\n")] = '\0';
		buffill_close(b);
		return -1;
	}
	PGresult *r = PQexec(c, "SELECT 1 FROM pg_extension WHERE extname = 'pg_buffercache'");
	int ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
	PQclear(r);
	if (!ok) {
		snprintf(err, len, "the pg_buffercache extension is not installed in this database "
			 "(CREATE EXTENSION pg_buffercache; Debian ships it with postgresql-15)");
		buffill_close(b);
		return -1;
	}
	return 0;
}

static void collect(struct buffill *b, double t_s)
{
	PGconn *c = b->conn;
	PGresult *r;
	while ((r = PQgetResult(c)) != NULL) {
		if (PQresultStatus(r) != PGRES_TUPLES_OK) {
			snprintf(b->error, sizeof(b->error), "%s", PQerrorMessage(c));
			b->error[strcspn(b->error, "\n")] = '\0';
		} else if (b->n < BUFFILL_MAX) {
			long used = atol(PQgetvalue(r, 0, 0));
			b->total = atol(PQgetvalue(r, 0, 1));
			b->t_s[b->n] = t_s;
			b->used[b->n++] = used;
			if (b->fill_s < 0 && used >= b->total)
				b->fill_s = t_s;
		}
		PQclear(r);
	}
	b->busy = false;
}

void buffill_poll(struct buffill *b, double t_s)
{
	PGconn *c = b->conn;
	if (!c || b->error[0])
		return;
	if (b->busy) {
		if (!PQconsumeInput(c)) {
			snprintf(b->error, sizeof(b->error), "%s", PQerrorMessage(c));
			b->error[strcspn(b->error, "\n")] = '\0';
			return;
		}
		if (PQisBusy(c))
			return;
		collect(b, t_s);
	}
	if (t_s >= b->next_s && b->n < BUFFILL_MAX) {
		if (!PQsendQuery(c, FILL_SQL)) {
			snprintf(b->error, sizeof(b->error), "%s", PQerrorMessage(c));
			b->error[strcspn(b->error, "\n")] = '\0';
			return;
		}
		b->busy = true;
		/* On the grid, so a slow scan does not shift every later sample. */
		while (b->next_s <= t_s)
			b->next_s += b->step_s;
	}
}

void buffill_close(struct buffill *b)
{
	if (b->conn)
		PQfinish(b->conn);
	b->conn = NULL;
}

void buffill_write(struct json *j, const struct buffill *b)
{
	json_begin_object(j, "buffer_fill");
	json_double(j, "step_s", b->step_s);
	json_int(j, "total_buffers", b->total);
	if (b->fill_s >= 0)
		json_double(j, "time_to_fill_s", b->fill_s);
	else
		json_null(j, "time_to_fill_s");
	json_str(j, "error", b->error);
	json_begin_array(j, "t_s");
	for (size_t i = 0; i < b->n; i++)
		json_double(j, NULL, b->t_s[i]);
	json_end_array(j);
	json_begin_array(j, "used");
	for (size_t i = 0; i < b->n; i++)
		json_int(j, NULL, b->used[i]);
	json_end_array(j);
	json_end_object(j);
}
