/*
 * The one size parser: what the planner, bufbench and pgsample each took
 * before is still taken, with one limit, and what strtod would have let
 * through (blanks, signs, exponents, hex, inf) is refused.
 */
#include "check.h"
#include "size.h"

static int is(const char *s, uint64_t want)
{
	uint64_t b = 0;
	return size_parse(s, &b) == SIZE_OK && b == want;
}

static int bad(const char *s)
{
	uint64_t b = 12345;
	return size_parse(s, &b) == SIZE_BAD && b == 12345;
}

int main(void)
{
	CHECK(is("128M", 128ull << 20), "128M");
	CHECK(is("2G", 2ull << 30) && is("2g", 2ull << 30), "2G and 2g");
	CHECK(is("512k", 512ull << 10) && is("512K", 512ull << 10), "512k and 512K");
	CHECK(is("1.5G", 3ull << 29), "1.5G is 1536 MiB");
	CHECK(is("4096", 4096), "no unit is bytes");
	CHECK(is("1T", 1ull << 40), "1T");
	/* PostgreSQL's SHOW spellings (pgsample's shared_buffers). */
	CHECK(is("128kB", 128ull << 10) && is("16MB", 16ull << 20) && is("1GB", 1ull << 30) &&
	      is("1TB", 1ull << 40), "kB, MB, GB, TB");
	CHECK(bad("5B"), "B without a unit is refused");
	CHECK(bad("") && bad("M") && bad("lots"), "empty, unit alone, words");
	CHECK(bad("0") && bad("0M") && bad("0.0G"), "zero");
	CHECK(bad("-1M") && bad("+1M") && bad(" 1M") && bad("1M ") && bad("1 M"), "signs and blanks");
	CHECK(bad("1e30") && bad("1e3M") && bad("0x10") && bad("inf") && bad("nan"),
	      "exponents, hex, inf, nan");
	CHECK(bad("1.2.3G") && bad(".5G"), "two dots, a leading dot");
	CHECK(bad("1MM") && bad("1Mb") && bad("1P"), "trailing letters, P");
	uint64_t b = 7;
	CHECK(size_parse("1024T", &b) == SIZE_OK && b == SIZE_MAX_BYTES, "1024T is the limit, taken");
	CHECK(size_parse("1025T", &b) == SIZE_TOO_LARGE, "past 1 PiB: too large");
	CHECK(size_parse("99999999999999999999G", &b) == SIZE_TOO_LARGE, "absurd: too large, no overflow");
	return CHECK_DONE();
}
