#pragma once
// Re-balancing during a run: the node's two sides are timed over windows of
// steps; when their times differ by more than a threshold for `patience`
// windows in a row (the machine's speed drifted, or the flow changed the
// cost of a side), the per-site costs measured in the last window give the
// model of balance/model.hpp a new optimum, and the run moves to it
// (Domain::resplit keeps the populations bit for bit).

#include <kolb/balance/model.hpp>

#include <cmath>

namespace kolb {

class Rebalancer {
 public:
  // `base`: the node's columns, column sites, split quantum and narrowest
  // part (its costs are replaced by the measured ones); `threshold`: the
  // relative difference of the side times that counts as drift.
  Rebalancer(const BalanceModel& base, double threshold, int patience = 3)
      : m_base(base), m_threshold(threshold), m_patience(patience) {}

  // One window at split m: `steps` steps, each side's own work in seconds
  // (accelerator update; host update including its MPI exchange `mpi`).
  // Returns the split to move to, or -1 to stay. Only splits where both
  // sides work are judged (one side alone has nothing to compare).
  int observe(int m, double steps, double accelerator, double host, double mpi) {
    const double acc_sites = (m_base.columns - 2.0 * m) * m_base.column_sites;
    const double host_sites = 2.0 * m * m_base.column_sites;
    if (!(steps > 0) || !(acc_sites > 0) || !(host_sites > 0)) return reset();
    const double a = accelerator / steps, h = host / steps, x = mpi / steps;
    m_imbalance = (h - a) / std::max(std::max(a, h), 1e-300);
    if (!(std::abs(m_imbalance) > m_threshold) || !(a > 0) || !(h - x > 0)) return reset();
    if (++m_strikes < m_patience) return -1;
    m_strikes = 0;
    BalanceModel model = m_base;
    model.accelerator = {0, a / acc_sites};
    model.host = {0, (h - x) / host_sites};
    model.mpi = x;
    model.swap = model.sync = 0;
    const int next = model.optimum();
    return next == m ? -1 : next;
  }

  // (host − accelerator) / the slower side, of the last window judged.
  double imbalance() const { return m_imbalance; }

 private:
  int reset() {
    m_strikes = 0;
    return -1;
  }
  BalanceModel m_base;
  double m_threshold;
  int m_patience;
  int m_strikes = 0;
  double m_imbalance = 0;
};

}  // namespace kolb
