// claimbench's graphile-worker adapter (contract version 1, docs/adapters.md): graphile-worker's
// own migration (its schema, under the run's name CLAIMBENCH_QUEUE), enqueue (addJobs, through
// its add_jobs function), claim (its runner's get_job: FOR UPDATE SKIP LOCKED, the row's
// locked_at and locked_by set to the worker pool's id) and completion (its runner deletes the
// job's row). Its runner runs WORKER_COUNT workers (concurrency); each job's task reports its
// steps on standard output; its messages go to standard error.
'use strict'

const { EventEmitter } = require('node:events')
const readline = require('node:readline')
const pg = require('pg')
const { Logger, makeWorkerUtils, run, runMigrations } = require('graphile-worker')

const env = process.env
const TASK = 'claimbench'
const workers = Number(env.WORKER_COUNT)
const emptyWaitMs = Number(env.CLAIMBENCH_EMPTY_WAIT_MS || 5)
const replica = Number(env.CLAIMBENCH_REPLICA || 0)
const schema = env.CLAIMBENCH_QUEUE
// How often, in ms, each replica looks for the locks of a replica whose process ended, and
// gives them back with graphile-worker's forceUnlockWorkers; unset or 0: never, and a dead
// replica's jobs stay locked until the library's own 4-hour timeout.
const unlockDeadMs = Number(env.GRAPHILE_WORKER_UNLOCK_DEAD_MS || 0)

// The database claimbench names (a libpq conninfo, keyword=value, or a URL) as node-postgres' settings.
function connection (target) {
  if (/^postgres(ql)?:\/\//.test(target)) return { connectionString: target }
  const names = { host: 'host', port: 'port', dbname: 'database', user: 'user', password: 'password' }
  const settings = {}
  for (const pair of target.trim().split(/\s+/)) {
    const eq = pair.indexOf('=')
    if (eq > 0 && names[pair.slice(0, eq)]) settings[names[pair.slice(0, eq)]] = pair.slice(eq + 1)
  }
  return settings
}

// One contract line, written whole.
function say (line) {
  process.stdout.write(line + '\n')
}

// The adapter's own clock on each line: Unix time in microseconds.
function nowUs () {
  return Math.round((performance.timeOrigin + performance.now()) * 1000)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// graphile-worker's messages, warnings and errors only, to standard error (standard output is the contract's).
const logger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') process.stderr.write(`graphile-worker adapter: ${message}\n`)
})

// Each of the runner's workers (graphile-worker's worker objects) -> its seat: index (0 to
// W-1) and done, a promise settled when its last job's completion has committed.
const seats = new Map()
// Each job in hand (graphile-worker's job id) -> { id, attempt, seat, committed }: claimbench's
// job id, the attempt, its seat, and the function that settles the seat's done.
const inHand = new Map()

// The library's completion of the jobs ids (graphile-worker's ids) has committed: each one's
// finished line, then its seat is free for the next claimed line.
function completed (ids) {
  for (const gid of ids) {
    const job = inHand.get(String(gid))
    if (!job) continue
    inHand.delete(String(gid))
    say(`finished ${job.id} ${job.attempt} ${job.seat.index} ${nowUs()}`)
    job.committed()
  }
}

// node-postgres' client, noting when a statement graphile-worker prepares as its completion
// (complete_job, complete_job_q, complete_jobs: the DELETE of the jobs' rows, autocommitted)
// has returned: its runner neither awaits that commit before its worker's next claim nor says
// when it happened.
class CompletionClient extends pg.Client {
  query (config, values, callback) {
    const result = super.query(config, values, callback)
    if (config && typeof config.name === 'string' && config.name.startsWith('complete_job') &&
        result && typeof result.then === 'function') {
      const ids = [].concat(config.values[0])
      result.then(() => completed(ids), () => {})
    }
    return result
  }
}

// The task: its claimed and started lines once its seat's previous completion has committed,
// then the job's work; the runner completes it when it returns.
async function task (payload, helpers) {
  const job = inHand.get(String(helpers.job.id))
  await job.seat.done
  job.seat.done = new Promise((resolve) => { job.committed = resolve })
  say(`claimed ${payload.id} ${job.attempt} ${job.seat.index} ${nowUs()}`)
  say(`started ${payload.id} ${job.attempt} ${job.seat.index} ${nowUs()}`)
  await sleep(payload.work_us / 1000)
}

// The runner's events: each worker's seat as it is made, each job in hand as its worker takes it.
function runnerEvents () {
  const events = new EventEmitter()
  events.on('worker:create', ({ worker }) => {
    seats.set(worker, { index: seats.size, done: Promise.resolve() })
  })
  events.on('job:start', ({ worker, job }) => {
    inHand.set(String(job.id), { id: job.payload.id, attempt: job.attempts, seat: seats.get(worker), committed: null })
  })
  return events
}

