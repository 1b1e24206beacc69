#!/usr/bin/env python3
"""mkproto.py: writes the seed corpus of the proto harness (fuzz_proto.c)
into tests/fuzz/corpus/proto/: messages as the library, the coordinator
and the launcher send them (pangaea_lib/pangaea-protocol.h), in XDR as
pvm_initsend(PvmDataDefault) packs them, framed as fuzz_proto.c reads its
input (tag byte, 16-bit little-endian length, contents).

Run it again after a change of PG_PROTOCOL_VERSION or of a layout:
    python3 tests/fuzz/mkproto.py
"""
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = os.path.join(HERE, "..", "..", "logs", "format", "pangaea-formats.h")
VERSION = int(re.search(r"#define PG_PROTOCOL_VERSION (\d+)",
                        open(FORMATS).read()).group(1))

# the harness's tag numbers (the order of fuzz_proto.c's tags[])
REGISTER, SPAWNED, TID2LTID, LTID2TID, EVENTS, DONE, EXITED, DIVERGED, \
    QUIT, HELLO, LOGFAIL, WATCH, ENDTASK, LOGFILE, CLOCK = range(15)

# PVM's trace events (pvmtev.h), as a pvmd sends TEV_ENDTASK
TEV_MARK_EVENT_DESC, TEV_MARK_EVENT_DESC_END = -5, -6
TEV_MARK_EVENT_RECORD, TEV_MARK_EVENT_RECORD_END = -7, -8
TEV_ENDTASK, TEV_DATA_INT, TEV_DID_TID, TEV_DID_TST = 76, 6, 88, 98


def ints(*v):
    return b"".join(struct.pack(">i", x) for x in v)


def pstr(s):
    """A string as pvm_pkstr packs it in XDR: length with the NUL, bytes
    padded to a multiple of 4."""
    b = s.encode() + b"\0"
    return struct.pack(">i", len(b)) + b + b"\0" * (-len(b) % 4)


def msg(tag, body, versioned=True):
    body = (ints(VERSION) if versioned else b"") + body
    return bytes([tag]) + struct.pack("<H", len(body)) + body


def event(kind, peer, tag, msgid, length, dests=()):
    t0, dur = 1_700_000_000_123_456_789, 52_000
    return ints(kind, peer, tag, msgid, length, 0, len(dests),
                t0 >> 32, t0 & 0x7fffffff, dur >> 32, dur) + ints(*dests)


def spawned(parent, tasks):
    body = ints(parent, len(tasks))
    for ltid, tid, host, prog in tasks:
        body += ints(ltid, tid) + pstr(host) + pstr(prog)
    return msg(SPAWNED, body)


KIDS = [(1001, 0x40003, "vm", "/work/build/examples/racy"),
        (1002, 0x40004, "vm", "/work/build/examples/racy"),
        (1003, 0x40005, "vm", "/work/build/examples/racy")]

SEEDS = {
    "register": msg(REGISTER, ints(1, 0x40002)),
    "clock": msg(CLOCK, ints(1, 0, 0)),
    "spawned": spawned(1, KIDS),
    "tid2ltid": msg(TID2LTID, ints(0x40003)),
    "ltid2tid": msg(LTID2TID, ints(1002)),
    "events": msg(EVENTS, ints(1, 0) + pstr("vm") +
                  pstr("/work/build/examples/racy") +
                  ints(11 * 3 + 2) + event(1, 1001, 1, 1, 4) +
                  event(2, 1001, 2, 1, 8) + event(9, 0, 3, 2, 4, (1002, 1003))),
    "done": msg(DONE, ints(1001, 1, 0)),
    "exited": msg(EXITED, ints(0x40003), versioned=False),
    "diverged": msg(DIVERGED, ints(1002) + pstr(
        "task 1002 (racy on vm): event 3: expected recv from 1001 msg=2 "
        "tag=1, got recv from 1003 msg=1 tag=1")),
    "quit": msg(QUIT, ints(0x40001), versioned=False),
    "logfail": msg(LOGFAIL, ints(1001, 28)),
    "watch": spawned(1, KIDS) + msg(WATCH, ints(1, 77, 0, 2, 0x40003,
                                                 0x40004)) +
    msg(WATCH, ints(1, 77, 1, 1, 0x40004)),
    # the descriptor of TEV_ENDTASK (name, then did, type, value), then a
    # bare record of it: task t40003 killed by signal 9
    "endtask": spawned(1, KIDS) +
    msg(ENDTASK, ints(TEV_MARK_EVENT_DESC, TEV_ENDTASK) + pstr("endtask") +
        ints(TEV_DID_TID, TEV_DATA_INT, 0x40004,
             TEV_DID_TST, TEV_DATA_INT, 0,
             TEV_MARK_EVENT_DESC_END), versioned=False) +
    msg(ENDTASK, ints(TEV_MARK_EVENT_RECORD, TEV_ENDTASK, 0x40003, 9,
                      TEV_MARK_EVENT_RECORD_END), versioned=False),
    # a log carried between hosts: one file in two pieces, an empty one,
    # the end
    "logfile": msg(LOGFILE, pstr("/tmp/x") + pstr("task-1001.exec") +
                   ints(10, 0, 6) + b"pangae") +
    msg(LOGFILE, pstr("/tmp/x") + pstr("task-1001.exec") + ints(10, 6, 4) +
        b"a-ex") +
    msg(LOGFILE, pstr("/tmp/x") + pstr("task-1002.comm") + ints(0, 0, 0)) +
    msg(LOGFILE, pstr("/tmp/x") + pstr("") + ints(0, 0, 0)),
    # a whole run as the coordinator sees it: a translation that waits,
    # the spawn that answers it, registrations, live events, the end
    "session": msg(HELLO, b"") + msg(REGISTER, ints(1, 0x40002)) +
    msg(LTID2TID, ints(1003)) + spawned(1, KIDS) +
    msg(REGISTER, ints(1001, 0x40003)) + msg(TID2LTID, ints(0x40004)) +
    msg(EVENTS, ints(1001, 1) + pstr("vm") + pstr("racy") + ints(11) +
        event(1, 1, 1, 1, 4)) +
    msg(DONE, ints(1001, 1, 0)) + msg(EXITED, ints(0x40003), False) +
    msg(QUIT, ints(0x40001), False),
}

out = os.path.join(HERE, "corpus", "proto")
os.makedirs(out, exist_ok=True)
for name, data in SEEDS.items():
    with open(os.path.join(out, "seed-" + name), "wb") as f:
        f.write(data)
print("mkproto: %d seeds (protocol version %d) in %s" % (len(SEEDS), VERSION,
                                                         out))
