/*
 * The report's JSON reader (jansson underneath): values, escapes, paths, and
 * clear errors on the documents an interrupted run or a hostile one leaves.
 */
#include <string.h>

#include "check.h"
#include "json_read.h"

int main(void)
{
	char err[200];
	const char *doc =
		"{\"tool\":\"bufbench\",\"results\":{\"tps\":1234.5,"
		"\"latency_us\":{\"p99\":-1.5e2}},\"ok\":true,\"none\":null,"
		"\"hist\":[0,1,2,3],\"s\":\"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\"}";
	struct json_read_val *v = json_read_parse(doc, err, sizeof(err));
	CHECK(v != NULL, "parse a document (%s)", v ? "ok" : err);
	if (!v)
		return CHECK_DONE();
	double d = 0;
	CHECK(json_read_num(v, "results.tps", &d) && d == 1234.5, "number by path");
	CHECK(json_read_num(v, "results.latency_us.p99", &d) && d == -150, "nested exponent number");
	CHECK(!json_read_num(v, "results.nope", &d), "absent path is absent");
	CHECK(!json_read_num(v, "tool", &d), "a string is not a number");
	CHECK(!strcmp(json_read_str(v, "tool", ""), "bufbench"), "string by path");
	CHECK(json_read_path(v, "ok")->type == JR_BOOL && json_read_path(v, "ok")->b, "true");
	CHECK(json_read_path(v, "none")->type == JR_NULL, "null");
	const struct json_read_val *h = json_read_path(v, "hist");
	CHECK(h && h->type == JR_ARR && h->n == 4 && h->items[3]->num == 3, "array");
	CHECK(!strcmp(json_read_str(v, "s", ""), "a\"b\\c\n\xc3\xa9\xf0\x9f\x98\x80"),
	      "escapes and surrogate pairs decode to UTF-8");
	json_read_free(v);

	static const char *const bad[] = {
		"{\"a\":1", "{\"a\":1,}", "[1 2]", "{\"a\":01}", "{\"a\":nan}",
		"{\"a\":\"x}", "{} {}", "{\"a\":-}", "{\"a\":\"x\\u0000y\"}",
		"{\"tps\":1,\"tps\":2}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		v = json_read_parse(bad[i], err, sizeof(err));
		CHECK(!v && strstr(err, "line 1 column"), "reject %s: %s", bad[i], err);
		json_read_free(v);
	}
	char deep[401];
	memset(deep, '[', 200);
	memset(deep + 200, ']', 200);
	deep[400] = 0;
	v = json_read_parse(deep, err, sizeof(err));
	CHECK(!v && strstr(err, "nested deeper"), "a document nested 200 deep is refused: %s", err);
	v = json_read_parse("{\n  \"a\": [1,\n  x]}", err, sizeof(err));
	CHECK(!v && strstr(err, "line 3 column"), "error position: %s", err);
	v = json_read_parse_file("/nonexistent/x.json", err, sizeof(err));
	CHECK(!v && strstr(err, "/nonexistent/x.json"), "missing file named: %s", err);
	v = json_read_parse_file("/dev/zero", err, sizeof(err));
	CHECK(!v && strstr(err, "not a regular file"), "a device is not read: %s", err);
	/* Numbers no tool of the lab writes: 1e300 as a page size printed as
	 * a negative one, 1e308 as a rate made NaN chart coordinates. */
	static const char *huge[] = { "{\"kb\": 1e300}", "{\"a\": [1, -1e308]}",
				      "{\"x\": 1e999}", "{\"n\": 9223372036854775807}" };
	for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
		v = json_read_parse(huge[i], err, sizeof(err));
		CHECK(!v, "%s is refused: %s", huge[i], err);
		json_read_free(v);
	}
	v = json_read_parse("{\"ns\": 1e17, \"c\": 1000000000000000000}", err, sizeof(err));
	CHECK(v && json_read_num(v, "ns", &d) && d == 1e17, "1e17 and 1e18 are read");
	json_read_free(v);
	return CHECK_DONE();
}
