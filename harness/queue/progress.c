#include <unistd.h>

#include "base/clock.h"
#include "queue/progress.h"

void progress_init(struct progress *p, FILE *out, bool wanted)
{
	*p = (struct progress){
		.out = out,
		.enabled = wanted && isatty(fileno(out)),
		.recent_rate = -1.0,
	};
}

/* Closes the rate window of p when it is a second long: its rate becomes the one shown as now. */
static void roll_window(struct progress *p, uint64_t done, int64_t elapsed_ns)
{
	if (elapsed_ns - p->window_ns < PROGRESS_WINDOW_NS)
		return;
	p->recent_rate = (double)(done - p->window_done) * 1e9 / (double)(elapsed_ns - p->window_ns);
	p->window_ns = elapsed_ns;
	p->window_done = done;
}

void progress_update(struct progress *p, const char *label, uint64_t done, uint64_t total, int64_t elapsed_ns)
{
	int64_t now = clock_now_ns();
	double elapsed_s = (double)elapsed_ns / 1e9;
	double rate = elapsed_s > 0 ? (double)done / elapsed_s : 0;

	if (!p->enabled)
		return;
	roll_window(p, done, elapsed_ns);
	if (now - p->last_draw_ns < PROGRESS_INTERVAL_NS)
		return;
	p->last_draw_ns = now;
	fprintf(p->out, "\r\033[K%s: %llu", label, (unsigned long long)done);
	if (total)
		fprintf(p->out, "/%llu", (unsigned long long)total);
	fprintf(p->out, " jobs, ");
	if (p->recent_rate >= 0)
		fprintf(p->out, "%.1f jobs/s now, ", p->recent_rate);
	fprintf(p->out, "%.1f jobs/s since the start, %.1f s", rate, elapsed_s);
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
