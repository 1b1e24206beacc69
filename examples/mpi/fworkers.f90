! fworkers.f90: master/worker in Fortran through mpif.h.  Rank 0 hands
! out ROUNDS jobs to each worker and takes the results with
! MPI_ANY_SOURCE in their order of arrival (an MPI_Iprobe poll loop
! first, then MPI_Recv), then posts one MPI_Irecv a worker and completes
! them with MPI_Waitany; it prints the order of the senders.  The order
! varies from run to run; a replay prints the recording's.
!   mpirun -np 4 build/examples/mpi/fworkers [ROUNDS]
program fworkers
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, i, j, job, res, rounds, flag, idx
  integer :: st(MPI_STATUS_SIZE)
  integer, allocatable :: reqs(:), got(:)
  character(len=16) :: arg
  character(len=4096) :: line
  integer :: sum, k

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  rounds = 3
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) rounds
  end if
  if (rank == 0) then
    line = 'recv:'
    sum = 0
    do j = 1, rounds
      do i = 1, nprocs - 1
        job = j * 100 + i
        call MPI_SEND(job, 1, MPI_INTEGER, i, 1, MPI_COMM_WORLD, ierr)
      end do
      do i = 1, nprocs - 1
        flag = 0
        do while (flag == 0)
          call MPI_IPROBE(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, flag, st, ierr)
        end do
        call MPI_RECV(res, 1, MPI_INTEGER, MPI_ANY_SOURCE, 2, &
                      MPI_COMM_WORLD, st, ierr)
        sum = sum + res
        write (line, '(A,1X,I0)') trim(line), st(MPI_SOURCE)
      end do
    end do
    allocate (reqs(nprocs - 1), got(nprocs - 1))
    do i = 1, nprocs - 1
      call MPI_IRECV(got(i), 1, MPI_INTEGER, MPI_ANY_SOURCE, 3, &
                     MPI_COMM_WORLD, reqs(i), ierr)
    end do
    line = trim(line) // ' waitany:'
    do i = 1, nprocs - 1
      call MPI_WAITANY(nprocs - 1, reqs, idx, st, ierr)
      write (line, '(A,1X,I0,A,I0)') trim(line), idx, '<', st(MPI_SOURCE)
    end do
    write (*, '(A,I0,1X,A)') 'result: sum=', sum, trim(line)
  else
    do j = 1, rounds
      call MPI_RECV(job, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, st, ierr)
      k = 0
      do i = 1, mod(job * 7919 + rank * 104729, 50000)
        k = mod(k + i, 1000)
      end do
      res = job * 2 + k - k
      call MPI_SEND(res, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierr)
    end do
    call MPI_SEND(rank, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, ierr)
  end if
  call MPI_FINALIZE(ierr)
end program fworkers