// Replica liveness: each replica holds a session advisory lock keyed by its worker pool's id
// (graphile-worker's locked_by) on a connection of its own, taken when the pool is made and
// before its workers' first claim; a lock another session can take is a pool whose process ended.
// A connection cut (a server restart) is made anew and the locks taken again; until every
// replica has had time to do so (RECONNECT_GRACE_MS since its own), no lock is judged.
const RECONNECT_GRACE_MS = 3000
class Liveness {
  constructor (settings) {
    this.settings = settings // node-postgres' settings
    this.pools = [] // the worker pools whose locks it holds
    this.client = null // its connection, null while it is being made
    this.since = 0 // when it was made (Date.now())
    this.cut = false // a connection of it was cut before
  }

  async connect () {
    const client = new pg.Client(this.settings)
    client.on('error', (err) => {
      process.stderr.write(`graphile-worker adapter: liveness: ${err.message}\n`)
      if (this.client !== client) return
      this.client = null
      this.cut = true
      this.reconnect()
    })
    try {
      await client.connect()
      for (const pool of this.pools) await client.query('select pg_advisory_lock(hashtext($1))', [pool])
    } catch (err) {
      client.end().catch(() => {})
      throw err
    }
    this.client = client
    this.since = Date.now()
  }

  reconnect () {
    this.connect().catch(() => setTimeout(() => this.reconnect(), 100))
  }

  // Holds pool's lock from now on.
  async hold (pool) {
    this.pools.push(pool)
    if (this.client) await this.client.query('select pg_advisory_lock(hashtext($1))', [pool])
  }

  // Whether other pools' locks can be judged now: connected, and past the grace after a cut.
  judging () {
    return this.client !== null && (!this.cut || Date.now() - this.since >= RECONNECT_GRACE_MS)
  }

  async end () {
    if (this.client) await this.client.end()
  }
}

// One look for the locks of pools whose process ended: each is given back with forceUnlockWorkers.
async function unlockDead (liveness, utils) {
  if (!liveness.judging()) return
  const client = liveness.client
  const { rows } = await client.query(
    `select distinct locked_by from ${pg.escapeIdentifier(schema)}.jobs where locked_by is not null and not (locked_by = any($1::text[]))`,
    [liveness.pools])
  for (const { locked_by: pool } of rows) {
    const { rows: [probe] } = await client.query('select pg_try_advisory_lock(hashtext($1)) as free', [pool])
    if (!probe.free) continue
    await client.query('select pg_advisory_unlock(hashtext($1))', [pool])
    await utils.forceUnlockWorkers([pool])
    process.stderr.write(`graphile-worker adapter: replica ${replica}: pool ${pool}'s process ended; its jobs unlocked (forceUnlockWorkers)\n`)
  }
}

async function main () {
  const settings = connection(env.DATABASE_URL)
  const pgPool = new pg.Pool({ ...settings, max: workers + 3, Client: CompletionClient })
  const poolError = (err) => process.stderr.write(`graphile-worker adapter: ${err.message}\n`)
  pgPool.on('error', poolError)
  pgPool.on('connect', (client) => client.on('error', poolError))
  const options = { pgPool, schema, logger }
  if (replica === 0) await runMigrations(options)
  const utils = await makeWorkerUtils(options)
  const liveness = new Liveness(settings)
  await liveness.connect()
  say('ready')

  const input = readline.createInterface({ input: process.stdin })
  const pending = []
  let enqueued = 0
  let runner = null
  let sweeper = null
  for await (const line of input) {
    const words = line.split(' ')
    if (words[0] === 'enqueue') {
      pending.push({ identifier: TASK, payload: { id: Number(words[1]), work_us: Number(words[2]) } })
    } else if (words[0] === 'flush') {
      const batch = pending.splice(0)
      if (batch.length) await utils.addJobs(batch)
      enqueued += batch.length
      say(`enqueued ${enqueued}`)
    } else if (words[0] === 'start') {
      const events = runnerEvents()
      events.on('pool:create', ({ workerPool }) => {
        liveness.hold(workerPool.id)
          .catch((err) => process.stderr.write(`graphile-worker adapter: liveness lock: ${err.message}\n`))
      })
      runner = await run({
        ...options,
        concurrency: workers,
        pollInterval: emptyWaitMs,
        noHandleSignals: true,
        events,
        taskList: { [TASK]: task }
      })
      if (unlockDeadMs > 0) {
        sweeper = setInterval(() => {
          unlockDead(liveness, utils)
            .catch((err) => process.stderr.write(`graphile-worker adapter: unlocking dead pools: ${err.message}\n`))
        }, unlockDeadMs)
      }
    } else if (words[0] === 'stop') {
      break
    }
  }
  if (sweeper) clearInterval(sweeper)
  if (runner) await runner.stop()
  await utils.release()
  await liveness.end()
  await pgPool.end()
  say('stopped')
  process.exit(0)
}

main().catch((err) => {
  process.stderr.write(`graphile-worker adapter: ${err.stack || err}\n`)
  process.exit(1)
})
