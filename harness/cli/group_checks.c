/*
 * The rules a run group is checked by before anything runs (group_checks.h): its options
 * together, then against the driver it will run on.
 */
#include <stdio.h>
#include <string.h>

#include "adapter/manifest.h"
#include "cli/group_checks.h"
#include "cli/pooler_checks.h"
#include "plugin/guard.h"
#include "plugin/sql_strategy.h"
#include "plugin/strategy.h"

/* Gives each strategy its mode (its own, the --claim-mode one or its default) and checks it supports it. */
static int settle_modes(struct run_config *cfg, char *err, size_t errlen)
{
	for (size_t i = 0; i < cfg->n_strategies; i++) {
		struct strategy_choice *c = &cfg->strategies[i];

		if (c->mode == MODE_COUNT)
			c->mode = cfg->claim_mode != MODE_COUNT ? cfg->claim_mode : c->ops->default_mode;
		if (!(c->ops->modes & MODE_BIT(c->mode))) {
			snprintf(err, errlen, "strategy %s has no %s claim mode (it supports %s%s%s)", c->ops->name,
				 claim_mode_name(c->mode),
				 c->ops->modes & MODE_BIT(MODE_HOLD) ? claim_mode_name(MODE_HOLD) : "",
				 c->ops->modes == (MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP)) ? " and " : "",
				 c->ops->modes & MODE_BIT(MODE_FLIP) ? claim_mode_name(MODE_FLIP) : "");
			return -1;
		}
	}
	return 0;
}

/*
 * The first option given that only a queue run of built-in strategies runs, or NULL:
 * faults (but the server's at instants, --restart-at and --kill-backend-at, when
 * server_at_ok), a timeline, arrivals, MVCC pressure, leases, pipelines.
 */
static const char *builtin_queue_option(const struct run_config *cfg, bool server_at_ok)
{
	for (int k = 0; k < FAULT_KIND_COUNT; k++)
		if ((cfg->faults.when[k].n_at && !(server_at_ok && (k == FAULT_RESTART || k == FAULT_KILL_BACKEND))) ||
		    cfg->faults.when[k].n_exec || cfg->faults.when[k].rate > 0)
			return "the faults (--crash-at ...)";
	if (cfg->timeline.n)
		return "a timeline (--phase)";
	if (cfg->arrival_rate > 0)
		return "--arrival-rate";
	if (cfg->pressure.snapshot_s > 0 || cfg->pressure.vacuum.n_at)
		return "MVCC pressure (--snapshot-at, --vacuum-at)";
	if (cfg->recovery.lease_ms || cfg->rerun_errors)
		return "leases and re-runs (--lease-ms, --rerun-errors)";
	if (cfg->db_opts.pipeline)
		return "--pipeline";
	return NULL;
}

/*
 * The first option given that only the queue workload runs, or NULL: builtin_queue_option's
 * and --verify (a guarded run samples no server: --sample-ms does not apply, whatever its value).
 */
static const char *queue_only_option(const struct run_config *cfg)
{
	const char *option = builtin_queue_option(cfg, false);

	return option ? option : cfg->verify ? "--verify" : NULL;
}

/*
 * Makes cfg's timeline its timed run: each phase's duration multiplied by --phase-scale, the
 * phases' sum its duration, the warmup phases at its start its warm-up. A warmup phase after another kind is refused (a warm-up is the run's
 * start), so are an arrival rate of 0 and phases longer than TIMELINE_MAX_TOTAL_S in all.
 * 0, or -1 with err.
 */
