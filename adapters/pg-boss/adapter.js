// claimbench's pg-boss adapter (contract version 1, docs/adapters.md): pg-boss 10's own
// enqueue (insert), claim (fetch: FOR UPDATE SKIP LOCKED, the job flipped to active) and
// completion (complete), in a schema of the run's own (CLAIMBENCH_QUEUE). Each of
// WORKER_COUNT workers is a loop of fetch, the job's work, complete, reporting each step on
// standard output (a completion that fails, its connection cut, as lost); its messages go to
// standard error.
'use strict'

const PgBoss = require('pg-boss')
const readline = require('node:readline')

const env = process.env
const QUEUE = 'claimbench'
const workers = Number(env.WORKER_COUNT)
const emptyWaitMs = Number(env.CLAIMBENCH_EMPTY_WAIT_MS || 5)
const replica = Number(env.CLAIMBENCH_REPLICA || 0)
// pg-boss's expiry of a job in hand, in seconds, when the environment sets it (pg-boss's own
// default, 15 minutes, else), and its maintenance then every second, so that a killed
// replica's jobs come back within a test's time.
const expireS = env.PGBOSS_EXPIRE_IN_SECONDS ? Number(env.PGBOSS_EXPIRE_IN_SECONDS) : 0

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

let stopping = false

// One worker: fetch one job, work it, complete it, until the stop.
async function work (boss, index) {
  while (!stopping) {
    let jobs
    try {
      jobs = await boss.fetch(QUEUE, { batchSize: 1, includeMetadata: true })
    } catch (err) {
      say(`error ${index} fetch: ${String(err.message).split('\n')[0]}`)
      await sleep(emptyWaitMs)
      continue
    }
    if (!jobs.length) {
      await sleep(emptyWaitMs)
      continue
    }
    const job = jobs[0]
    const attempt = job.retryCount + 1
    say(`claimed ${job.data.id} ${attempt} ${index} ${nowUs()}`)
    say(`started ${job.data.id} ${attempt} ${index} ${nowUs()}`)
    await sleep(job.data.work_us / 1000)
    try {
      await boss.complete(QUEUE, job.id)
      say(`finished ${job.data.id} ${attempt} ${index} ${nowUs()}`)
    } catch (err) {
      // its connection cut (a restart): whether the completion committed is unknown, and the
      // job is pg-boss's again to give back by its expiry
      say(`error ${index} complete: ${String(err.message).split('\n')[0]}`)
      say(`lost ${job.data.id} ${attempt} ${index} ${nowUs()}`)
    }
  }
}

async function main () {
  const boss = new PgBoss({
    ...connection(env.DATABASE_URL),
    // its sessions named as claimbench names the run's (pg-boss's own default is 'pgboss')
    ...(env.PGAPPNAME ? { application_name: env.PGAPPNAME } : {}),
    schema: env.CLAIMBENCH_QUEUE,
    max: workers + 2,
    migrate: replica === 0,
    schedule: false,
    ...(expireS ? { expireInSeconds: expireS, maintenanceIntervalSeconds: 1 } : {})
  })
  boss.on('error', (err) => process.stderr.write(`pg-boss adapter: ${err.message}\n`))
  await boss.start()
  if (replica === 0) await boss.createQueue(QUEUE)
  say('ready')

  const input = readline.createInterface({ input: process.stdin })
  const pending = []
  const loops = []
  let enqueued = 0
  for await (const line of input) {
    const words = line.split(' ')
    if (words[0] === 'enqueue') {
      pending.push({ name: QUEUE, data: { id: Number(words[1]), work_us: Number(words[2]) } })
    } else if (words[0] === 'flush') {
      const batch = pending.splice(0)
      if (batch.length) await boss.insert(batch)
      enqueued += batch.length
      say(`enqueued ${enqueued}`)
    } else if (words[0] === 'start') {
      for (let i = 0; i < workers; i++) loops.push(work(boss, i))
    } else if (words[0] === 'stop') {
      break
    }
  }
  stopping = true
  await Promise.all(loops)
  await boss.stop({ graceful: false, wait: true })
  say('stopped')
  process.exit(0)
}

main().catch((err) => {
  process.stderr.write(`pg-boss adapter: ${err.stack || err}\n`)
  process.exit(1)
})
