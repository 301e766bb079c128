#pragma once
// ForceSeries: the forces on a run's obstacles at each row of forces.csv,
// and what report.json and forces.png make of them: the
// last force, c_D and c_L, their extremes and means over the second half of
// the run's steps (the first half is the start-up), and the Strouhal number
// of the lift. A restart resumes the rows the run before it wrote, so both
// cover the whole run.

#include <kolb/io/case.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kolb {

// The frequency (per step) of a signal sampled at `steps`: its upward
// crossings of `level` (its mean), interpolated linearly, over their span.
// NaN with fewer than three crossings (a steady or too short signal).
double crossing_frequency(const std::vector<double>& steps, const std::vector<double>& signal,
                          double level);

class ForceSeries {
 public:
  explicit ForceSeries(const Case& c) : m_case(c), m_rows(c.obstacles.size()) {}

  bool empty() const { return m_case.obstacles.empty(); }
  // forces.csv's columns after the step (each begins with ',').
  std::string header() const;
  // A row's: the forces (one per obstacle) at `step`, kept for the report.
  std::string row(std::int64_t step, const std::vector<std::array<double, 3>>& forces);
  // On a restart: the rows of forces.csv `csv` (its header, which must be
  // header()'s, then rows as row() writes them), kept as if this run had
  // written them.
  void resume(const std::string& csv);
  // report.json's "forces": per obstacle, the last force and, with a
  // reference, c_D and c_L with their extremes and mean over the rows from
  // the middle step of the rows on (the mean weighting each row by the steps
  // since the row before, so that a restart at another cadence does not tilt
  // it) and the Strouhal number St = f L / U of the lift (null where the
  // lift swings by less than 0.1 % of the mean drag: a steady wake).
  nlohmann::json report() const;
  // forces.png in `dir`: c_D and c_L (or the force) of each obstacle over
  // the steps (gnuplot, if installed).
  void plot(const std::string& dir) const;

 private:
  struct Sample {
    std::int64_t step;
    std::array<double, 3> force;
  };
  const Case& m_case;
  std::vector<std::vector<Sample>> m_rows;  // per obstacle
};

}  // namespace kolb