static int settle_timeline(struct run_config *cfg, char *err, size_t errlen)
{
	struct timeline *tl = &cfg->timeline;
	size_t i = 0;

	for (size_t k = 0; k < tl->n; k++) {
		tl->steps[k].duration_s *= cfg->phase_scale;
		if (tl->steps[k].duration_s < 0.001 || tl->steps[k].duration_s > TIMELINE_MAX_TOTAL_S) {
			snprintf(err, errlen, "--phase-scale %g: phase %zu (%s) would last %g s; a phase lasts from 1 ms to "
				 "%g s", cfg->phase_scale, k + 1, timeline_kind_names[tl->steps[k].kind],
				 tl->steps[k].duration_s, (double)TIMELINE_MAX_TOTAL_S);
			return -1;
		}
		if (tl->steps[k].kind == TIMELINE_CRASH_WORKERS && !tl->steps[k].arg_share) {
			for (size_t p = 0; p < cfg->n_worker_points; p++)
				if (cfg->workers[p] < tl->steps[k].arg) {
					snprintf(err, errlen, "--phase crash-workers:%g: more crashes at once than the run's %d "
						 "workers (a share, crash-workers:N%%, takes each worker count's own)",
						 tl->steps[k].arg, cfg->workers[p]);
					return -1;
				}
		}
	}
	while (i < tl->n && tl->steps[i].kind == TIMELINE_WARMUP)
		i++;
	if (i == tl->n) {
		snprintf(err, errlen, "--phase: a timeline of warmup phases only measures nothing: add a clean phase");
		return -1;
	}
	for (; i < tl->n; i++) {
		if (tl->steps[i].kind == TIMELINE_WARMUP) {
			snprintf(err, errlen, "--phase: warmup is phase %zu, after a %s phase: a warm-up comes first", i + 1,
				 timeline_kind_names[tl->steps[i - 1].kind]);
			return -1;
		}
	}
	if (!(cfg->arrival_rate > 0)) {
		snprintf(err, errlen, "--phase needs --arrival-rate above 0: a timeline's producers insert at the arrival "
			 "rate, which a load phase scales (got %g)", cfg->arrival_rate);
		return -1;
	}
	if (timeline_total_s(tl) > TIMELINE_MAX_TOTAL_S) {
		snprintf(err, errlen, "--phase: the phases last %g s in all, more than a run may (%d s, as --duration)",
			 timeline_total_s(tl), TIMELINE_MAX_TOTAL_S);
		return -1;
	}
	cfg->duration_s = timeline_total_s(tl);
	cfg->warmup_s = timeline_warmup_s(tl);
	return 0;
}

/*
 * Refuses in a guarded group what its workload would ignore or what would stall it: a
 * claim mode, drawn use times, the resource workload's settings elsewhere, exclusive-use
 * without a user, abandoned tickets that nothing expires. 0, or -1 with err.
 */
static int check_guarded_settings(const struct run_config *cfg, const char *workload, char *err, size_t errlen)
{
	const struct guarded_plan *p = &cfg->guarded;

	if (cfg->claim_mode != MODE_COUNT || cfg->work_dist != WORK_FIXED) {
		snprintf(err, errlen, "--%s: the queue workload's; a guarded workload has no claim mode, and its uses "
			 "take --work-ms each", cfg->claim_mode != MODE_COUNT ? "claim-mode" : "work-dist");
		return -1;
	}
	if (p->workload != WORKLOAD_RESOURCE && (p->resources != 1 || p->limit != 1 || p->write_share > 0 ||
						  p->ticket_expiry_ms || p->abandon_share > 0)) {
		snprintf(err, errlen, "--resources, --limit, --write-share, --ticket-expiry-ms and --abandon-share are "
			 "the resource workload's, not the %s workload's", workload);
		return -1;
	}
	for (size_t i = 0; p->workload == WORKLOAD_EXCLUSIVE_USE && i < cfg->n_worker_points; i++) {
		if (cfg->workers[i] < 2) {
			snprintf(err, errlen, "--workers %d: exclusive-use needs 2 or more (seat 0 refreshes, the others "
				 "use the cache)", cfg->workers[i]);
			return -1;
		}
	}
	if (p->abandon_share > 0 && !p->ticket_expiry_ms) {
		snprintf(err, errlen, "--abandon-share needs --ticket-expiry-ms: nothing else removes a dead holder's "
			 "ticket, and its resource would stay blocked to the run's end");
		return -1;
	}
	return 0;
}

/*
 * Refuses what the group's workload does not run: --guard for the queue, --strategy and
 * the queue's own options for a guarded one. 0, or -1 with err.
 */
static int check_workload(const struct run_config *cfg, char *err, size_t errlen)
{
	const char *workload = workload_name((enum workload)cfg->guarded.workload);
	const char *queue_only = queue_only_option(cfg);

	if (cfg->guarded.workload == WORKLOAD_QUEUE) {
		if (cfg->guarded.all_guards)
			return 0;
		snprintf(err, errlen, "--guard chooses the guards of a guarded workload (--workload refresh, exclusive-use "
			 "or resource); the queue workload runs --strategy");
		return -1;
	}
	if (!cfg->all_strategies) {
		snprintf(err, errlen, "--strategy chooses the queue workload's strategies; the %s workload runs --guard "
			 "(claimbench list guards)", workload);
		return -1;
	}
	if (queue_only) {
		snprintf(err, errlen, "%s: the queue workload's, not the %s workload's (docs/guarded.md)", queue_only,
			 workload);
		return -1;
	}
	return check_guarded_settings(cfg, workload, err, errlen);
}

