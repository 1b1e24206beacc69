#!/bin/bash
# bench/view-fakedb.sh DB NMSG [NTASKS]: writes a synthetic trace database
# (schema v4, as `pangaea-trace import` makes) with NMSG messages between
# NTASKS tasks (2 events each: a send and its receive; every 50th message
# unmatched as if its receiver were not selected; every 97th a bcast to
# every task, every 89th an mcast to two).  For the viewer benchmark.
set -eu
db=$1 n=$2 nt=${3:-8}
rm -f "$db"
sqlite3 "$db" <<SQL
PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE tasks(ltid INTEGER PRIMARY KEY, parent_ltid INTEGER, tid INTEGER,
  program TEXT, host TEXT, start_wall_ns INTEGER, end_how TEXT, end_value INTEGER,
  t_first INTEGER, t_last INTEGER, nevents INTEGER);
CREATE TABLE spawns(ltid INTEGER, seq INTEGER, file TEXT, flags INTEGER, where_ TEXT,
  ntask INTEGER, started INTEGER, argv TEXT, children TEXT, PRIMARY KEY(ltid, seq));
CREATE TABLE events(id INTEGER PRIMARY KEY, ltid INTEGER NOT NULL, seq INTEGER NOT NULL,
  kind TEXT NOT NULL, peer INTEGER, tag INTEGER, msgid INTEGER, len INTEGER,
  t0 INTEGER NOT NULL, t1 INTEGER NOT NULL, count INTEGER, grp TEXT, op TEXT,
  arg INTEGER, result INTEGER, dests TEXT, t0_raw INTEGER, t1_raw INTEGER);
CREATE TABLE messages(id INTEGER PRIMARY KEY, src INTEGER, dst INTEGER, tag INTEGER,
  msgid INTEGER, len INTEGER, kind TEXT, send_event INTEGER, recv_event INTEGER,
  t_send INTEGER, t_recv INTEGER, unmatched TEXT);
CREATE TABLE output(id INTEGER PRIMARY KEY, ltid INTEGER NOT NULL,
  t INTEGER NOT NULL, nl INTEGER NOT NULL, text TEXT NOT NULL);
CREATE TABLE clocks(ltid INTEGER NOT NULL, seq INTEGER NOT NULL,
  clock TEXT NOT NULL, PRIMARY KEY(ltid, seq)) WITHOUT ROWID;
INSERT INTO meta VALUES('schema_version','4'),('mode','record'),('command','synthetic'),
  ('start_wall_ns','1700000000000000000'),('polls','exact'),('selection','');
WITH RECURSIVE t(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM t WHERE i < $nt)
INSERT INTO tasks SELECT i, CASE WHEN i=1 THEN 0 ELSE 1 END, 262144+i, 'fake',
  'host' || (i % 3), 1700000000000000000, 'pangaea_exit', 0, NULL, NULL, NULL FROM t;
-- message k: from task k%nt+1 to (k*7+3)%nt+1 (never itself)
WITH RECURSIVE m(k) AS (SELECT 0 UNION ALL SELECT k+1 FROM m WHERE k < $n - 1)
INSERT INTO messages(id, src, dst, tag, msgid, len, kind, send_event, recv_event,
  t_send, t_recv, unmatched)
SELECT k+1, k % $nt + 1,
  CASE WHEN (k*7+3) % $nt = k % $nt THEN (k+1) % $nt + 1 ELSE (k*7+3) % $nt + 1 END,
  k % 5, k / $nt + 1, 64 + k % 1000,
  CASE WHEN k % 97 = 0 THEN 'bcast' WHEN k % 89 = 0 THEN 'mcast' ELSE 'send' END,
  2*k+1, CASE WHEN k % 50 = 7 THEN NULL ELSE 2*k+2 END,
  1700000000000000000 + k*20000 + (k*7919) % 5000,
  1700000000000000000 + k*20000 + (k*7919) % 5000 + 30000 + (k*104729) % 20000,
  CASE WHEN k % 50 = 7 THEN 'selection' END FROM m;
INSERT INTO events(id, ltid, seq, kind, peer, tag, msgid, len, t0, t1, t0_raw, t1_raw)
SELECT send_event, src, msgid, kind, dst, tag, msgid, len, t_send, t_send + 3000,
  t_send, t_send + 3000 FROM messages;
INSERT INTO events(id, ltid, seq, kind, peer, tag, msgid, len, t0, t1, t0_raw, t1_raw)
SELECT recv_event, dst, msgid, 'recv', src, tag, msgid, len, t_recv, t_recv + 2000,
  t_recv, t_recv + 2000 FROM messages WHERE recv_event IS NOT NULL;
CREATE INDEX events_t0 ON events(t0);
CREATE INDEX messages_t_send ON messages(t_send);
CREATE INDEX messages_send_event ON messages(send_event);
CREATE INDEX messages_recv_event ON messages(recv_event);
CREATE INDEX output_t ON output(t);
UPDATE tasks SET nevents = (SELECT count(*) FROM events e WHERE e.ltid = tasks.ltid);
SQL
