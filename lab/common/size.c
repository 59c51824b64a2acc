/* Sizes such as 128M, 2G, 1.5G or PostgreSQL's 16MB (size.h). */
#include "size.h"

#include <stdlib.h>
#include <string.h>

enum size_result size_parse(const char *s, uint64_t *bytes)
{
	size_t digits = strspn(s, "0123456789."), dots = 0;
	for (size_t i = 0; i < digits; i++)
		dots += s[i] == '.';
	if (!digits || s[0] == '.' || dots > 1)
		return SIZE_BAD;
	char *end;
	double v = strtod(s, &end);
	if (end != s + digits)
		return SIZE_BAD;
	double mult = 1;
	switch (*end) {
	case 'k': case 'K': mult = 1024.0; end++; break;
	case 'm': case 'M': mult = 1024.0 * 1024; end++; break;
	case 'g': case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
	case 't': case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
	default: break;
	}
	if (mult > 1 && *end == 'B')
		end++;
	if (*end || !(v > 0))
		return SIZE_BAD;
	if (v * mult > (double)SIZE_MAX_BYTES)
		return SIZE_TOO_LARGE;
	*bytes = (uint64_t)(v * mult);
	return *bytes ? SIZE_OK : SIZE_BAD;
}
