/*
 * libFuzzer target: any bytes as an [expect] assertion, parsed, checked against two
 * strategies and evaluated over two hand-made runs. Built and run by scripts/fuzz.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/expect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct expect_target names[] = { { "skip-locked", "a" }, { "naive", NULL } };
	struct run_result runs[2] = {
		{ .strategy = "skip-locked", .claim_mode = "hold", .workers = 4 },
		{ .strategy = "naive", .claim_mode = "flip", .workers = 8 },
	};
	struct expectation e;
	char *text = malloc(size + 1), err[1024];
	double lhs, rhs;
	bool pass;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	runs[0].metrics.throughput_jps = 100;
	runs[1].metrics.duplicates = 7;
	if (expect_parse("fuzz", text, &e, err, sizeof(err)) == 0) {
		if (expect_check(&e, names, 2, err, sizeof(err)) == 0)
			expect_eval(&e, runs, 2, &lhs, &rhs, &pass, err, sizeof(err));
		expect_free(&e);
	}
	free(text);
	return 0;
}
