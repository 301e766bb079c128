// The balancer's model on synthetic costs: the fit recovers known lines and
// the solver gives the analytic M*, including the ends where one space
// should take the whole lattice.
#include <kolb/balance/model.hpp>
#include <kolb/balance/rebalance.hpp>

#include <gtest/gtest.h>

#include <tuple>
#include <utility>

namespace {

kolb::BalanceModel model(double tau_acc, double tau_host, double acc0 = 0, double host0 = 0,
                         double mpi = 0, int columns = 1000, double column_sites = 100) {
  kolb::BalanceModel m;
  m.accelerator = {acc0, tau_acc};
  m.host = {host0, tau_host};
  m.mpi = mpi;
  m.swap = 1e-4;
  m.columns = columns;
  m.column_sites = column_sites;
  return m;
}

TEST(LinearCost, FitRecoversLine) {
  const kolb::LinearCost exact{2e-4, 3e-9};
  const auto c = kolb::LinearCost::fit({{1e5, exact(1e5)}, {3e5, exact(3e5)}, {7e5, exact(7e5)}});
  EXPECT_NEAR(c.overhead, exact.overhead, 1e-12);
  EXPECT_NEAR(c.per_site, exact.per_site, 1e-18);
  // Noise that would make the overhead negative: clamped, slope through 0.
  const auto d = kolb::LinearCost::fit({{1e5, 1.0e-4}, {2e5, 2.3e-4}});
  EXPECT_EQ(d.overhead, 0.0);
  EXPECT_NEAR(d.per_site, (1e5 * 1e-4 + 2e5 * 2.3e-4) / (1e10 + 4e10), 1e-20);
  // Times that fall with size (noise): proportional fit, positive slope.
  const auto e = kolb::LinearCost::fit({{1e5, 2e-4}, {2e5, 1e-4}});
  EXPECT_EQ(e.overhead, 0.0);
  EXPECT_NEAR(e.per_site, (1e5 * 2e-4 + 2e5 * 1e-4) / 5e10, 1e-20);
  EXPECT_THROW(kolb::LinearCost::fit({{1e5, 1e-4}}), std::invalid_argument);
  EXPECT_THROW(kolb::LinearCost::fit({{1e5, 1e-4}, {1e5, 2e-4}}), std::invalid_argument);
}

TEST(BalanceModel, AnalyticBalancePoint) {
  // Host three times slower per site, no overheads: 2M tau_h = (LX - 2M) tau_a
  // -> M* = LX tau_a / (2 (tau_a + tau_h)) = 125.
  auto m = model(1e-9, 3e-9);
  EXPECT_DOUBLE_EQ(m.balance_point(), 125.0);
  EXPECT_EQ(m.optimum(), 125);
  EXPECT_NEAR(m.step_time(125), 750 * 100 * 1e-9 + 1e-4, 1e-15);
  // Overheads and an MPI exchange on the host shift it analytically:
  // a0 + tau_a (LX - 2M) cs = h0 + mpi + tau_h 2M cs.
  m = model(1e-9, 3e-9, 5e-5, 1e-5, 2e-5);
  const double expected = (5e-5 - 1e-5 - 2e-5 + 1e-9 * 1000 * 100) / (2 * 100 * 4e-9);
  EXPECT_NEAR(m.balance_point(), expected, 1e-9);
  EXPECT_NEAR(m.accelerator_time(m.balance_point()), m.host_time(m.balance_point()), 1e-15);
  const int opt = m.optimum();
  for (int k = 0; k <= 500; ++k) EXPECT_LE(m.step_time(opt), m.step_time(k)) << k;
}

// GPU nodes swap while the accelerator updates: the swap is on the host
// side's path only, so it moves the balance (a0 + tau_a (LX - 2M) cs =
// h0 + mpi + swap + tau_h 2M cs) and leaves the accelerator's time alone.
TEST(BalanceModel, OverlappedSwapIsOnTheHostSide) {
  auto ordered = model(1e-9, 3e-9, 0, 0, 2e-5);
  ordered.swap = 3e-5;
  auto overlapped = ordered;
  overlapped.swap_overlapped = true;
  EXPECT_DOUBLE_EQ(ordered.balance_point(), (-2e-5 + 1e-9 * 1000 * 100) / (2 * 100 * 4e-9));
  const double m = overlapped.balance_point();
  EXPECT_NEAR(m, (-2e-5 - 3e-5 + 1e-9 * 1000 * 100) / (2 * 100 * 4e-9), 1e-9);
  EXPECT_NEAR(overlapped.accelerator_time(m), overlapped.host_time(m) + overlapped.swap, 1e-15);
  // At the balance the step is the accelerator's alone, shorter than the
  // ordered schedule's best by more than the swap's share.
  EXPECT_NEAR(overlapped.step_time(m), overlapped.accelerator_time(m), 1e-15);
  EXPECT_LT(overlapped.step_time(overlapped.optimum()),
            ordered.step_time(ordered.optimum()) - 0.5 * ordered.swap);
  // Far from the balance the slower side rules; a side alone swaps nothing.
  EXPECT_NEAR(overlapped.step_time(10), overlapped.accelerator_time(10), 1e-15);
  EXPECT_NEAR(overlapped.step_time(400), overlapped.host_time(400) + 3e-5, 1e-15);
  EXPECT_NEAR(overlapped.step_time(0), overlapped.accelerator_time(0), 1e-15);
  const int opt = overlapped.optimum();
  for (int k = 0; k <= 500; ++k) EXPECT_LE(overlapped.step_time(opt), overlapped.step_time(k)) << k;
}

TEST(BalanceModel, EndsWhereOneSpaceTakesEverything) {
  // A host 100x faster per site still leaves the accelerator a few columns
  // (M* = 1000 / 2.02) ...
  auto m = model(1e-9, 1e-11);
  EXPECT_NEAR(m.balance_point(), 1000 / 2.02, 1e-9);
  EXPECT_EQ(m.optimum(), 496);  // max(T_acc, T_host) is smaller at ceil(M*) here
  for (int k = 0; k <= 500; ++k) EXPECT_LE(m.step_time(496), m.step_time(k)) << k;
  // ... unless its launch overhead outweighs them: the balance point is
  // past LX/2 and the host takes all.
  m = model(1e-9, 1e-11, 1e-4);
  EXPECT_DOUBLE_EQ(m.balance_point(), 500.0);
  EXPECT_EQ(m.optimum(), 500);
  EXPECT_EQ(m.accelerator_time(500), 0.0);
  // A host whose fixed overhead exceeds the accelerator's whole step:
  // accelerator only, although the per-site costs alone would share.
  m = model(1e-9, 1e-9, 0, 1e-3);
  EXPECT_EQ(m.optimum(), 0);
  EXPECT_EQ(m.host_time(0), 0.0);
  // Odd LX: LX/2 host columns per side leave one accelerator column.
  m = model(1e-9, 1e-12, 0, 0, 0, 101);
  EXPECT_EQ(m.max_host_columns(), 50);
  EXPECT_EQ(m.optimum(), 50);
  EXPECT_GT(m.accelerator_time(50), 0.0);
}

TEST(BalanceModel, MeasuredAloneStepReplacesTheLineAtZero) {
  // A GPU node (overlapped swap) whose line through the splits puts the
  // accelerator alone at 1 ms, below the best split (M = 17: 0.966 ms and
  // 0.05 ms of synchronisation): alone wins.
  auto m = model(1e-8, 2e-7, 0, 1.5e-4);
  m.swap_overlapped = true;
  m.sync = 5e-5;
  EXPECT_NEAR(m.balance_point(), 7.5e-4 / 4.2e-5, 1e-9);
  EXPECT_NEAR(m.step_time(17), 1.016e-3, 1e-12);
  EXPECT_EQ(m.optimum(), 0);
  EXPECT_DOUBLE_EQ(m.step_time(0), 1e-3);
  EXPECT_FALSE(m.why_alone().empty());
  // Measured alone at 1.2 ms (work that leaves the accelerator at any
  // split, e.g. a GPU's wall rows): the split wins; only M = 0 moved.
  m.accelerator_alone = 1.2e-3;
  EXPECT_DOUBLE_EQ(m.step_time(0), 1.2e-3);
  EXPECT_NEAR(m.step_time(17), 1.016e-3, 1e-12);
  EXPECT_EQ(m.optimum(), 17);
  EXPECT_TRUE(m.why_alone().empty());
  // Measured faster than its line: alone again.
  m.accelerator_alone = 0.9e-3;
  EXPECT_EQ(m.optimum(), 0);
}

TEST(BalanceModel, SplitsAtMultiplesOfTheVectorLength) {
  auto m = model(1e-9, 3e-9);  // balance point 125
  m.quantum = 8;
  EXPECT_EQ(m.optimum() % 8, 0);
  EXPECT_TRUE(m.optimum() == 120 || m.optimum() == 128) << m.optimum();
  for (int k = 0; k <= 496; k += 8) EXPECT_LE(m.step_time(m.optimum()), m.step_time(k)) << k;
  EXPECT_EQ(m.max_host_columns(), 496);  // 500 rounded down to a multiple of 8
}

// D2Q37 parts are at least 3 columns wide: a balance point near either end
// moves to the best split that leaves both parts valid.
TEST(BalanceModel, SplitsLeaveEveryPartTheHaloWide) {
  for (const auto& [tau_acc, tau_host] : {std::pair{1e-9, 30e-9}, std::pair{30e-9, 1e-9}}) {
    auto m = model(tau_acc, tau_host, 0, 0, 0, 64);
    m.min_part = 3;
    const int opt = m.optimum();
    EXPECT_TRUE(kolb::valid_split(64, opt, 3)) << opt;
    for (int k = 0; k <= 32; ++k)
      if (kolb::valid_split(64, k, 3)) {
        EXPECT_LE(m.step_time(opt), m.step_time(k)) << k;
      }
  }
  EXPECT_FALSE(kolb::valid_split(64, 2, 3));
  EXPECT_FALSE(kolb::valid_split(64, 31, 3));  // leaves 2 to the accelerator
  EXPECT_TRUE(kolb::valid_split(64, 32, 3));   // the host alone
}

}  // namespace

