/* The process's exit statuses, as the README documents them; every command returns one. */
#ifndef CLAIMBENCH_EXIT_STATUS_H
#define CLAIMBENCH_EXIT_STATUS_H

enum exit_status {
	EXIT_DONE = 0,		/* every run finished */
	EXIT_EXPECTATION = 1,	/* an expectation failed (run), a regression (compare) */
	EXIT_USAGE = 2,		/* bad command line or scenario */
	EXIT_ENVIRONMENT = 3,	/* database or environment error */
	EXIT_INCOMPLETE = 4,	/* a worker aborted or the run was interrupted */
	EXIT_VERIFY = 5,	/* an integrity error: the ledger and the server's record (--verify) or the table's final state disagree unexplained */
	EXIT_UNCONFINED = 6,	/* a scenario's SQL cannot be confined: the server does not let the harness make the run's account */
	EXIT_CONTRACT = 7,	/* an adapter's line broke the adapter contract (docs/adapters.md) */
};

#endif
