#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "measure/machine_load.h"
#include "model/metric_table.h"

/* Reads /proc/stat's first line ("cpu user nice system idle iowait irq softirq steal ...") into s. */
static void read_cpu_line(struct machine_sample *s)
{
	unsigned long long v[8];
	FILE *f = fopen("/proc/stat", "r");

	s->cpu_known = false;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
		   &v[7]) == 8) {
		s->total = 0;
		for (int i = 0; i < 8; i++)
			s->total += v[i];
		s->steal = v[7];
		s->cpu_known = true;
	}
	fclose(f);
}

void machine_sample_take(struct machine_sample *s)
{
	double load[1];

	s->load1 = getloadavg(load, 1) == 1 ? load[0] : NAN;
	read_cpu_line(s);
}

struct machine_figures machine_figures_between(const struct machine_sample *start, const struct machine_sample *end)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	struct machine_figures m = { .load_start = start->load1, .load_end = end->load1, .steal_pct = NAN,
				     .cores = cores > 0 ? (uint64_t)cores : METRIC_UNKNOWN };

	if (start->cpu_known && end->cpu_known && end->total > start->total && end->steal >= start->steal)
		m.steal_pct = 100.0 * (double)(end->steal - start->steal) / (double)(end->total - start->total);
	if (cores <= 0 || (isnan(m.load_start) && isnan(m.load_end)))
		m.overloaded = METRIC_UNKNOWN;
	else
		/* at the start only: by its end the load average counts the run's own workers and server */
		m.overloaded = m.load_start > (double)cores;
	return m;
}