// The synchronisation cost counts only when both sides have work, and an
// end wins when it exceeds what sharing saves.
TEST(BalanceModel, SyncCostOnlyWhenBothWork) {
  auto m = model(1e-9, 1e-8);  // balance at 1e-4 / 2.2e-6 = 45.45 columns
  EXPECT_EQ(m.optimum(), 45);
  m.sync = 5e-6;
  EXPECT_NEAR(m.step_time(45), 9.1e-5 + 1e-4 + 5e-6, 1e-12);
  EXPECT_NEAR(m.step_time(0), 1e-4 + 1e-4, 1e-12);          // accelerator alone
  EXPECT_NEAR(m.step_time(500), 1e-8 * 1e5 + 1e-4, 1e-12);  // host alone
  EXPECT_EQ(m.optimum(), 45);
  m.sync = 2e-5;  // more than sharing saves (9e-6): the accelerator takes everything
  EXPECT_EQ(m.optimum(), 0);
}

// Re-balancing: side times within the threshold keep the split; a drift that
// persists for `patience` windows moves to the balance of the measured
// per-site costs; one side alone is never judged.
TEST(Rebalancer, MovesToTheMeasuredBalanceAfterPersistentDrift) {
  kolb::BalanceModel base = model(0, 0, 0, 0, 0, 1000, 100);
  base.quantum = 8;
  kolb::Rebalancer r(base, 0.1, 3);
  // M = 200: the accelerator's 600 columns, the host's 400; 10 steps.
  auto window = [](double tau_acc, double tau_host, int m) {
    return std::pair{10 * tau_acc * (1000 - 2 * m) * 100, 10 * tau_host * 2 * m * 100};
  };
  auto [a, h] = window(1e-9, 1.5e-9, 200);  // 6e-5 vs 6e-5 per step: balanced
  for (int k = 0; k < 5; ++k) EXPECT_EQ(r.observe(200, 10, a, h, 0), -1);
  EXPECT_NEAR(r.imbalance(), 0, 1e-12);
  // The host slows down 2x: 1.2e-4 vs 6e-5 per step, imbalance +0.5.
  std::tie(a, h) = window(1e-9, 3e-9, 200);
  EXPECT_EQ(r.observe(200, 10, a, h, 0), -1);
  EXPECT_EQ(r.observe(200, 10, a, h, 0), -1);
  // Balance of tau 1e-9 / 3e-9: 2M * 3 = 1000 - 2M -> M = 125, multiple of 8: 120 or 128.
  const int next = r.observe(200, 10, a, h, 0);
  EXPECT_TRUE(next == 120 || next == 128) << next;
  EXPECT_NEAR(r.imbalance(), 0.5, 1e-12);
  // A window back within the threshold resets the count.
  std::tie(a, h) = window(1e-9, 3e-9, 125);
  EXPECT_EQ(r.observe(125, 10, a, h * 1.05, 0), -1);
  EXPECT_EQ(r.observe(125, 10, a * 2, h, 0), -1);
  EXPECT_EQ(r.observe(125, 10, a, h, 0), -1);
  EXPECT_EQ(r.observe(125, 10, a * 2, h, 0), -1);
  // One side alone: nothing to compare.
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(r.observe(0, 10, 1.0, 0, 0), -1);
    EXPECT_EQ(r.observe(500, 10, 0, 1.0, 0), -1);
  }
}

