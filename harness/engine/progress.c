#include <unistd.h>

#include "base/clock.h"
#include "engine/progress.h"

void progress_init(struct progress *p, FILE *out, bool wanted)
{
	p->out = out;
	p->enabled = wanted && isatty(fileno(out));
	p->last_draw_ns = 0;
	p->drawn = false;
}

void progress_update(struct progress *p, const char *label, uint64_t done, uint64_t total, double elapsed_s)
{
	int64_t now = clock_now_ns();
	double rate = elapsed_s > 0 ? (double)done / elapsed_s : 0;

	if (!p->enabled || now - p->last_draw_ns < PROGRESS_INTERVAL_NS)
		return;
	p->last_draw_ns = now;
	if (total)
		fprintf(p->out, "\r\033[K%s: %llu/%llu jobs, %.1f jobs/s, %.1f s", label,
			(unsigned long long)done, (unsigned long long)total, rate, elapsed_s);
	else
		fprintf(p->out, "\r\033[K%s: %llu jobs, %.1f jobs/s, %.1f s", label,
			(unsigned long long)done, rate, elapsed_s);
	fflush(p->out);
	p->drawn = true;
}

void progress_clear(struct progress *p)
{
	if (!p->drawn)
		return;
	fprintf(p->out, "\r\033[K");
	fflush(p->out);
	p->drawn = false;
}
