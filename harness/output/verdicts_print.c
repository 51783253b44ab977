/* The expectations' verdicts, each with its measured sides. */
#include "output/report.h"

bool verdicts_print(FILE *out, const struct expectation *expects, size_t n, const struct report *r)
{
	bool all_pass = true;
	char err[512];

	if (n)
		fprintf(out, "\nexpectations:\n");
	for (size_t i = 0; i < n; i++) {
		double lhs, rhs;
		bool pass = false;

		if (expect_eval(&expects[i], r->results, r->n_results, &lhs, &rhs, &pass, err, sizeof(err)) < 0) {
			fprintf(out, "  FAIL  %s: %s (%s)\n", expects[i].name, expects[i].text, err);
			all_pass = false;
			continue;
		}
		fprintf(out, "  %s  %s: %s  (%.6g vs %.6g)\n", pass ? "PASS" : "FAIL", expects[i].name, expects[i].text,
			lhs, rhs);
		all_pass &= pass;
	}
	return all_pass;
}