/*
 * Refuses --lease-ms for a strategy defined in SQL whose claim marks its job active itself
 * (it writes :worker) in flip mode but sets no lease ({lease_until}): the job's lease_until
 * would stay NULL, never run out, and a crashed worker's job would be lost to the lease and
 * the reaper alike. The error names the claim's file and line. 0, or -1 with err.
 */
static int check_sql_lease(const struct run_config *cfg, char *err, size_t errlen)
{
	const struct sql_strategy *def;

	for (size_t i = 0; cfg->recovery.lease_ms && i < cfg->n_strategies; i++) {
		def = sql_strategy_of(cfg->strategies[i].ops);
		if (!def || !def->claim_marks || cfg->strategies[i].mode != MODE_FLIP ||
		    strstr(def->roles[SQL_ROLE_CLAIM].written, "{lease_until}"))
			continue;
		snprintf(err, errlen, "%s: --lease-ms %d, but the claim sets no lease: it marks its job active itself "
			 "(:worker) and has no {lease_until}, so the job's lease_until stays NULL, never runs out, and "
			 "neither the lease nor a reaper gives a crashed worker's job back; set lease_until = "
			 "{lease_until} in the claim (and take expired jobs with {claimable} when no reaper runs)",
			 def->roles[SQL_ROLE_CLAIM].origin, cfg->recovery.lease_ms);
		return -1;
	}
	return 0;
}

/* Checks what needs several options together. 0, or -1 with err. */
static int check_combination(const struct run_config *cfg, char *err, size_t errlen)
{
	if (check_workload(cfg, err, errlen) < 0)
		return -1;
	if (cfg->work_max_ms > 0 && cfg->work_ms != (cfg->work_min_ms + cfg->work_max_ms) / 2) {
		snprintf(err, errlen, "--work-ms %g and --work-dist uniform:%g-%g disagree: the range's mean is %g ms "
			 "(a range sets the mean; leave --work-ms out)", cfg->work_ms, cfg->work_min_ms, cfg->work_max_ms,
			 (cfg->work_min_ms + cfg->work_max_ms) / 2);
		return -1;
	}
	if (cfg->rerun_errors && cfg->duration_s > 0) {
		snprintf(err, errlen, "--rerun-errors: only a drain run can be re-run (drop --duration)");
		return -1;
	}
	if (cfg->warmup_s > 0 && cfg->warmup_s >= cfg->duration_s) {
		if (cfg->duration_s > 0)
			snprintf(err, errlen, "--warmup %g must be shorter than the run (--duration %g)", cfg->warmup_s,
				 cfg->duration_s);
		else
			snprintf(err, errlen, "--warmup needs a timed run (--duration): a drain run's figures are the "
				 "whole drain");
		return -1;
	}
	if (cfg->pressure.snapshot_at_s > 0 && cfg->pressure.snapshot_s <= 0) {
		snprintf(err, errlen, "--snapshot-at needs --snapshot-s: how long the snapshot is held");
		return -1;
	}
	if (cfg->duration_s > 0 && cfg->pressure.snapshot_s > 0 && cfg->pressure.snapshot_at_s >= cfg->duration_s) {
		snprintf(err, errlen, "--snapshot-at %g: that instant is beyond the run's end (--duration %g)",
			 cfg->pressure.snapshot_at_s, cfg->duration_s);
		return -1;
	}
	for (size_t i = 0; cfg->duration_s > 0 && i < cfg->pressure.vacuum.n_at; i++) {
		if (cfg->pressure.vacuum.at_s[i] >= cfg->duration_s) {
			snprintf(err, errlen, "--vacuum-at %g: that instant is beyond the run's end (--duration %g)",
				 cfg->pressure.vacuum.at_s[i], cfg->duration_s);
			return -1;
		}
	}
	if (cfg->arrival_rate > 0 && run_config_arrival_s(cfg) <= 0) {
		snprintf(err, errlen, "--arrival-rate in a drain run needs --arrival-s: how long the producers "
			 "insert (a timed run's default is its --duration)");
		return -1;
	}
	if ((cfg->recovery.heartbeat_ms || cfg->recovery.reaper_ms) && !cfg->recovery.lease_ms) {
		snprintf(err, errlen, "--%s needs --lease-ms: it works on leases", cfg->recovery.heartbeat_ms ? "heartbeat-ms" :
			 "reaper-ms");
		return -1;
	}
	if (cfg->recovery.heartbeat_ms >= cfg->recovery.lease_ms && cfg->recovery.heartbeat_ms) {
		snprintf(err, errlen, "--heartbeat-ms %d must be shorter than --lease-ms %d, or the lease runs out between beats",
			 cfg->recovery.heartbeat_ms, cfg->recovery.lease_ms);
		return -1;
	}
	for (int k = 0; cfg->duration_s > 0 && k < FAULT_KIND_COUNT; k++) {
		for (size_t i = 0; i < cfg->faults.when[k].n_at; i++) {
			if (cfg->faults.when[k].at_s[i] >= cfg->duration_s) {
				snprintf(err, errlen, "--%s-at %g: that instant is beyond the run's end (--duration %g)",
					 fault_kind_names[k], cfg->faults.when[k].at_s[i], cfg->duration_s);
				return -1;
			}
		}
	}
	if (cfg->arrival_rate * run_config_arrival_s(cfg) > 100000000 - (double)cfg->jobs) {
		snprintf(err, errlen, "--arrival-rate x --arrival-s: at most %ld jobs with the backlog of %ld",
			 100000000L, cfg->jobs);
		return -1;
	}
	return 0;
}

