#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapter/contract_line.h"
#include "adapter/replica.h"
#include "base/clock.h"

int replica_init(struct replica *r, int index, struct replica_run *run, size_t expected)
{
	memset(r, 0, sizeof(*r));
	r->index = index;
	r->run = run;
	r->number = index;
	r->in_fd = r->out_fd = -1;
	r->exit_status = -1;
	r->skew_min_us = INT64_MAX;
	r->skew_max_us = INT64_MIN;
	atomic_init(&r->lines, 0);
	atomic_init(&r->last_line_ns, clock_now_ns());
	atomic_init(&r->ready, false);
	atomic_init(&r->in_hand, 0);
	atomic_init(&r->enqueued, -1);
	atomic_init(&r->said_stopped, false);
	atomic_init(&r->ended, false);
	atomic_init(&r->broken, false);
	atomic_init(&r->killed_at_ns, 0);
	r->stats = calloc((size_t)run->workers, sizeof(*r->stats));
	r->seats = calloc((size_t)run->workers, sizeof(*r->seats));
	if (!r->stats || !r->seats || ledger_init(&r->ledger, expected, 1, 64) < 0)
		return -1;
	for (int i = 0; i < run->workers; i++)
		hist_init(&r->stats[i].claim_latency);
	return 0;
}

/* Notes that line broke the contract, expected saying what it should have been; the reader stops. */
static void broke(struct replica *r, const char *line, const char *expected)
{
	snprintf(r->broken_reason, sizeof(r->broken_reason), "adapter %s: replica %d: line %ld: \"%.*s\": expected %.400s",
		 r->run->adapter->name, r->index, r->lineno, REPLICA_LINE_MAX, line, expected);
	atomic_store(&r->broken, true);
}

/* The seat's global number: index * W + worker. */
static int32_t seat_number(const struct replica *r, int32_t worker)
{
	return (int32_t)(r->index * r->run->workers + worker);
}

/*
 * Records the end (outcome, with flags) of the execution seat holds at at_ns in r's ledger. 0,
 * or -1 when out of memory.
 */
static int end_execution(struct replica *r, int32_t worker, int outcome, int flags, int64_t at_ns)
{
	struct replica_seat *seat = &r->seats[worker];
	struct worker_stats *st = &r->stats[worker];
	struct execution e = {
		.job_id = seat->job,
		.claim_start_ns = seat->claim_start_ns,
		.start_ns = seat->start_ns,
		.end_ns = at_ns,
		.worker = seat_number(r, worker),
		.outcome = outcome,
		.identity = seat_number(r, worker),
		.flags = flags,
	};

	seat->held = false;
	atomic_fetch_sub(&r->in_hand, 1);
	seat->last_end_ns = at_ns;
	st->busy_ns += at_ns - seat->start_ns;
	st->completed += outcome == EXEC_DONE;
	if (outcome == EXEC_DONE && !atomic_exchange(&r->run->done[seat->job - 1], 1))
		atomic_fetch_add(&r->run->distinct_done, 1);
	return ledger_add_execution(&r->ledger, &e);
}

/* An execution's line l (claimed, started, finished, failed, lost) at at_ns. 0, or -1 with what was expected. */
static int take_execution(struct replica *r, const struct adapter_line *l, int64_t at_ns, char *expected, size_t len)
{
	struct replica_seat *seat;

	if (l->worker >= r->run->workers) {
		snprintf(expected, len, "a worker from 0 to %d (WORKER_COUNT %d)", r->run->workers - 1, r->run->workers);
		return -1;
	}
	if (l->job > r->run->n_jobs) {
		snprintf(expected, len, "a job id from 1 to %ld, one claimbench enqueued", r->run->n_jobs);
		return -1;
	}
	if (!atomic_load(&r->run->start_ns)) {
		snprintf(expected, len, "no execution before claimbench's start");
		return -1;
	}
	seat = &r->seats[l->worker];
	if (l->kind == LINE_CLAIMED) {
		if (seat->held) {
			snprintf(expected, len, "worker %d to end job %lld (attempt %lld) before it claims another",
				 l->worker, (long long)seat->job, (long long)seat->attempt);
			return -1;
		}
		*seat = (struct replica_seat){ .held = true, .job = l->job, .attempt = l->attempt,
					       .claim_start_ns = seat->last_end_ns, .start_ns = at_ns,
					       .last_end_ns = seat->last_end_ns };
		atomic_fetch_add(&r->in_hand, 1);
		r->stats[l->worker].claims++;
		hist_record(&r->stats[l->worker].claim_latency, at_ns - seat->claim_start_ns);
		return 0;
	}
	if (!seat->held || seat->job != l->job || seat->attempt != l->attempt) {
		if (seat->held)
			snprintf(expected, len, "worker %d's line on the job it holds, %lld attempt %lld", l->worker,
				 (long long)seat->job, (long long)seat->attempt);
		else
			snprintf(expected, len, "worker %d to claim a job before its %s line: it holds none", l->worker,
				 l->kind == LINE_STARTED ? "started" : l->kind == LINE_FINISHED ? "finished"
				 : l->kind == LINE_FAILED ? "failed" : "lost");
		return -1;
	}
	if (l->kind == LINE_STARTED)
		return 0;
	if (l->kind == LINE_LOST)
		r->stats[l->worker].errors[ERR_CONNECTION_LOST]++;
	if (end_execution(r, l->worker, l->kind == LINE_FINISHED ? EXEC_DONE : l->kind == LINE_FAILED ? EXEC_FAILED
				     : EXEC_UNCOMMITTED, l->kind == LINE_LOST ? EXEC_CONNECTION_LOST : 0, at_ns) < 0) {
		snprintf(expected, len, "(claimbench ran out of memory recording it)");
		return -1;
	}
	return 0;
}

