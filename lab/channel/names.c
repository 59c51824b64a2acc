/*
 * A block's name becomes a file name under RUNS, LOGS or PERF, so it must
 * be a plain one; a bad name is refused for its block alone.  One name
 * over 255 bytes once made awk fail and lost every block of the boot
 * (issue 15), and a name with ESC or BEL would have written to the
 * terminal that shows the refusal: it is shown with '?' for them.
 */
#include "channel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_BYTES 200
#define SHOWN 40

static int plain(unsigned char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
	       (ch != '\0' && strchr("._+,:=@~-", ch));
}

char *chan_refusal(const char *kind, const char *name, size_t len)
{
	int ok = len > 0 && len <= NAME_MAX_BYTES && name[0] != '.';
	for (size_t i = 0; ok && i < len; i++)
		ok = plain((unsigned char)name[i]);
	if (ok)
		return NULL;
	char shown[SHOWN + 1];
	size_t n = len < SHOWN ? len : SHOWN;
	for (size_t i = 0; i < n; i++)
		shown[i] = plain((unsigned char)name[i]) ? name[i] : '?';
	shown[n] = '\0';
	char *why = NULL;
	if (asprintf(&why,
		     "channel: refused a %s block: its name (%zu characters, '%s%s') is not a plain "
		     "file name of at most %d characters from [A-Za-z0-9._+,:=@~-] (no leading "
		     "dot); its data is dropped",
		     kind, len, shown, len > SHOWN ? "..." : "", NAME_MAX_BYTES) < 0) {
		fprintf(stderr, "preemptlab: channel: out of memory\n");
		exit(1);
	}
	return why;
}