/* The first adapter cfg runs, or NULL. */
static const struct strategy_ops *first_adapter(const struct run_config *cfg)
{
	for (size_t i = 0; i < cfg->n_strategies; i++)
		if (adapter_of_strategy(cfg->strategies[i].ops))
			return cfg->strategies[i].ops;
	return NULL;
}

/* The first adapter of cfg whose manifest says --verify cannot check it, or NULL. */
static const struct adapter_manifest *unverifiable_adapter(const struct run_config *cfg)
{
	for (size_t i = 0; i < cfg->n_strategies; i++) {
		const struct adapter_manifest *m = adapter_of_strategy(cfg->strategies[i].ops);

		if (m && *m->no_verify)
			return m;
	}
	return NULL;
}

/*
 * Refuses in a group that runs an adapter what contract version 1 does not run for one (the
 * faults but --crash-replica-at, --restart-at and --kill-backend-at, arrivals, pressure, leases, pipelines, timed runs, several
 * queues, a pooler; --verify of an adapter whose manifest says it cannot be), and the
 * adapters' own options in a group that runs none. 0, or -1 with err.
 */
static int check_adapters(const struct run_config *cfg, char *err, size_t errlen)
{
	const struct strategy_ops *adapter = first_adapter(cfg);
	const struct adapter_manifest *unverifiable = cfg->verify ? unverifiable_adapter(cfg) : NULL;
	const char *option = builtin_queue_option(cfg, true);

	if (!adapter) {
		if (cfg->replicas == 1 && cfg->crash_replica_at_s == 0 && cfg->replica_respawn_ms == 0)
			return 0;
		snprintf(err, errlen, "%s: only an adapter's run has replicas (--strategy adapter:NAME)",
			 cfg->replicas != 1 ? "--replicas" : cfg->crash_replica_at_s ? "--crash-replica-at"
			 : "--replica-respawn-ms");
		return -1;
	}
	if (cfg->replica_respawn_ms && cfg->crash_replica_at_s == 0) {
		snprintf(err, errlen, "--replica-respawn-ms replaces the replica --crash-replica-at kills; without it "
			 "no replica is killed");
		return -1;
	}
	if (!option && cfg->duration_s > 0)
		option = "--duration";
	if (!option && cfg->n_queues > 1)
		option = "--queue with several queues";
	if (!option && cfg->pooler != POOLER_NONE)
		option = "--pooler";
	if (!option && cfg->recovery.rerun_stuck)
		option = "--rerun-stuck";
	if (!option && unverifiable) {
		snprintf(err, errlen, "adapter:%s: --verify cannot check it: %s (docs/adapters.md)", unverifiable->name,
			 unverifiable->no_verify);
		return -1;
	}
	if (!option)
		return 0;
	snprintf(err, errlen, "%s: not for an adapter's run yet: %s (contract version 1 runs drains of a backlog, its "
		 "faults --crash-replica-at, --restart-at and --kill-backend-at; docs/adapters.md)", adapter->name, option);
	return -1;
}