/* Keeps the skew between the line's receipt (at the wall clock now_us) and the adapter's own time. */
static void note_skew(struct replica *r, const struct adapter_line *l, int64_t now_us)
{
	int64_t skew;

	if (l->adapter_us < 0)
		return;
	skew = now_us - l->adapter_us;
	if (skew < r->skew_min_us)
		r->skew_min_us = skew;
	if (skew > r->skew_max_us)
		r->skew_max_us = skew;
}

/* One line of r (NUL-terminated), received at now_ns. 0, or -1 when it broke the contract. */
static int take_line(struct replica *r, const char *line, int64_t now_ns, int64_t now_us)
{
	struct adapter_line l;
	char expected[512];
	int64_t start = atomic_load(&r->run->start_ns);
	int64_t at_ns = start ? now_ns - start : 0;

	r->lineno++;
	if (adapter_line_parse(line, &l, expected, sizeof(expected)) < 0) {
		broke(r, line, expected);
		return -1;
	}
	note_skew(r, &l, now_us);
	switch (l.kind) {
	case LINE_READY:
		atomic_store(&r->ready, true);
		return 0;
	case LINE_ENQUEUED:
		atomic_store(&r->enqueued, (long)l.count);
		return 0;
	case LINE_STOPPED:
		atomic_store(&r->said_stopped, true);
		return 0;
	case LINE_ERROR:
		if (l.worker >= r->run->workers) {
			snprintf(expected, sizeof(expected), "a worker from 0 to %d", r->run->workers - 1);
			broke(r, line, expected);
			return -1;
		}
		r->stats[l.worker].errors[ERR_OTHER]++;
		return ledger_add_error(&r->ledger, at_ns);
	default:
		if (take_execution(r, &l, at_ns, expected, sizeof(expected)) < 0) {
			broke(r, line, expected);
			return -1;
		}
		return 0;
	}
}

/* The wall clock in microseconds. */
static int64_t wall_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * Ends every execution r's seats still hold at at_ns (the kill's instant when claimbench
 * killed it, else when its output ended; never before the seat had the job in hand): given
 * back on the stop when it said stopped, else crashed (the replica died with them in hand).
 * A crashed seat's connection died with its process, counted as a lost connection: its
 * completion may have committed without a line to say so (the ledger against the table then
 * names it, ledger_table.h).
 */
static void end_held(struct replica *r, int64_t at_ns)
{
	int outcome = atomic_load(&r->said_stopped) ? EXEC_INTERRUPTED : EXEC_CRASHED;

	for (int w = 0; w < r->run->workers; w++)
		if (r->seats[w].held) {
			end_execution(r, w, outcome, outcome == EXEC_CRASHED ? EXEC_PROCESS_DIED : 0,
				      at_ns > r->seats[w].start_ns ? at_ns : r->seats[w].start_ns);
			if (outcome == EXEC_CRASHED) {
				r->crashed++;
				r->stats[w].errors[ERR_CONNECTION_LOST]++;
			}
		}
}

