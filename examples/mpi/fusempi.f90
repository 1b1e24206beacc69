! fusempi.f90: the `use mpi` module's calls (Open MPI binds them to the
! same entry points as mpif.h's) and persistent requests.  Every worker
! sends its rank twice through one persistent send (MPI_Send_init,
! MPI_Start, MPI_Wait); rank 0 makes a persistent receive from
! MPI_ANY_SOURCE per message (MPI_Recv_init), starts them all
! (MPI_Startall) and completes them with an MPI_Testsome loop, then
! prints the indices and senders in their order of completion (the Testsome calls that found
! nothing vary too: the log has them, the replay repeats them).
!   mpirun -np 4 build/examples/mpi/fusempi
program fusempi
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, i, n, outc, done, preq
  integer :: st(MPI_STATUS_SIZE)
  integer, allocatable :: reqs(:), got(:), idx(:), sts(:, :)
  character(len=1024) :: line

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (rank == 0) then
    n = 2 * (nprocs - 1)
    allocate (reqs(n), got(n), idx(n), sts(MPI_STATUS_SIZE, n))
    do i = 1, n
      call MPI_Recv_init(got(i), 1, MPI_INTEGER, MPI_ANY_SOURCE, 5, &
                         MPI_COMM_WORLD, reqs(i), ierr)
    end do
    call MPI_Startall(n, reqs, ierr)
    line = 'testsome:'
    done = 0
    do while (done < n)
      call MPI_Testsome(n, reqs, outc, idx, sts, ierr)
      do i = 1, outc
        write (line, '(A,1X,I0,A,I0)') trim(line), idx(i), '<', &
              sts(MPI_SOURCE, i)
      end do
      done = done + outc
    end do
    write (*, '(A)') trim(line)
    do i = 1, n
      call MPI_Request_free(reqs(i), ierr)
    end do
  else
    call MPI_Send_init(rank, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, preq, ierr)
    do i = 1, 2
      call MPI_Start(preq, ierr)
      call MPI_Wait(preq, st, ierr)
    end do
    call MPI_Request_free(preq, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program fusempi
