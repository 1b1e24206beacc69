! f08workers.f90: master/worker through Fortran 2008's `use mpi_f08`
! (handles of derived types, optional ierror).  Rank 0 hands out ROUNDS
! jobs to each worker and takes the results with MPI_ANY_SOURCE in their
! order of arrival (an MPI_Iprobe poll loop first, then MPI_Recv); then
! it posts one MPI_Irecv a worker for their ranks and completes them
! with an MPI_Testsome loop, and one more each with MPI_Waitany.  It
! prints the order of the senders.  The order varies from run to run; a
! replay prints the recording's.
!   mpirun -np 4 build/examples/mpi/f08workers [ROUNDS]
program f08workers
  use mpi_f08
  implicit none
  integer :: rank, nprocs, i, j, job, res, rounds, idx, outc, done, k, sum
  logical :: flag
  type(MPI_Status) :: st
  type(MPI_Request), allocatable :: reqs(:)
  type(MPI_Status), allocatable :: sts(:)
  integer, allocatable :: got(:), ids(:)
  character(len=16) :: arg
  character(len=4096) :: line

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
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
        call MPI_Send(job, 1, MPI_INTEGER, i, 1, MPI_COMM_WORLD)
      end do
      do i = 1, nprocs - 1
        flag = .false.
        do while (.not. flag)
          call MPI_Iprobe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, flag, st)
        end do
        call MPI_Recv(res, 1, MPI_INTEGER, MPI_ANY_SOURCE, 2, &
                      MPI_COMM_WORLD, st)
        sum = sum + res
        write (line, '(A,1X,I0)') trim(line), st%MPI_SOURCE
      end do
    end do
    allocate (reqs(nprocs - 1), sts(nprocs - 1), got(nprocs - 1), &
              ids(nprocs - 1))
    do i = 1, nprocs - 1
      call MPI_Irecv(got(i), 1, MPI_INTEGER, MPI_ANY_SOURCE, 3, &
                     MPI_COMM_WORLD, reqs(i))
    end do
    line = trim(line) // ' testsome:'
    done = 0
    do while (done < nprocs - 1)
      call MPI_Testsome(nprocs - 1, reqs, outc, ids, sts)
      do i = 1, outc
        write (line, '(A,1X,I0,A,I0)') trim(line), ids(i), '<', &
              sts(i)%MPI_SOURCE
      end do
      done = done + outc
    end do
    do i = 1, nprocs - 1
      call MPI_Irecv(got(i), 1, MPI_INTEGER, MPI_ANY_SOURCE, 4, &
                     MPI_COMM_WORLD, reqs(i))
    end do
    line = trim(line) // ' waitany:'
    do i = 1, nprocs - 1
      call MPI_Waitany(nprocs - 1, reqs, idx, st)
      write (line, '(A,1X,I0,A,I0)') trim(line), idx, '<', st%MPI_SOURCE
    end do
    write (*, '(A,I0,1X,A)') 'result: sum=', sum, trim(line)
  else
    do j = 1, rounds
      call MPI_Recv(job, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, st)
      k = 0
      do i = 1, mod(job * 7919 + rank * 104729, 50000)
        k = mod(k + i, 1000)
      end do
      res = job * 2 + k - k
      call MPI_Send(res, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD)
    end do
    call MPI_Send(rank, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD)
    call MPI_Send(rank, 1, MPI_INTEGER, 0, 4, MPI_COMM_WORLD)
  end if
  call MPI_Finalize()
end program f08workers
