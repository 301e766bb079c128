// MPI behind kolb::comm (include/kolb/comm/communicator.hpp); without
// KOLB_HAVE_MPI every call is the one-rank answer.

#include <kolb/comm/communicator.hpp>

#include <Kokkos_Timer.hpp>

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef KOLB_HAVE_MPI
#include <mpi.h>
#endif

namespace kolb::comm {

#ifdef KOLB_HAVE_MPI

namespace {
bool active() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}
void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI error in ") + what);
}
int byte_count(std::size_t bytes) {
  if (bytes > std::size_t(INT_MAX))
    throw std::length_error("a halo message above 2 GiB (use more ranks along that axis)");
  return int(bytes);
}
}  // namespace

Session::Session(int& argc, char**& argv) {
  if (active()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  // Errors come back as codes (turned into exceptions), not as aborts.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}
Session::~Session() {
  if (active()) MPI_Finalize();
}

int rank() {
  int r = 0;
  if (active()) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size() {
  int n = 1;
  if (active()) MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}
void sum(double* v, int n) {
  if (size() > 1)
    check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), "sum");
}
void max(double* v, int n) {
  if (size() > 1)
    check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "max");
}
bool all(bool value) {
  int v = value ? 1 : 0;
  if (size() > 1)
    check(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "all");
  return v != 0;
}
void barrier() {
  if (size() > 1) check(MPI_Barrier(MPI_COMM_WORLD), "barrier");
}
void abort(int code) {
  if (size() > 1) MPI_Abort(MPI_COMM_WORLD, code);
}

struct CartGrid::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  std::vector<MPI_Request> requests;
};

CartGrid::CartGrid(std::array<int, 3> dims, std::array<bool, 3> periodic)
    : m_impl(std::make_unique<Impl>()), m_dims(dims) {
  if (dims[0] * dims[1] * dims[2] != size())
    throw std::invalid_argument("CartGrid: the grid does not hold every rank");
  if (size() == 1) {
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) m_neighbour[a][s] = periodic[a] ? 0 : -1;
    return;
  }
  // MPI's dims run slowest first; kolb's x is the fastest, so reverse.
  int d[3] = {dims[2], dims[1], dims[0]}, p[3] = {periodic[2], periodic[1], periodic[0]};
  check(MPI_Cart_create(MPI_COMM_WORLD, 3, d, p, 0, &m_impl->comm), "MPI_Cart_create");
  MPI_Comm_set_errhandler(m_impl->comm, MPI_ERRORS_RETURN);
  int me = 0, c[3] = {0, 0, 0};
  MPI_Comm_rank(m_impl->comm, &me);
  MPI_Cart_coords(m_impl->comm, me, 3, c);
  m_coords = {c[2], c[1], c[0]};
  for (int a = 0; a < 3; ++a) {
    int lo = MPI_PROC_NULL, hi = MPI_PROC_NULL;
    MPI_Cart_shift(m_impl->comm, 2 - a, 1, &lo, &hi);
    m_neighbour[a] = {lo == MPI_PROC_NULL ? -1 : lo, hi == MPI_PROC_NULL ? -1 : hi};
  }
}
CartGrid::~CartGrid() {
  if (m_impl->comm != MPI_COMM_NULL && active()) MPI_Comm_free(&m_impl->comm);
}
void CartGrid::receive(int from, int tag, void* data, std::size_t bytes) {
  m_impl->requests.emplace_back();
  check(MPI_Irecv(data, byte_count(bytes), MPI_BYTE, from, tag, m_impl->comm,
                  &m_impl->requests.back()),
        "MPI_Irecv");
}
void CartGrid::send(int to, int tag, const void* data, std::size_t bytes) {
  m_impl->requests.emplace_back();
  check(
      MPI_Isend(data, byte_count(bytes), MPI_BYTE, to, tag, m_impl->comm, &m_impl->requests.back()),
      "MPI_Isend");
}
void CartGrid::wait_all() {
  if (m_impl->requests.empty()) return;
  const int rc =
      MPI_Waitall(int(m_impl->requests.size()), m_impl->requests.data(), MPI_STATUSES_IGNORE);
  m_impl->requests.clear();
  check(rc, "MPI_Waitall");
}

double ping_pong(std::size_t bytes, int repeats) {
  if (size() < 2) return 0;
  std::vector<char> buffer(bytes);
  const int me = rank();
  double best = 1e300;
  for (int r = 0; r < repeats + 1; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    Kokkos::Timer timer;
    if (me == 0) {
      MPI_Send(buffer.data(), byte_count(bytes), MPI_BYTE, 1, 7, MPI_COMM_WORLD);
      MPI_Recv(buffer.data(), byte_count(bytes), MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (me == 1) {
      MPI_Recv(buffer.data(), byte_count(bytes), MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), byte_count(bytes), MPI_BYTE, 0, 7, MPI_COMM_WORLD);
    }
    if (r > 0) best = std::min(best, timer.seconds());
  }
  double t = me == 0 ? best : 0;
  MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return t;
}

#else  // one rank

Session::Session(int&, char**&) {}
Session::~Session() = default;
int rank() { return 0; }
int size() { return 1; }
void sum(double*, int) {}
void max(double*, int) {}
bool all(bool value) { return value; }
void barrier() {}
void abort(int) {}

struct CartGrid::Impl {};
CartGrid::CartGrid(std::array<int, 3> dims, std::array<bool, 3> periodic)
    : m_impl(std::make_unique<Impl>()), m_dims(dims) {
  if (dims[0] * dims[1] * dims[2] != 1)
    throw std::invalid_argument("this kolb was built without MPI: one rank only");
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) m_neighbour[a][s] = periodic[a] ? 0 : -1;
}
CartGrid::~CartGrid() = default;
void CartGrid::receive(int, int, void*, std::size_t) {
  throw std::logic_error("no MPI: no remote faces");
}
void CartGrid::send(int, int, const void*, std::size_t) {
  throw std::logic_error("no MPI: no remote faces");
}
void CartGrid::wait_all() {}
double ping_pong(std::size_t, int) { return 0; }

#endif

}  // namespace kolb::comm