/* The reader thread: splits r's output into lines and takes each, until it ends or breaks the contract. */
static void *reader_main(void *arg)
{
	struct replica *r = arg;
	bool ok = true;

	while (ok) {
		ssize_t n = read(r->out_fd, r->buf + r->buffered, sizeof(r->buf) - 1 - r->buffered);
		int64_t now_ns = clock_now_ns(), now_us = wall_us();
		char *line = r->buf, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		r->buffered += (size_t)n;
		r->buf[r->buffered] = '\0';
		while (ok && (nl = memchr(line, '\n', r->buffered - (size_t)(line - r->buf)))) {
			*nl = '\0';
			ok = take_line(r, line, now_ns, now_us) == 0;
			atomic_fetch_add(&r->lines, 1);
			line = nl + 1;
		}
		atomic_store(&r->last_line_ns, now_ns);
		r->buffered -= (size_t)(line - r->buf);
		memmove(r->buf, line, r->buffered);
		if (ok && r->buffered >= REPLICA_LINE_MAX) {
			r->buf[REPLICA_LINE_MAX - 1] = '\0';
			r->lineno++;
			broke(r, r->buf, "a line of at most 4095 bytes, ended by a newline");
			ok = false;
		}
	}
	int64_t start = atomic_load(&r->run->start_ns), end = clock_now_ns(), killed = atomic_load(&r->killed_at_ns);

	if (killed && killed < end)
		end = killed;
	end_held(r, start ? end - start : 0);
	r->deaths += !atomic_load(&r->said_stopped);
	atomic_store(&r->ended, true);
	return NULL;
}

/* In the child: its standard input and output are the pipes' ends, signals as by default; then exec. */
static void exec_child(const struct replica *r, int in_read, int out_write)
{
	static const int reset[] = { SIGPIPE, SIGCHLD, SIGINT, SIGTERM, SIGQUIT, SIGHUP };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;

	setpgid(0, 0);
	for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
		sigaction(reset[i], &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(in_read, STDIN_FILENO) < 0 || dup2(out_write, STDOUT_FILENO) < 0)
		_exit(127);
	execve(r->run->program, (char *const *)r->run->argv, r->run->env);
	_exit(127);
}

int replica_start(struct replica *r, char *err, size_t errlen)
{
	int in[2], out[2];

	if (pipe2(in, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(out, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		return -1;
	}
	snprintf(r->run->replica_var, REPLICA_VAR_MAX, "CLAIMBENCH_REPLICA=%d", r->number);
	r->pid = fork();
	if (r->pid == 0)
		exec_child(r, in[0], out[1]);
	close(in[0]);
	close(out[1]);
	r->in_fd = in[1];
	r->out_fd = out[0];
	if (r->pid < 0) {
		snprintf(err, errlen, "cannot start replica %d: %s", r->index, strerror(errno));
		r->pid = 0;
		return -1;
	}
	setpgid(r->pid, r->pid);
	atomic_store(&r->last_line_ns, clock_now_ns());
	if (pthread_create(&r->thread, NULL, reader_main, r) != 0) {
		snprintf(err, errlen, "cannot start replica %d's reader thread", r->index);
		replica_kill(r);
		return -1;
	}
	r->reading = true;
	return 0;
}

int replica_send(struct replica *r, const char *text, size_t len)
{
	while (len && r->in_fd >= 0) {
		ssize_t n = write(r->in_fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		text += n;
		len -= (size_t)n;
	}
	return len ? -1 : 0;
}

void replica_close_input(struct replica *r)
{
	if (r->in_fd >= 0)
		close(r->in_fd);
	r->in_fd = -1;
}

void replica_kill(struct replica *r)
{
	if (r->pid > 0 && r->exit_status < 0) {
		atomic_store(&r->killed_at_ns, clock_now_ns());
		kill(-r->pid, SIGKILL);
		kill(r->pid, SIGKILL);
		r->killed = true;
	}
}

void replica_reap(struct replica *r)
{
	if (r->reading)
		pthread_join(r->thread, NULL);
	r->reading = false;
	if (r->pid > 0 && r->exit_status < 0) {
		int status;

		while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
			;
		r->exit_status = status;
	}
	replica_close_input(r);
	if (r->out_fd >= 0)
		close(r->out_fd);
	r->out_fd = -1;
}

int replica_respawn(struct replica *r, int number, int64_t at_ns, char *err, size_t errlen)
{
	r->number = number;
	r->pid = 0;
	r->exit_status = -1;
	r->killed = false;
	r->buffered = 0;
	r->lineno = 0;
	atomic_store(&r->killed_at_ns, 0);
	atomic_store(&r->ready, false);
	atomic_store(&r->said_stopped, false);
	atomic_store(&r->ended, false);
	for (int w = 0; w < r->run->workers; w++)
		r->seats[w].last_end_ns = at_ns;
	return replica_start(r, err, errlen);
}

void replica_free(struct replica *r)
{
	ledger_free(&r->ledger);
	free(r->stats);
	free(r->seats);
	r->stats = NULL;
	r->seats = NULL;
}
