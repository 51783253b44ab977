"""PgQ behind claimbench's adapter contract, version 1 (docs/adapters.md).

A batch consumer: the run's queue (CLAIMBENCH_QUEUE) and one consumer on it, "claimbench",
which one replica at a time holds (a session advisory lock keyed by the queue's name, taken by
replica 0 before the start, by another once the holder's session is gone). The holder's loop
is PgQ's own: pgq.next_batch, pgq.get_batch_events, the events worked by its WORKER_COUNT
workers, pgq.finish_batch; a batch not finished (its holder killed) is what the next
pgq.next_batch of the consumer returns again. The enqueues are python3-pgq's
bulk_insert_events, WORKER_COUNT events a transaction, each followed by a tick
(pgq.ticker), so that a batch holds at most one event per worker: a worker holds one event
at a time, from its claim to the commit of its batch's finish_batch. pgqd, PgQ's ticker and
maintenance daemon, runs from the start on claimbench's throwaway server alone (on a server of
the user's it would tick and maintain every PgQ queue of the database, not the run's alone; the
producer's own ticks are all a run needs), its files in the run's scratch folder
(CLAIMBENCH_SCRATCH, which claimbench removes after the run), stopped with the replica that
started it (replica 0), or killed with it (its process group). A consumer connection cut (a
server restart) reports its open batch's events as lost, connects anew and competes for the
consumer's lock again.
"""

import os
import shutil
import subprocess
import sys
import threading
import time

CONSUMER = "claimbench"


def refuse(text):
    """Says why this replica cannot run, on stderr, and exits before ready (claimbench's exit 3)."""
    sys.stderr.write("adapter pgq: %s\n" % text)
    sys.exit(3)


try:
    import psycopg2
    import psycopg2.extensions
    import pgq
except ImportError as e:
    refuse("PgQ's Python library is missing for %s (%s): it needs Debian's python3-pgq "
           "(scripts/install-test-deps)" % (sys.executable, e))

OUT_LOCK = threading.Lock()


def say(text):
    """Writes one line of the contract on stdout, whole, with one write; nothing once claimbench is
    gone (its end of the pipe closed: the replica stops at its standard input's end)."""
    with OUT_LOCK:
        try:
            os.write(1, (text + "\n").encode())
        except OSError:
            pass


def now_us():
    """This process's clock, Unix time in microseconds: the lines' own times."""
    return time.time_ns() // 1000


class Settings:
    """What claimbench's environment gives this replica."""

    def __init__(self):
        self.url = os.environ["DATABASE_URL"]            # libpq conninfo of the run's database
        self.queue = os.environ["CLAIMBENCH_QUEUE"]      # the run's queue name: PgQ's queue's
        self.workers = int(os.environ["WORKER_COUNT"])   # workers of this replica
        self.replica = int(os.environ["CLAIMBENCH_REPLICA"])  # 0 makes the queue
        self.empty_wait = int(os.environ["CLAIMBENCH_EMPTY_WAIT_MS"]) / 1000.0  # pause after no batch
        self.throwaway = os.environ.get("CLAIMBENCH_SERVER") == "throwaway"  # the server is claimbench's
        self.scratch = os.environ["CLAIMBENCH_SCRATCH"]  # the run's own folder, removed after the run


def ensure_extension(conn, cfg):
    """The pgq extension in the run's database: created there only on claimbench's throwaway server."""
    cur = conn.cursor()
    cur.execute("SELECT extversion FROM pg_extension WHERE extname = 'pgq'")
    if cur.fetchone():
        return
    cur.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'pgq'")
    if not cur.fetchone():
        refuse("this server's PostgreSQL has no pgq extension: it needs Debian's postgresql-15-pgq3 "
               "(scripts/install-test-deps)")
    if not cfg.throwaway:
        refuse("the database has no pgq extension, and claimbench creates it only in its throwaway "
               "server: run CREATE EXTENSION pgq in this database first (a superuser may)")
    cur.execute("CREATE EXTENSION IF NOT EXISTS pgq")
    conn.commit()