int group_check_alone(struct run_config *cfg, char *err, size_t errlen)
{
	if (cfg->timeline.n && settle_timeline(cfg, err, errlen) < 0)
		return -1;
	if (settle_modes(cfg, err, errlen) < 0 || check_sql_lease(cfg, err, errlen) < 0 ||
	    check_adapters(cfg, err, errlen) < 0)
		return -1;
	return check_combination(cfg, err, errlen);
}

/* Writes into buf why strategy st cannot run on db. */
static void refusal_reason(const struct strategy_ops *st, const struct backend_ops *db, char *buf, size_t len)
{
	unsigned missing = st->needs_caps[db->dialect] & ~db->caps;

	if (!missing) {
		if (st->no_sql_reason[db->dialect])
			snprintf(buf, len, "%s", st->no_sql_reason[db->dialect]);
		else
			snprintf(buf, len, "it has no SQL for %s", db->name);
		return;
	}
	if (missing & CAP_LISTEN_NOTIFY) {
		snprintf(buf, len, "it needs LISTEN/NOTIFY, which %s does not have: no connection can wake another "
			 "waiting for new jobs", db->name);
		return;
	}
	snprintf(buf, len, "it needs %s, and %s", missing & CAP_SKIP_LOCKED ? "FOR UPDATE SKIP LOCKED" :
		 missing & CAP_NOWAIT ? "FOR UPDATE NOWAIT" : missing & CAP_ROW_LOCKS ? "row locks" :
		 "advisory locks", db->locking);
}

/*
 * Why db cannot run a fault phase or a pool-exhaustion of kind under cfg, or NULL when it
 * can (or kind is neither): kill-backends and restart-server need a server (CAP_SERVER),
 * a restart of a server of one's own --restart-command, as --restart-at does; a
 * pool-exhaustion needs a server and the backend's count of sessions by name.
 */
static const char *fault_phase_refusal(const struct run_config *cfg, const struct backend_ops *db,
				       enum timeline_kind kind)
{
	bool server = db->caps & CAP_SERVER;

	switch (kind) {
	case TIMELINE_KILL_BACKENDS:
		return server ? NULL : "it has no server process to terminate";
	case TIMELINE_RESTART_SERVER:
		if (!server)
			return "it has no server to restart";
		return cfg->target && !cfg->faults.restart_command ? "on a server of your own it needs --restart-command: "
								     "claimbench restarts only the throwaway server by itself"
								   : NULL;
	case TIMELINE_POOL_EXHAUSTION:
		if (!server)
			return "it has no server whose connections the pool could exhaust";
		if (cfg->target)
			return "on a server of your own it would take the connections its other clients (an administrator's "
			       "too) need: claimbench exhausts only the throwaway server's";
		return db->sql->timeline && db->sql->timeline->sessions_named ? NULL
			: "its pool-exhaustion phase is not built yet (no count of the pool's sessions)";
	default:
		return NULL;
	}
}

/*
 * Refuses a phase kind the timeline's backend does not build: vacuum where it vacuums no
 * table of its own (CAP_VACUUM), the fault phases and pool-exhaustion where it has no
 * server (fault_phase_refusal), idle-in-tx, held-snapshot, active-readers and long-writer
 * where it builds no pressure phase (backend_ops.no_pressure_phases says why) or not that
 * one (its timeline SQL's refusals). 0, or -1 with err.
 */
static int check_timeline_on(const struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen)
{
	for (size_t i = 0; i < cfg->timeline.n; i++) {
		enum timeline_kind kind = cfg->timeline.steps[i].kind;
		const char *why = fault_phase_refusal(cfg, db, kind);

		if (why) {
			snprintf(err, errlen, "--phase %s cannot run on %s: %s", timeline_kind_names[kind], db->name, why);
			return -1;
		}
		if (kind != TIMELINE_IDLE_IN_TX && kind != TIMELINE_HELD_SNAPSHOT && kind != TIMELINE_ACTIVE_READERS &&
		    kind != TIMELINE_VACUUM && kind != TIMELINE_LONG_WRITER)
			continue;
		if (kind == TIMELINE_VACUUM)
			why = db->caps & CAP_VACUUM ? NULL : "the phase vacuums the queue table alone, beside running "
							     "claims, and it has no such vacuum";
		else
			why = db->sql->timeline ? db->sql->timeline->refusals[kind] : db->no_pressure_phases;
		if (why) {
			snprintf(err, errlen, "--phase %s cannot run on %s: %s", timeline_kind_names[kind], db->name, why);
			return -1;
		}
	}
	return 0;
}

