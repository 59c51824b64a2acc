/*
 * The result channel (runner.h): a guest's second serial port, the
 * host's file.  Every line is written whole and at once, so the host
 * never reads half of one it could mistake for the end.
 */
#include "runner.h"
#include "text.h"
#include "model/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

static int chan = -1;

static void chan_write(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(chan, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

int chan_open(const char *path)
{
	struct stat st;
	/* A serial port passes bytes as they are: no CR before each LF, no echo
	 * (stty raw -echo). */
	if (!stat(path, &st) && S_ISCHR(st.st_mode)) {
		int fd = open(path, O_RDWR | O_NOCTTY);
		struct termios t;
		if (fd >= 0 && !tcgetattr(fd, &t)) {
			cfmakeraw(&t);
			t.c_lflag &= ~(tcflag_t)ECHO;
			tcsetattr(fd, TCSANOW, &t);
		}
		if (fd >= 0)
			close(fd);
	}
	chan = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOCTTY | O_CLOEXEC, 0666);
	return chan < 0 ? -1 : 0;
}

void say(const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	int n = snprintf(line, sizeof(line), "@@PL ");
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	chan_write(line, (size_t)n);
}

void send_block(const char *kind, const char *name, const char *path)
{
	size_t len = 0;
	char *data = NULL;
	FILE *f = fopen(path, "rb");
	if (f) {
		size_t cap = 0, n;
		char buf[65536];
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
			if (len + n > cap) {
				cap = (len + n) * 2;
				char *g = realloc(data, cap);
				if (!g)
					break;
				data = g;
			}
			memcpy(data + len, buf, n);
			len += n;
		}
		fclose(f);
	}
	struct sha256 s;
	char sum[65];
	sha256_init(&s);
	sha256_update(&s, data ? data : "", len);
	sha256_hex(&s, sum);
	char *b64 = malloc(text_base64_size(len));
	if (!b64) {
		free(data);
		return;
	}
	size_t blen = text_base64((const unsigned char *)(data ? data : ""), len, b64);
	say("%s %s %zu %s", kind, name, len, sum);
	chan_write(b64, blen);
	say("END %s", name);
	free(b64);
	free(data);
}