def make_queue(conn, cfg):
    """Replica 0: the run's queue, its consumer, and the view "{queue}".events claimbench reads."""
    cur = conn.cursor()
    cur.execute("SELECT pgq.create_queue(%s)", [cfg.queue])
    # Every ticker call that sees an event ticks: a batch ends where a chunk of enqueues does.
    cur.execute("SELECT pgq.set_queue_config(%s, 'ticker_max_count', '1')", [cfg.queue])
    cur.execute("SELECT pgq.register_consumer(%s, %s)", [cfg.queue, CONSUMER])
    cur.execute("SELECT queue_id, queue_data_pfx FROM pgq.queue WHERE queue_name = %s", [cfg.queue])
    queue_id, events = cur.fetchone()
    # An event is done once it is visible in the snapshot of the consumer's last finished
    # tick; in hand while it is in the batch the consumer has open; else waiting.
    cur.execute('CREATE SCHEMA "%s"' % cfg.queue)
    cur.execute('''CREATE VIEW "%s".events AS
        SELECT e.ev_data::bigint AS job,
               CASE WHEN txid_visible_in_snapshot(e.ev_txid, last.tick_snapshot) THEN 'done'
                    WHEN s.sub_batch IS NOT NULL AND txid_visible_in_snapshot(e.ev_txid, next.tick_snapshot)
                         THEN 'active'
                    ELSE 'waiting' END AS state
        FROM %s e
        CROSS JOIN pgq.subscription s
        JOIN pgq.consumer c ON c.co_id = s.sub_consumer AND c.co_name = '%s'
        JOIN pgq.tick last ON last.tick_queue = s.sub_queue AND last.tick_id = s.sub_last_tick
        LEFT JOIN pgq.tick next ON next.tick_queue = s.sub_queue AND next.tick_id = s.sub_next_tick
        WHERE s.sub_queue = %d''' % (cfg.queue, events, CONSUMER, queue_id))
    conn.commit()


class Producer:
    """Replica 0's enqueues: chunks of WORKER_COUNT events, each committed, then ticked."""

    def __init__(self, conn, cfg):
        self.conn = conn          # the producer's connection
        self.cfg = cfg            # the settings
        self.rows = []            # the chunk not sent yet: [time, type, data (job id), extra1 (work us)]
        self.enqueued = 0         # events committed so far

    def add(self, job, work_us):
        """Queues one enqueue; a full chunk is sent."""
        self.rows.append(["now", "claimbench", str(job), str(work_us)])
        if len(self.rows) == self.cfg.workers:
            self.send()

    def send(self):
        """Sends the chunk through PgQ's bulk insert, commits, then ticks the queue."""
        if not self.rows:
            return
        cur = self.conn.cursor()
        pgq.bulk_insert_events(cur, self.rows, ["time", "type", "data", "extra1"], self.cfg.queue)
        self.conn.commit()
        cur.execute("SELECT pgq.ticker(%s)", [self.cfg.queue])
        self.conn.commit()
        self.enqueued += len(self.rows)
        self.rows = []


class Ticker:
    """pgqd against the run's database, its config, log and pid in a folder of the run's own."""

    def __init__(self, cfg, dbname):
        self.dir = os.path.join(cfg.scratch, "pgqd")  # made anew in the run's scratch folder
        os.mkdir(self.dir, 0o700)
        params = psycopg2.extensions.parse_dsn(cfg.url)  # a conninfo or a URI
        base = " ".join("%s='%s'" % (k, v.replace("\\", "\\\\").replace("'", "\\'"))
                        for k, v in params.items() if k != "dbname")
        conf = os.path.join(self.dir, "pgqd.ini")
        with open(conf, "w") as f:
            f.write("[pgqd]\nbase_connstr = %s\ninitial_database = %s\ndatabase_list = %s\n"
                    "logfile = %s\nticker_period = 0.1\n"
                    % (base, dbname, dbname, os.path.join(self.dir, "pgqd.log")))
        self.proc = subprocess.Popen([shutil.which("pgqd"), "-q", conf], stdin=subprocess.DEVNULL)
        with open(os.path.join(self.dir, "pgqd.pid"), "w") as f:
            f.write(str(self.proc.pid))

    def stop(self):
        """Stops pgqd and removes its folder."""
        self.proc.terminate()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


class Worker(threading.Thread):
    """One of the replica's workers: works each event it is handed."""

    def __init__(self, index, stop):
        super().__init__(daemon=True)
        self.index = index             # its number, 0 to WORKER_COUNT-1
        self.stop = stop               # set when the replica stops
        self.go = threading.Event()    # set when it has an event to work
        self.done = threading.Event()  # set when its work on that event is over
        self.event = None              # (job, attempt, work_us) of the event it holds

    def run(self):
        while not self.stop.is_set():
            if not self.go.wait(0.05):
                continue
            self.go.clear()
            job, attempt, work_us = self.event
            say("started %d %d %d %d" % (job, attempt, self.index, now_us()))
            self.stop.wait(work_us / 1e6)
            self.done.set()


