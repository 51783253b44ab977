/*
 * The queue table looked at outside the run, before the start and after the workers
 * stopped, on the harness's own connection: the plan of the head lookup that every
 * strategy's claim makes (the lowest claimable id of the first task class), explained with
 * ANALYZE and BUFFERS so that the buffers one lookup touches are counted; the table's and
 * its indexes' sizes; and the locks other sessions still hold on it. SQLite gives its query
 * plan alone.
 */
#ifndef CLAIMBENCH_TABLE_PROBE_H
#define CLAIMBENCH_TABLE_PROBE_H

#include "engine/admin.h"
#include "model/server_sample.h"
#include "queue/run_shared.h"

/*
 * Reads the queue table of s into p on a's connection, made anew first when it was lost
 * (a restart during the run). It never fails the run: what
 * cannot be read stays unknown (SAMPLE_UNKNOWN, plan NULL) and is said on stderr under
 * label. It waits for the table's locks as any reader does: a run that is stopping
 * (Ctrl-C) skips the probe after it.
 */
void table_probe_take(struct admin *a, const struct run_shared *s, struct table_probe *p, const char *label);

#endif
