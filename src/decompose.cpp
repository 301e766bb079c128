// make_domain() under MPI: the tiling a case asks for, or the one the
// tiling model picks from costs measured on this machine (auto).

#include <kolb/comm/communicator.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/model/lattice_info.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>

namespace kolb {

namespace {

// Seconds to pack and unpack one face of `part` normal to `axis` through
// host memory (the tiling model's face cost), fastest of `repeats`.
double time_face(Part& part, int axis, int repeats) {
  double best = 1e300;
  for (int r = 0; r < repeats + 1; ++r) {
    part.fence();
    Kokkos::Timer timer;
    const HaloBuffer sent = part.pack(axis, Side::right, true);
    part.fence();
    part.unpack(axis, Side::left, sent);
    part.fence();
    if (r > 0) best = std::min(best, timer.seconds());
  }
  return best;
}

// The case on one process with `size` sites (its boundaries, no obstacles),
// y and z cut to about 2 M sites (x rows, which set the speed of the row
// loop, kept).
Case probe_case(const Case& c, std::array<int, 3> size) {
  Case probe = c;
  const int min_rows = std::max(16, 2 * lattice_info(c.lattice).halo);
  for (int a = 2; a >= 1; --a)
    while (double(size[0]) * size[1] * size[2] > 2e6 && size[a] >= 2 * min_rows) size[a] /= 2;
  probe.size = size;
  probe.execution.host_columns = -1;
  probe.obstacles.clear();
  return probe;
}

// Seconds per site update of `domain` over a window of `seconds`, the
// slowest rank's (all ranks at once, so memory bandwidth is shared as in
// the run).
double site_seconds(Domain& domain, const Case& probe, double seconds) {
  domain.advance(2);
  comm::barrier();
  Kokkos::Timer timer;
  int steps = 0;
  while (timer.seconds() < seconds || steps < 3) domain.advance(1), ++steps;
  double t = timer.seconds() / steps / (double(probe.size[0]) * probe.size[1] * probe.size[2]);
  comm::max(&t, 1);
  return t;
}

}  // namespace

std::unique_ptr<Domain> make_domain(const Case& c, std::ostream* log) {
  if (comm::size() == 1) return std::make_unique<Domain>(c);
  const TilingChoice choice = choose_tiling(c, comm::size(), log);
  return std::make_unique<Domain>(c, std::make_shared<comm::CartGrid>(choice.ranks, c.periodic()),
                                  choice);
}

TilingChoice choose_tiling(const Case& c, int np, std::ostream* log) {
  const std::string where = c.source + ": execution.decomposition";
  if (const Ranks given = given_tiling(c, np); given[0] > 0) {
    const std::string problem = decomposition_problem(c, np);
    if (!problem.empty()) throw ConfigError(where, problem);
    if (log) *log << "tiling: " << to_string(given, c.dim) << " (" << np << " ranks, as given)\n";
    return {given, false, {}, 0};
  }
  std::vector<Ranks> candidates;
  for (const Ranks& r : tilings(c, np))
    if (tiling_problem(c, r).empty()) candidates.push_back(r);
  if (candidates.empty()) {
    std::string why;
    for (const Ranks& r : tilings(c, np))
      why += "\n  " + to_string(r, c.dim) + ": " + tiling_problem(c, r);
    throw ConfigError(
        where, "no tiling of the lattice over " + std::to_string(np) + " ranks works:" + why);
  }
  // Message latency and the bandwidth of exchanging a face along each axis
  // (pack + transfer + unpack), on the 1-D tile of the first candidate.
  TilingCosts costs;
  {
    const Case probe = probe_case(c, largest_tile(c, candidates.front()));
    Domain domain(probe);
    costs.site_seconds = site_seconds(domain, probe, 0.1);
    costs.latency = comm::ping_pong(8, 20) / 2;
    for (int a = 0; a < c.dim; ++a) {
      Part& part = domain.only_part();
      const std::size_t bytes = part.receive_buffer(a, Side::left, true).bytes;
      const double transfer = comm::ping_pong(bytes, 5) / 2;
      double t = time_face(part, a, 5) + std::max(transfer - costs.latency, 0.0);
      comm::max(&t, 1);
      costs.face_bandwidth[a] = double(bytes) / std::max(t, 1e-9);
    }
  }
  if (log) {
    *log << "tiling model (" << np << " ranks): latency " << std::setprecision(3)
         << 1e6 * costs.latency << " us; face exchange";
    const char* name[3] = {" GB/s x (strided)", " GB/s y (rows)", " GB/s z (planes)"};
    for (int a = 0; a < c.dim; ++a)
      *log << (a ? ", " : " ") << 1e-9 * costs.face_bandwidth[a] << name[a];
    *log << "\n";
  }
  // The cost of a site update depends on the tile's shape (row length): it
  // is measured for the best few candidates by the exchange terms.
  std::sort(candidates.begin(), candidates.end(), [&](const Ranks& a, const Ranks& b) {
    return predicted_step(c, a, costs) < predicted_step(c, b, costs);
  });
  if (candidates.size() > 6) candidates.resize(6);
  // Interleaved rounds, the fastest window kept: interference (other
  // processes, oversubscribed cores) only slows a window down, and drifts
  // of the machine hit every candidate alike.
  std::map<Ranks, double> measured;
  for (int round = 0; round < 5; ++round)
    for (const Ranks& r : candidates) {
      const Case probe = probe_case(c, largest_tile(c, r));
      Domain domain(probe);
      const double t = site_seconds(domain, probe, 0.1);
      if (!measured.count(r) || t < measured[r]) measured[r] = t;
    }
  const Ranks best = model_tiling(c, np, costs, log, [&](const Ranks& r) {
    const auto it = measured.find(r);
    return it == measured.end() ? -1.0 : it->second;
  });
  if (log) *log << "tiling: " << to_string(best, c.dim) << " (chosen by the model)\n";
  TilingChoice choice{best, true, costs, 0};
  choice.costs.site_seconds = measured[best];
  choice.predicted_step = predicted_step(c, best, choice.costs);
  return choice;
}

}  // namespace kolb
