#pragma once
// Tiling of the lattice over MPI ranks: ranks[a] tiles along each axis (x
// fastest), sizes as even as possible (the remainder spread over the first
// tiles), and the model that picks the tiling from the measured cost of a
// site update and of a face exchange per axis (docs/mpi.md, "Choosing the
// tiling").

#include <kolb/io/case.hpp>

#include <array>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace kolb {

using Ranks = std::array<int, 3>;

// This rank's box of the lattice.
struct Tile {
  Ranks ranks{1, 1, 1};
  std::array<int, 3> coords{0, 0, 0};
  std::array<int, 3> offset{0, 0, 0};
  std::array<int, 3> size{1, 1, 1};
};

// [begin, end) of tile k of `tiles` along an axis of `length` sites.
inline std::array<int, 2> tile_range(int length, int tiles, int k) {
  const int base = length / tiles, extra = length % tiles;
  const int begin = k * base + (k < extra ? k : extra);
  return {begin, begin + base + (k < extra ? 1 : 0)};
}

Tile make_tile(const Case& c, const Ranks& ranks, const std::array<int, 3>& coords);
// The whole lattice as one tile.
Tile whole_lattice(const Case& c);
// Sites per axis of the largest tile (the first: remainders go first).
inline std::array<int, 3> largest_tile(const Case& c, const Ranks& ranks) {
  std::array<int, 3> n;
  for (int a = 0; a < 3; ++a) n[a] = tile_range(c.size[a], ranks[a], 0)[1];
  return n;
}

// What is wrong with tiling the case's lattice as `ranks` (empty: nothing):
// tiles thinner than the halo, thermal wall rows that do not fit, a
// host/accelerator split that does not fit the narrowest tile.
std::string tiling_problem(const Case& c, const Ranks& ranks);

// The tiling execution.decomposition gives for `np` ranks ({0, 0, 0}: auto,
// left to the model), and what is wrong with it on `np` ranks (empty:
// nothing; one rank runs the whole lattice whatever the case asks).
Ranks given_tiling(const Case& c, int np);
std::string decomposition_problem(const Case& c, int np);

// Every tiling of `np` ranks over the case's axes (ranks[a] = 1 beyond dim).
std::vector<Ranks> tilings(const Case& c, int np);

// Measured costs the model predicts a step from.
struct TilingCosts {
  double site_seconds = 0;  // one site update on one rank
  double latency = 0;       // seconds per message
  // Bytes per second of exchanging a face normal to each axis (pack, send,
  // unpack): x faces are strided in memory, y and z faces contiguous.
  std::array<double, 3> face_bandwidth{0, 0, 0};
};

// The tiling a run uses, and when the model chose it, what it measured and
// predicted.
struct TilingChoice {
  Ranks ranks{1, 1, 1};
  bool by_model = false;
  TilingCosts costs;          // by_model: site_seconds of the chosen tile's probe
  double predicted_step = 0;  // by_model: seconds
};

// Bytes of the populations crossing one face normal to `axis` of the
// largest tile (per step and direction).
double face_bytes(const Case& c, const Ranks& ranks, int axis);
// Predicted seconds per step of the slowest rank: the largest tile's update
// plus, along each tiled axis, its faces' latency and bytes over bandwidth.
double predicted_step(const Case& c, const Ranks& ranks, const TilingCosts& costs);
// The valid tiling with the smallest predicted step ({0, 0, 0} when none is
// valid); among those within 3 % of it, the one with the longest rows. The
// analytic optimum for two axes, nx = sqrt(np R), R = (Lx B_x) / (Ly B_y),
// is written to `log` next to it.
// `site_seconds`, when given, is the measured cost of a site update on the
// tile of a tiling (negative: not measured, left out).
Ranks model_tiling(const Case& c, int np, const TilingCosts& costs, std::ostream* log,
                   const std::function<double(const Ranks&)>& site_seconds = {});

std::string to_string(const Ranks& ranks, int dim);  // "2x2"; "4x1x1" for a 3-D lattice

}  // namespace kolb