// When one space runs alone the model says why: a balance point below the
// narrowest allowed part, or a swap and synchronisation that cost more than
// sharing saves.
TEST(BalanceModel, SaysWhyOneSpaceRunsAlone) {
  auto m = model(1e-9, 1e-8);  // balance at 45.45 columns: a split, no reason given
  EXPECT_EQ(m.why_alone(), "");
  m = model(1e-9, 1e-6);  // the host is 1000x slower: balance at 0.50 columns
  m.min_part = 3;
  EXPECT_EQ(m.optimum(), 0);
  std::string why = m.why_alone();
  EXPECT_NE(why.find("balance at 0.50 host columns"), std::string::npos) << why;
  EXPECT_NE(why.find("narrowest split allowed (3"), std::string::npos) << why;
  EXPECT_NE(why.find("accelerator runs alone"), std::string::npos) << why;
  m = model(1e-9, 1e-8);
  m.sync = 2e-5;  // more than sharing saves (see SyncCostOnlyWhenBothWork)
  EXPECT_EQ(m.optimum(), 0);
  why = m.why_alone();
  EXPECT_NE(why.find("synchronisation (0.02 ms)"), std::string::npos) << why;
  m = model(1e-6, 1e-9);  // the accelerator is 1000x slower: the host takes everything
  m.min_part = 3;
  EXPECT_EQ(m.optimum(), m.max_host_columns());
  why = m.why_alone();
  EXPECT_NE(why.find("host runs alone"), std::string::npos) << why;
}
