#pragma once
// The load balancer's performance model (docs/heterogeneous.md, "The
// model"). Per step, with LX columns of `column_sites` sites each and M host
// columns at each x end:
//   T_acc(M)  = a_0 + tau_acc  * (LX - 2M) * column_sites   (0 if no accelerator block)
//   T_host(M) = h_0 + tau_host * 2M * column_sites          (0 if M = 0)
//   T_exe(M)  = max{T_acc(M), T_host(M) + T_mpi} + T_swap [+ T_sync if both work]
// or, where the swap overlaps the accelerator's update (GPU nodes, two
// buffers: only the host side waits for it),
//   T_exe(M)  = max{T_acc(M), T_host(M) + T_mpi + T_swap} [+ T_sync]
// M* balances the two sides: T_acc(M*) = T_host(M*) + T_mpi (+ T_swap
// where overlapped). T_sync is the
// measured cost of synchronising two sides that both work: each step waits
// for the slower side of *that step*, so the mean step exceeds the max of
// the mean side times when their per-step times jitter (largest at balance).
// T_exe(0), the accelerator alone, is its measured step where known: work
// that leaves it at any split (a GPU's boundary rows, whose small launches
// cost more than their sites) puts it off the line through the splits.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kolb {

// Cost of one block update: a fixed overhead plus a per-site cost.
struct LinearCost {
  double overhead = 0;  // seconds per step (launches, halo fills)
  double per_site = 0;  // seconds per site update

  double operator()(double sites) const { return overhead + per_site * sites; }

  // Least-squares line through (sites, seconds) points from at least two
  // distinct sizes. When noise makes the fitted overhead negative or the
  // slope non-positive, the cost is refitted as proportional (no overhead).
  static LinearCost fit(const std::vector<std::pair<double, double>>& points) {
    if (points.size() < 2) throw std::invalid_argument("LinearCost::fit needs two or more points");
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto& [x, y] : points) sx += x, sy += y, sxx += x * x, sxy += x * y;
    const double n = double(points.size());
    const double det = n * sxx - sx * sx;
    if (!(det > 0)) throw std::invalid_argument("LinearCost::fit needs two distinct sizes");
    LinearCost c;
    c.per_site = (n * sxy - sx * sy) / det;
    c.overhead = (sy - c.per_site * sx) / n;
    if (c.overhead < 0 || !(c.per_site > 0)) c.overhead = 0, c.per_site = sxy / sxx;
    return c;
  }
};

// Whether M host columns per side of `columns` leave every part at least
// `min_part` columns wide (the lattice's halo width), or one space alone.
inline bool valid_split(int columns, int m, int min_part) {
  const int rest = columns - 2 * m;
  return m >= 0 && rest >= 0 && (m == 0 || m >= min_part) && (rest == 0 || rest >= min_part);
}

struct BalanceModel {
  LinearCost accelerator;
  LinearCost host;
  double swap = 0;               // host <-> accelerator halo swap per step
  double mpi = 0;                // MPI halo exchange per step (host side; 0 on one rank)
  double sync = 0;               // per step, when both sides have work (see above)
  bool swap_overlapped = false;  // the swap is on the host side's path only
  double accelerator_alone = 0;  // measured step at M = 0 (0: from the line)
  int columns = 0;               // LX
  double column_sites = 0;
  int quantum = 1;   // M is a multiple of this (a layout's vector length)
  int min_part = 1;  // the narrowest part a split may leave (the halo width)

  int max_host_columns() const { return columns / 2 / quantum * quantum; }
  double accelerator_time(double m) const {
    const double sites = (columns - 2 * m) * column_sites;
    return sites > 0 ? accelerator(sites) : 0.0;
  }
  double host_time(double m) const { return m > 0 ? host(2 * m * column_sites) + mpi : mpi; }
  double step_time(double m) const {
    if (m == 0 && accelerator_alone > 0) return accelerator_alone;
    const double a = accelerator_time(m), h = host_time(m);
    const bool both = a > 0 && m > 0;
    const double s = both ? swap : 0.0;  // one side alone swaps nothing
    return (swap_overlapped ? std::max(a, h + s) : std::max(a, h) + swap) + (both ? sync : 0.0);
  }

  // The real M where both sides take equally long (clamped to [0, LX/2]).
  double balance_point() const {
    const double denom = 2 * column_sites * (accelerator.per_site + host.per_site);
    if (!(denom > 0)) throw std::invalid_argument("BalanceModel: per-site costs must be positive");
    const double m = (accelerator.overhead - host.overhead - mpi - (swap_overlapped ? swap : 0.0) +
                      accelerator.per_site * columns * column_sites) /
                     denom;
    return std::clamp(m, 0.0, double(max_host_columns()));
  }

  // The valid M (a multiple of `quantum`) with the smallest model step time:
  // the neighbours of the balance point, or an end (accelerator only, host
  // only) where a side's fixed overhead makes sharing slower. A neighbour
  // that leaves a part thinner than `min_part` moves to the nearest valid M.
  int optimum() const {
    const double m = std::min(balance_point(), double(max_host_columns())) / quantum;
    const int thinnest = (min_part + quantum - 1) / quantum * quantum;
    int best = 0;
    for (int c : {int(std::floor(m)) * quantum, int(std::ceil(m)) * quantum, max_host_columns()}) {
      if (c > 0) c = std::max(c, thinnest);
      while (c > 0 && !valid_split(columns, c, min_part)) c -= quantum;
      if (step_time(c) < step_time(best)) best = c;
    }
    return best;
  }

  // Why optimum() leaves one space alone; empty when it splits. Either the
  // balance point lies below the narrowest split allowed (the host, or the
  // accelerator, is worth less than the thinnest part it may take), or
  // sharing costs more per step (swap, synchronisation) than it saves.
  std::string why_alone() const {
    const int best = optimum();
    const int top = max_host_columns();
    if (best > 0 && best < top) return {};
    const bool host_idle = best == 0;
    int thinnest = (min_part + quantum - 1) / quantum * quantum;  // the narrowest valid split
    while (thinnest <= top && !valid_split(columns, thinnest, min_part)) thinnest += quantum;
    int widest = top;  // the widest split that leaves the accelerator a part
    while (widest > 0 && !(valid_split(columns, widest, min_part) && columns - 2 * widest > 0))
      widest -= quantum;
    const double m = balance_point();
    char text[320];
    if (host_idle ? m < thinnest : m > widest) {
      std::snprintf(text, sizeof text,
                    "the sides balance at %.2f host columns per side, %s than the %s split "
                    "allowed (%d: parts at least %d columns wide, multiples of %d): the %s runs "
                    "alone",
                    m, host_idle ? "fewer" : "more", host_idle ? "narrowest" : "widest",
                    host_idle ? thinnest : widest, min_part, quantum,
                    host_idle ? "accelerator" : "host");
    } else {
      const int near = host_idle ? std::max(thinnest, int(m) / quantum * quantum)
                                 : std::min(widest, int(m) / quantum * quantum);
      std::snprintf(text, sizeof text,
                    "sharing (M = %d) would take %.3g ms per step against %.3g ms for the %s "
                    "alone: the swap (%.3g ms) and synchronisation (%.3g ms) per step cost more "
                    "than the %s's share saves",
                    near, 1e3 * step_time(near), 1e3 * step_time(best),
                    host_idle ? "accelerator" : "host", 1e3 * swap, 1e3 * sync,
                    host_idle ? "host" : "accelerator");
    }
    return text;
  }
};

}  // namespace kolb
