// Tiles of the lattice over MPI ranks and the tiling model.

#include <kolb/comm/tiling.hpp>
#include <kolb/model/lattice_info.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

namespace kolb {

Tile make_tile(const Case& c, const Ranks& ranks, const std::array<int, 3>& coords) {
  Tile t;
  t.ranks = ranks;
  t.coords = coords;
  for (int a = 0; a < 3; ++a) {
    const auto r = tile_range(c.size[a], ranks[a], coords[a]);
    t.offset[a] = r[0];
    t.size[a] = r[1] - r[0];
  }
  return t;
}

Tile whole_lattice(const Case& c) { return make_tile(c, {1, 1, 1}, {0, 0, 0}); }

std::string tiling_problem(const Case& c, const Ranks& ranks) {
  const LatticeInfo& info = lattice_info(c.lattice);
  for (int a = 0; a < 3; ++a) {
    if (ranks[a] < 1) return "every axis needs at least one rank";
    if (a >= c.dim && ranks[a] > 1)
      return "a " + std::to_string(c.dim) + "-D lattice cannot be tiled along z";
    const int thinnest = c.size[a] / ranks[a];
    if (ranks[a] > 1 && thinnest < info.halo)
      return std::to_string(ranks[a]) + " tiles along " + axis_name(a) + " leave " +
             std::to_string(thinnest) + " of the " + std::to_string(c.size[a]) +
             " sites to a tile, fewer than the halo width " + std::to_string(info.halo) + " of " +
             to_string(c.lattice);
  }
  // In place (AA), what a pull pushes across a tile's faces goes back to
  // the neighbour; kolb does that for slabs along x of one part each.
  if (ranks[0] * ranks[1] * ranks[2] > 1 && c.execution.streaming == Streaming::aa) {
    if (ranks[1] > 1 || ranks[2] > 1)
      return "with streaming: aa MPI tiles are slabs along x only (decomposition: 1d), not " +
             to_string(ranks, c.dim);
    if (c.execution.host_columns > 0 || c.execution.host_columns_auto)
      return "with streaming: aa and MPI, each rank runs one part (no host_columns); the "
             "two_buffer scheme runs a host/accelerator split on every rank";
  }
  // The thermal wall rows (both walls on one tile, or one wall per tile)
  // need the rows they own plus the ones they read above them.
  const bool walls = info.wall_rows > 0 && c.faces[2].kind != FaceKind::periodic;
  if (walls && ranks[1] > 1 && c.size[1] / ranks[1] < 2 * info.wall_rows)
    return std::to_string(ranks[1]) + " tiles along y leave " +
           std::to_string(c.size[1] / ranks[1]) + " rows to a tile; " + to_string(c.lattice) +
           "'s wall rows need at least " + std::to_string(2 * info.wall_rows);
  if (c.execution.host_columns > 0 && ranks[0] * ranks[1] * ranks[2] > 1) {
    // Uneven tiles differ by a site: the split must fit the narrowest and
    // the widest (its accelerator part may be thinner than the halo).
    const int axis = node_split_axis(c, ranks);
    for (const int extra : {0, 1}) {
      Case tile = c;
      for (int a = 0; a < 3; ++a) tile.size[a] = tile_range(c.size[a], ranks[a], 0)[1] - extra;
      if (extra && c.size[axis] % ranks[axis] == 0) break;
      const std::string split = split_problem(tile, c.execution.host_columns, axis);
      if (!split.empty())
        return "on a tile of " + std::to_string(tile.size[axis]) + " sites along " +
               axis_name(axis) + ": " + split;
    }
  }
  return "";
}

Ranks given_tiling(const Case& c, int np) {
  const Ranks& d = c.execution.decomposition;
  return d[0] == -1 ? Ranks{np, 1, 1} : d;
}

std::string decomposition_problem(const Case& c, int np) {
  const Ranks r = given_tiling(c, np);
  if (np == 1 || r[0] == 0) return "";
  if (r[0] * r[1] * r[2] != np)
    return "tiling " + to_string(r, c.dim) + " needs " + std::to_string(r[0] * r[1] * r[2]) +
           " MPI ranks, the job has " + std::to_string(np);
  const std::string problem = tiling_problem(c, r);
  return problem.empty() ? "" : problem + " (" + std::to_string(np) + " MPI ranks)";
}

std::vector<Ranks> tilings(const Case& c, int np) {
  std::vector<Ranks> out;
  for (int nx = 1; nx <= np; ++nx)
    for (int ny = 1; ny <= np / nx; ++ny) {
      if (np % (nx * ny) != 0) continue;
      const int nz = np / (nx * ny);
      if ((c.dim < 3 && nz > 1) || nx * ny * nz != np) continue;
      out.push_back({nx, ny, nz});
    }
  return out;
}

double face_bytes(const Case& c, const Ranks& ranks, int axis) {
  const LatticeInfo& info = lattice_info(c.lattice);
  const auto n = largest_tile(c, ranks);
  double sites = 1;
  for (int b = 0; b < c.dim; ++b)
    if (b != axis) sites *= n[b] + (b < axis ? 2 * info.halo : 0);
  const double scalar = stored_bytes(c.precision);
  return sites * info.halo * info.crossing * scalar;
}

double predicted_step(const Case& c, const Ranks& ranks, const TilingCosts& k) {
  const auto n = largest_tile(c, ranks);
  double t = double(n[0]) * n[1] * n[2] * k.site_seconds;
  const auto periodic = c.periodic();
  for (int a = 0; a < c.dim; ++a) {
    if (ranks[a] == 1) continue;
    // Messages of a middle tile: two faces, each sent and received.
    const int faces = (periodic[a] || ranks[a] > 2) ? 2 : 1;
    t += faces * (k.latency + face_bytes(c, ranks, a) / std::max(k.face_bandwidth[a], 1.0));
  }
  return t;
}

Ranks model_tiling(const Case& c, int np, const TilingCosts& k, std::ostream* log,
                   const std::function<double(const Ranks&)>& site_seconds) {
  std::vector<std::pair<Ranks, double>> predicted;
  for (const Ranks& r : tilings(c, np)) {
    if (!tiling_problem(c, r).empty()) continue;
    TilingCosts costs = k;
    if (site_seconds) {
      costs.site_seconds = site_seconds(r);
      if (costs.site_seconds < 0) continue;
    }
    predicted.emplace_back(r, predicted_step(c, r, costs));
    if (log)
      *log << "  tiling " << to_string(r, c.dim) << ": " << std::setprecision(3)
           << 1e9 * costs.site_seconds << " ns per site, predicted " << std::setprecision(4)
           << 1e3 * predicted.back().second << " ms/step\n";
  }
  Ranks best{0, 0, 0};
  if (predicted.empty()) return best;
  double fastest = predicted.front().second;
  for (const auto& p : predicted) fastest = std::min(fastest, p.second);
  // Within the noise of the measured costs (3 %), the longest rows win: the
  // row loop runs faster on them on any machine.
  double best_t = 0;
  for (const auto& [r, t] : predicted) {
    if (t > 1.03 * fastest) continue;
    if (best[0] == 0 || r[0] < best[0] || (r[0] == best[0] && t < best_t)) best = r, best_t = t;
  }
  if (log && c.dim == 2 && k.face_bandwidth[0] > 0 && k.face_bandwidth[1] > 0) {
    // Continuous optimum of the exchange term: an x face costs
    // Ly / ny / B_x, a y face Lx / nx / B_y.
    const double R = (c.size[0] * k.face_bandwidth[0]) / (c.size[1] * k.face_bandwidth[1]);
    *log << "  analytic optimum of the exchange (seed 001): nx = sqrt(np R) = "
         << std::setprecision(3) << std::sqrt(np * R) << ", ny = " << std::sqrt(np / R)
         << " (R = " << R << ")\n";
  }
  return best;
}

std::string to_string(const Ranks& r, int dim) {
  return std::to_string(r[0]) + "x" + std::to_string(r[1]) +
         (dim == 3 || r[2] > 1 ? "x" + std::to_string(r[2]) : "");
}

}  // namespace kolb