/*
 * Refuses, before anything runs, --pipeline where db has no pipelines, a phase kind db does
 * not build, and a strategy that was asked for by name and cannot run on db, saying why.
 * With --strategy all the ones db cannot run are left out instead, with a note on stderr;
 * never is another strategy run in their place. 0, or -1 with err.
 */
static int check_backend(struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen)
{
	size_t kept = 0;
	char why[256];

	if (check_timeline_on(cfg, db, err, errlen) < 0)
		return -1;
	if (cfg->db_opts.pipeline && !db->exec_pipeline) {
		snprintf(err, errlen, "--pipeline cannot run on %s: its statements make no network round trips to save",
			 db->name);
		return -1;
	}
	for (size_t i = 0; i < cfg->n_strategies; i++) {
		const struct strategy_ops *st = cfg->strategies[i].ops;

		if (strategy_runs_on(st, db)) {
			cfg->strategies[kept++] = cfg->strategies[i];
			continue;
		}
		refusal_reason(st, db, why, sizeof(why));
		if (!cfg->all_strategies) {
			snprintf(err, errlen, "strategy %s cannot run on %s: %s", st->name, db->name, why);
			return -1;
		}
		fprintf(stderr, "claimbench: leaving out %s, which cannot run on %s: %s\n", st->name, db->name, why);
		cfg->left_out[cfg->n_left_out++] = st->name;
	}
	cfg->n_strategies = kept;
	return 0;
}

/* Whether claimbench makes a standby of db's throwaway server (struct backend_throwaway.add_standby). */
static bool makes_standby(const struct backend_ops *db)
{
	return db->throwaway && db->throwaway->add_standby;
}

/*
 * Refuses a standby or a failover where claimbench cannot make or cause one: a standby of
 * anything but a throwaway server whose backend makes one, a failover command where
 * claimbench fails over itself or would not run it (a backend without CAP_FAILOVER, no
 * --failover-at), a failover of a user's server without one, of the throwaway without a
 * standby, more than one failover in a run (the old primary stays down). 0, or -1 with err.
 */
static int check_failover(const struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen)
{
	const struct fault_trigger *failover = &cfg->faults.when[FAULT_FAILOVER];

	if (cfg->faults.standby != STANDBY_NONE && !makes_standby(db)) {
		snprintf(err, errlen, "--standby %s cannot run on %s: claimbench makes no standby of its throwaway %s "
			 "server", standby_mode_names[cfg->faults.standby], db->name, db->name);
		return -1;
	}
	if (cfg->faults.standby != STANDBY_NONE && cfg->target) {
		snprintf(err, errlen, "--standby %s: claimbench makes a standby of its throwaway %s server only; for your "
			 "own primary and standby give --db a multi-host conninfo (target_session_attrs=read-write) and "
			 "--failover-command", standby_mode_names[cfg->faults.standby], db->name);
		return -1;
	}
	if (!(db->caps & CAP_FAILOVER) && failover->n_at) {
		snprintf(err, errlen, "--failover-at cannot run on %s: it has no server claimbench fails over", db->name);
		return -1;
	}
	if (cfg->faults.failover_command && (!(db->caps & CAP_FAILOVER) || !failover->n_at)) {
		snprintf(err, errlen, "--failover-command fails over a server of your own at --failover-at; %s%s",
			 !(db->caps & CAP_FAILOVER) ? db->name : "give --failover-at",
			 !(db->caps & CAP_FAILOVER) ? " has no server claimbench fails over" : "");
		return -1;
	}
	if (cfg->faults.failover_command && !cfg->target) {
		snprintf(err, errlen, "--failover-command fails over a server of your own (--db CONNINFO); the "
			 "throwaway one's standby (--standby) is claimbench's, which promotes it itself: drop "
			 "--failover-command");
		return -1;
	}
	if (failover->n_at && cfg->target && !cfg->faults.failover_command) {
		snprintf(err, errlen, "--failover-at on a server of your own needs --failover-command: claimbench fails "
			 "over only the throwaway server's standby by itself");
		return -1;
	}
	if (failover->n_at && !cfg->target && cfg->faults.standby == STANDBY_NONE) {
		snprintf(err, errlen, "--failover-at needs a standby to promote: give --standby async, sync or "
			 "remote-apply");
		return -1;
	}
	if (cfg->faults.when[FAULT_RESTART].n_at && cfg->faults.standby != STANDBY_NONE) {
		snprintf(err, errlen, "--restart-at with --standby: claimbench restarts a throwaway server without a "
			 "standby only (a restart of the pair's primary alone is no failover: use --failover-at)");
		return -1;
	}
	if (failover->n_at > 1) {
		snprintf(err, errlen, "--failover-at takes one instant: the old primary stays down, so there is no "
			 "standby left for a second");
		return -1;
	}
	if (cfg->faults.failover_lag_ms && (!failover->n_at || cfg->target)) {
		snprintf(err, errlen, "--failover-lag-ms cuts the throwaway standby off before a failover: %s",
			 cfg->target ? "claimbench cannot cut off a standby of your own" : "give --failover-at");
		return -1;
	}
	return 0;
}

