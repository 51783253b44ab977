#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/contract_line.h"

/* The execution lines' verbs, indexed by their kind minus LINE_CLAIMED. */
static const char *const execution_verbs[] = { "claimed", "started", "finished", "failed", "lost" };

/*
 * Reads a decimal integer of [min, max] at *p, which must end at a space or the line's
 * end, moving *p past it and its spaces. 0, or -1.
 */
static int read_number(const char **p, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	v = strtoll(*p, &end, 10);
	if (errno || end == *p || (*end && *end != ' ') || v < min || v > max)
		return -1;
	*p = end;
	while (**p == ' ')
		(*p)++;
	*out = v;
	return 0;
}

/* "JOB ATTEMPT WORKER [US]" after an execution verb. 0, or -1 with expected. */
static int parse_execution(const char *p, struct adapter_line *out, const char *verb, char *expected, size_t explen)
{
	int64_t worker;

	if (read_number(&p, 1, INT64_MAX, &out->job) < 0 || read_number(&p, 1, INT64_MAX, &out->attempt) < 0 ||
	    read_number(&p, 0, INT32_MAX, &worker) < 0 ||
	    (*p && read_number(&p, 0, INT64_MAX, &out->adapter_us) < 0) || *p) {
		snprintf(expected, explen, "\"%s JOB ATTEMPT WORKER [MICROSECONDS]\": a job id and an attempt from 1, a "
			 "worker from 0, the adapter's Unix time in microseconds if it gives one", verb);
		return -1;
	}
	out->worker = (int32_t)worker;
	return 0;
}

int adapter_line_parse(const char *line, struct adapter_line *out, char *expected, size_t explen)
{
	const char *space = strchr(line, ' ');
	size_t verb_len = space ? (size_t)(space - line) : strlen(line);
	const char *rest = space ? space + 1 : line + verb_len;

	out->adapter_us = -1;
	for (size_t i = 0; i < sizeof(execution_verbs) / sizeof(execution_verbs[0]); i++)
		if (strlen(execution_verbs[i]) == verb_len && strncmp(line, execution_verbs[i], verb_len) == 0) {
			out->kind = (enum adapter_line_kind)(LINE_CLAIMED + i);
			return parse_execution(rest, out, execution_verbs[i], expected, explen);
		}
	if (strcmp(line, "ready") == 0 || strcmp(line, "stopped") == 0) {
		out->kind = line[0] == 'r' ? LINE_READY : LINE_STOPPED;
		return 0;
	}
	if (verb_len == 8 && strncmp(line, "enqueued", 8) == 0) {
		out->kind = LINE_ENQUEUED;
		if (read_number(&rest, 0, INT64_MAX, &out->count) == 0 && !*rest)
			return 0;
		snprintf(expected, explen, "\"enqueued N\": the count of enqueues committed");
		return -1;
	}
	if (verb_len == 5 && strncmp(line, "error", 5) == 0) {
		int64_t worker;

		out->kind = LINE_ERROR;
		if (read_number(&rest, 0, INT32_MAX, &worker) == 0 && *rest) {
			out->worker = (int32_t)worker;
			out->text = rest;
			return 0;
		}
		snprintf(expected, explen, "\"error WORKER TEXT\": a worker from 0 and what it met");
		return -1;
	}
	snprintf(expected, explen, "one of ready, enqueued, claimed, started, finished, failed, lost, error, stopped");
	return -1;
}
