# cpi.py: pi by the midpoint rule, after mpi4py's compute-pi demo, with
# the intervals handed out on demand: rank 0 gives each worker a chunk
# (comm.send, pickled), takes the partial sums back with MPI_ANY_SOURCE
# into a bytearray (comm.Recv: MPI_Recv itself, no matched probe), and
# gives the next chunk to whoever answered.  The workers take a random
# while over each chunk, so the order changes from run to run; the sum
# (added in that order) and the order are printed, then the ranks agree
# on pi with an allreduce.
#   mpirun -np 4 /usr/bin/python3 examples/mpi/cpi.py [N] [CHUNKS]
import random
import struct
import sys
import time

from mpi4py import MPI

TAG_WORK, TAG_SUM = 1, 2
comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
chunks = int(sys.argv[2]) if len(sys.argv) > 2 else 12
h = 1.0 / n


def part(lo, hi):
    """The midpoint rule's sum over intervals lo .. hi - 1."""
    return h * sum(4.0 / (1.0 + (h * (i + 0.5)) ** 2) for i in range(lo, hi))


mine = 0.0
if rank == 0:
    bounds = [(n * c // chunks, n * (c + 1) // chunks) for c in range(chunks)]
    order, total, out, buf = [], 0.0, 0, bytearray(8)
    for w in range(1, size):
        b = bounds.pop(0) if bounds else None
        comm.send(b, dest=w, tag=TAG_WORK)
        out += b is not None
    while out:
        st = MPI.Status()
        comm.Recv(buf, source=MPI.ANY_SOURCE, tag=TAG_SUM, status=st)
        total += struct.unpack("d", buf)[0]
        order.append(st.Get_source())
        b = bounds.pop(0) if bounds else None
        comm.send(b, dest=st.Get_source(), tag=TAG_WORK)
        out += (b is not None) - 1
    print("cpi: order %s sum %.17g" % ("".join(map(str, order)), total))
    mine = total
else:
    while True:
        b = comm.recv(source=0, tag=TAG_WORK)
        if b is None:
            break
        time.sleep(random.random() * 0.003)
        comm.Send(bytearray(struct.pack("d", part(*b))), dest=0, tag=TAG_SUM)
pi = comm.allreduce(mine, op=MPI.SUM)
if rank == 0:
    print("cpi: pi %.12f" % pi)