/*
 * Refuses the faults and pressure driver db cannot take (a killed backend or a restart
 * without CAP_SERVER, a VACUUM without CAP_VACUUM), a restart command where claimbench
 * would not run it (no server, the throwaway server) and a restart of a user's server with
 * no command for it. 0, or -1 with err.
 */
static int check_faults(const struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen)
{
	const struct fault_trigger *kill = &cfg->faults.when[FAULT_KILL_BACKEND];
	const struct fault_trigger *restart = &cfg->faults.when[FAULT_RESTART];
	bool server = db->caps & CAP_SERVER;

	if (!server && (kill->n_at || kill->n_exec || kill->rate > 0)) {
		snprintf(err, errlen, "--kill-backend-at, -exec and -rate cannot run on %s: it has no server process to "
			 "terminate", db->name);
		return -1;
	}
	if (!server && restart->n_at) {
		snprintf(err, errlen, "--restart-at cannot run on %s: it has no server to restart", db->name);
		return -1;
	}
	if (!(db->caps & CAP_VACUUM) && cfg->pressure.vacuum.n_at) {
		snprintf(err, errlen, "--vacuum-at cannot run on %s: it vacuums no table of its own beside running claims",
			 db->name);
		return -1;
	}
	if (cfg->faults.restart_command && (!server || !cfg->target)) {
		snprintf(err, errlen, "--restart-command restarts a server of your own (--db CONNINFO) for --restart-at; %s%s",
			 !server ? db->name : "the throwaway server (no --db) is claimbench's, which restarts it itself: "
			 "drop --restart-command", !server ? " has no server to restart" : "");
		return -1;
	}
	if (restart->n_at && cfg->target && !cfg->faults.restart_command) {
		snprintf(err, errlen, "--restart-at on a server of your own needs --restart-command: claimbench restarts "
			 "only the throwaway server by itself");
		return -1;
	}
	return check_failover(cfg, db, err, errlen);
}

/*
 * Keeps in cfg's guarded plan the guards that guard its workload and can run on db with
 * its wait limit. One asked for by name that does not is refused, saying why; --guard all
 * takes those of the workload db can run, with a note for each left out. 0, or -1 with err.
 */
