/* The expectations' verdicts, each with its measured sides. */
#include "output/results_print.h"

/* The first of the n names that e references, or NULL. */
static const char *left_out_name(const struct expectation *e, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (expect_references(e, names[i]))
			return names[i];
	return NULL;
}

bool verdicts_print(FILE *out, const struct expectation *expects, size_t n, const struct invocation_result *r,
		    const char *const *left_out, size_t n_left_out)
{
	bool all_pass = true;
	char err[512];

	if (n)
		fprintf(out, "\nexpectations:\n");
	for (size_t i = 0; i < n; i++) {
		double lhs, rhs;
		bool pass = false;

		if (expect_eval(&expects[i], r->results, r->n_results, &lhs, &rhs, &pass, err, sizeof(err)) < 0) {
			const char *skipped = left_out_name(&expects[i], left_out, n_left_out);

			if (skipped) {
				fprintf(out, "  SKIP  %s: %s (%s cannot run on %s)\n", expects[i].name, expects[i].text,
					skipped, r->backend);
				continue;
			}
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
