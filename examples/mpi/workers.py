# workers.py: examples/mpi/workers in Python through mpi4py (Debian's
# python3-mpi4py): rank 0 takes the workers' answers with ANY_SOURCE
# (comm.recv: a matched probe and receive) and polls with comm.iprobe,
# then prints the orders it saw and how many polls found nothing.
#   mpirun -np 4 /usr/bin/python3 examples/mpi/workers.py [ROUNDS]
import random
import sys
import time

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
if rank == 0:
    order, fails = [], 0
    for r in range(rounds):
        for w in range(1, size):
            comm.send(r, dest=w, tag=1)
        got = []
        for _ in range(1, size):
            st = MPI.Status()
            comm.recv(source=MPI.ANY_SOURCE, tag=2, status=st)
            got.append(st.Get_source())
        for _ in range(1, size):
            st = MPI.Status()
            while not comm.iprobe(source=MPI.ANY_SOURCE, tag=3, status=st):
                fails += 1
            comm.recv(source=st.Get_source(), tag=3)
            got.append(st.Get_source())
        order.append("".join(map(str, got)))
    print("result:", " ".join(order), "failed iprobes", fails, flush=True)
else:
    random.seed()
    for r in range(rounds):
        comm.recv(source=0, tag=1)
        time.sleep(random.random() * 0.003)
        comm.send(rank * 100 + r, dest=0, tag=2)
        time.sleep(random.random() * 0.003)
        comm.send(rank, dest=0, tag=3)
comm.Barrier()