class Consumer(threading.Thread):
    """The replica's batch loop on the consumer, once it holds the consumer's lock."""

    def __init__(self, conn, cfg, workers, stop, holding):
        super().__init__(daemon=True)
        self.conn = conn          # the consumer's connection (its session holds the lock)
        self.cfg = cfg            # the settings
        self.workers = workers    # the replica's Workers
        self.stop = stop          # set when the replica stops
        self.holding = holding    # whether the session already holds the lock (replica 0)
        self.held = []            # the Workers holding an event of the batch open now

    def take_lock(self):
        """Waits for the consumer's lock, free once its holder's session is gone. False: stopped."""
        cur = self.conn.cursor()
        while not self.holding:
            cur.execute("SELECT pg_try_advisory_lock(hashtext(%s))", [self.cfg.queue])
            self.holding = cur.fetchone()[0]
            self.conn.commit()
            if not self.holding and self.stop.wait(self.cfg.empty_wait):
                return False
        return True

    def one_batch(self, cur):
        """Runs one batch: False when there was none."""
        cur.execute("SELECT pgq.next_batch(%s, %s)", [self.cfg.queue, CONSUMER])
        batch = cur.fetchone()[0]
        self.conn.commit()
        if batch is None:
            return False
        cur.execute("SELECT ev_data, ev_extra1, ev_retry FROM pgq.get_batch_events(%s)", [batch])
        events = cur.fetchall()
        self.conn.commit()
        if len(events) > len(self.workers):
            raise RuntimeError("batch %d holds %d events, more than the %d workers"
                               % (batch, len(events), len(self.workers)))
        held = self.held = []
        for w, (data, extra1, retry) in zip(self.workers, events):
            w.event = (int(data), (retry or 0) + 1, int(extra1))
            w.done.clear()
            say("claimed %d %d %d %d" % (w.event[0], w.event[1], w.index, now_us()))
            w.go.set()
            held.append(w)
        for w in held:
            while not w.done.wait(0.05):
                if self.stop.is_set():
                    return True  # stopped with the batch in hand: not finished, PgQ gives it again
        cur.execute("SELECT pgq.finish_batch(%s)", [batch])
        self.conn.commit()
        self.held = []
        for w in held:
            say("finished %d %d %d %d" % (w.event[0], w.event[1], w.index, now_us()))
        return True

    def cut(self):
        """Whether the consumer's connection is gone (a server restart), probed: psycopg2 may not know."""
        try:
            self.conn.rollback()
            self.conn.cursor().execute("SELECT 1")
            self.conn.rollback()
            return False
        except psycopg2.Error:
            return True

    def reconnect(self):
        """A new consumer connection after the old one was cut (a restart), until it connects or the stop."""
        try:
            self.conn.close()
        except psycopg2.Error:
            pass
        self.holding = False  # the lock went with the session
        while not self.stop.is_set():
            try:
                self.conn = psycopg2.connect(self.cfg.url)
                return
            except psycopg2.Error:
                self.stop.wait(0.1)

    def run(self):
        while not self.stop.is_set():
            try:
                if not self.take_lock():
                    return
                cur = self.conn.cursor()
                while not self.stop.is_set():
                    if not self.one_batch(cur) and self.stop.wait(self.cfg.empty_wait):
                        return
            except psycopg2.Error as e:
                say("error 0 %s" % " ".join(str(e).split()))
                if not self.cut():
                    return  # not a cut connection: the replica goes on to its stop
                # the connection was cut: the open batch's events are lost to this replica (whether
                # finish_batch committed unknown; unfinished, PgQ gives the batch again)
                for w in self.held:
                    say("lost %d %d %d %d" % (w.event[0], w.event[1], w.index, now_us()))
                self.held = []
                self.reconnect()
            except Exception as e:  # the replica goes on to its stop; claimbench counts the error
                say("error 0 %s" % " ".join(str(e).split()))
                return


def main():
    cfg = Settings()
    if cfg.throwaway and shutil.which("pgqd") is None:
        refuse("pgqd, PgQ's ticker, is not on PATH: it needs Debian's pgqd (scripts/install-test-deps)")
    try:
        producer_conn = psycopg2.connect(cfg.url)
        consumer_conn = psycopg2.connect(cfg.url)
    except psycopg2.Error as e:
        refuse("cannot connect: %s" % " ".join(str(e).split()))
    ensure_extension(producer_conn, cfg)
    if cfg.replica == 0:
        make_queue(producer_conn, cfg)
        cur = consumer_conn.cursor()
        cur.execute("SELECT pg_advisory_lock(hashtext(%s))", [cfg.queue])
        consumer_conn.commit()
    producer = Producer(producer_conn, cfg)
    stop = threading.Event()
    workers = [Worker(i, stop) for i in range(cfg.workers)]
    consumer = Consumer(consumer_conn, cfg, workers, stop, cfg.replica == 0)
    ticker = None
    say("ready")
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "enqueue":
            producer.add(int(words[1]), int(words[2]))
        elif words[0] == "flush":
            producer.send()
            say("enqueued %d" % producer.enqueued)
        elif words[0] == "start":
            if cfg.replica == 0 and cfg.throwaway:
                ticker = Ticker(cfg, producer_conn.info.dbname)
            for w in workers:
                w.start()
            consumer.start()
        elif words[0] == "stop":
            break
    stop.set()
    if consumer.ident:
        consumer.join()
    for w in workers:
        if w.ident:
            w.join()
    if ticker:
        ticker.stop()
    consumer_conn.close()
    producer_conn.close()
    say("stopped")


main()