static int check_guards(struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen)
{
	struct guarded_plan *plan = &cfg->guarded;
	unsigned bit = WORKLOAD_BIT(plan->workload);
	const char *workload = workload_name((enum workload)plan->workload);
	size_t kept = 0;
	char why[256];

	if (plan->all_guards)
		for (size_t i = plan->n_guards = 0; i < guard_registry_len && plan->n_guards < MAX_GUARDS; i++)
			if (guard_registry[i]->workloads & bit)
				plan->guards[plan->n_guards++] = guard_registry[i];
	for (size_t i = 0; i < plan->n_guards; i++) {
		const struct guard_ops *g = plan->guards[i];

		if (!(g->workloads & bit)) {
			snprintf(err, errlen, "guard %s does not guard the %s workload (claimbench list guards)", g->name,
				 workload);
			return -1;
		}
		if (guard_runs_on(g, db) && !guard_refuses_wait_limit(g, db, plan->wait_limit_ms, why, sizeof(why))) {
			plan->guards[kept++] = g;
			continue;
		}
		if (!guard_runs_on(g, db))
			guard_refusal(g, db, why, sizeof(why));
		if (!plan->all_guards) {
			snprintf(err, errlen, "guard %s cannot run on %s: %s", g->name, db->name, why);
			return -1;
		}
		fprintf(stderr, "claimbench: leaving out %s, which cannot run on %s: %s\n", g->name, db->name, why);
		cfg->left_out[cfg->n_left_out++] = g->name;
	}
	plan->n_guards = kept;
	if (!kept) {
		snprintf(err, errlen, "no guard of the %s workload asked for can run on %s", workload, db->name);
		return -1;
	}
	return 0;
}

/*
 * Refuses an --autovacuum other than default where it cannot be set: on an engine with no
 * autovacuum (CAP_VACUUM), on a server of the user's (its settings, every database's on it,
 * are not claimbench's to change), beside a standby (a failover's new primary would run
 * with its own settings). 0, or -1 with err.
 */
static int check_autovacuum(const struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen)
{
	const char *why = NULL;

	if (cfg->autovacuum == AUTOVACUUM_DEFAULT)
		return 0;
	if (!(db->caps & CAP_VACUUM))
		why = "it has no autovacuum to set";
	else if (cfg->target)
		why = "on a server of your own it would change the settings of every database on it (ALTER SYSTEM): "
		      "claimbench sets only the throwaway server's";
	else if (cfg->faults.standby != STANDBY_NONE)
		why = "beside a standby it is not built: a failover's new primary would run with settings of its own";
	if (!why)
		return 0;
	snprintf(err, errlen, "--autovacuum %s cannot run on %s: %s", autovacuum_mode_names[cfg->autovacuum], db->name,
		 why);
	return -1;
}

int group_check_on(struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen)
{
	if (cfg->guarded.workload != WORKLOAD_QUEUE) {
		if (check_guards(cfg, db, err, errlen) < 0)
			return -1;
	} else if (check_backend(cfg, db, err, errlen) < 0) {
		return -1;
	}
	if (cfg->guarded.workload == WORKLOAD_QUEUE && cfg->n_strategies == 0) {
		snprintf(err, errlen, "no strategy asked for can run on %s", db->name);
		return -1;
	}
	if (check_faults(cfg, db, err, errlen) < 0 || pooler_check_group(cfg, db, err, errlen) < 0 ||
	    check_autovacuum(cfg, db, err, errlen) < 0)
		return -1;
	if (!(db->caps & CAP_TIMEOUTS) && (cfg->db_opts.lock_timeout_ms || cfg->db_opts.statement_timeout_ms)) {
		snprintf(err, errlen, "--lock-timeout-ms and --statement-timeout-ms cannot run on %s: it has no lock or "
			 "statement timeout%s", db->name, db->set_lock_wait ? " (its own wait for a lock bounds it)" : "");
		return -1;
	}
	if (!(db->caps & CAP_ISOLATION) && cfg->db_opts.isolation != ISOLATION_SERVER) {
		snprintf(err, errlen, "--isolation cannot run on %s: it runs its own default isolation level", db->name);
		return -1;
	}
	return 0;
}

/* The sessions cfg's timeline opens beside the run's own: a holder, and the readers of its largest active-readers phase. */
static int timeline_sessions(const struct timeline *tl)
{
	int readers = 0;

	for (size_t i = 0; i < tl->n; i++)
		if (tl->steps[i].kind == TIMELINE_ACTIVE_READERS && (int)tl->steps[i].arg > readers)
			readers = (int)tl->steps[i].arg;
	return tl->n ? 1 + readers : 0;
}

int group_connections(const struct run_config *cfg)
{
	int most = 0;

	for (size_t p = 0; p < cfg->n_worker_points; p++)
		most = cfg->workers[p] > most ? cfg->workers[p] : most;
	if (cfg->pooler != POOLER_NONE)
		most = cfg->server_connections;
	return most + (run_config_arrivals(cfg) ? cfg->producers : 0) + timeline_sessions(&cfg->timeline) +
	       GROUP_OWN_SESSIONS;
}
