// ForceSeries (app/force_series.hpp).

#include "output_files.hpp"

#include <kolb/app/force_series.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace kolb {

double crossing_frequency(const std::vector<double>& steps, const std::vector<double>& signal) {
  const std::size_t n = std::min(steps.size(), signal.size());
  if (n < 3) return std::nan("");
  double mean = 0;
  for (std::size_t k = 0; k < n; ++k) mean += signal[k];
  mean /= double(n);
  std::vector<double> up;
  for (std::size_t k = 1; k < n; ++k) {
    const double a = signal[k - 1] - mean, b = signal[k] - mean;
    if (a < 0 && b >= 0) up.push_back(steps[k - 1] + (steps[k] - steps[k - 1]) * (-a) / (b - a));
  }
  if (up.size() < 3) return std::nan("");
  return double(up.size() - 1) / (up.back() - up.front());
}

std::string ForceSeries::header() const {
  std::ostringstream h;
  for (std::size_t k = 0; k < m_rows.size(); ++k) {
    for (int a = 0; a < m_case.dim; ++a) h << ",F" << k << '_' << axis_name(a);
    if (m_case.forces.given()) h << ",c_D" << k << ",c_L" << k;
  }
  return h.str();
}

std::string ForceSeries::row(std::int64_t step, const std::vector<std::array<double, 3>>& forces) {
  std::ostringstream r;
  r << std::setprecision(17);
  for (std::size_t k = 0; k < m_rows.size(); ++k) {
    const auto& f = forces[k];
    m_rows[k].push_back({step, f});
    for (int a = 0; a < m_case.dim; ++a) r << ',' << f[std::size_t(a)];
    if (m_case.forces.given())
      r << ',' << m_case.forces.coefficient(f[0]) << ',' << m_case.forces.coefficient(f[1]);
  }
  return r.str();
}

nlohmann::json ForceSeries::report() const {
  nlohmann::json out = nlohmann::json::array();
  const ForceReference& ref = m_case.forces;
  for (const auto& rows : m_rows) {
    nlohmann::json b;
    if (rows.empty()) {
      out.push_back(b);
      continue;
    }
    const auto& last = rows.back().force;
    b["step"] = rows.back().step;
    b["force"] = std::vector<double>(last.begin(), last.begin() + m_case.dim);
    if (ref.given()) {
      b["c_D"] = ref.coefficient(last[0]);
      b["c_L"] = ref.coefficient(last[1]);
      // The second half of the rows: the start-up is over.
      std::vector<double> steps, drag, lift;
      for (std::size_t j = rows.size() / 2; j < rows.size(); ++j) {
        steps.push_back(double(rows[j].step));
        drag.push_back(ref.coefficient(rows[j].force[0]));
        lift.push_back(ref.coefficient(rows[j].force[1]));
      }
      const auto mean = [](const std::vector<double>& v) {
        double s = 0;
        for (double x : v) s += x;
        return s / double(v.size());
      };
      b["second_half"] = {{"from_step", rows[rows.size() / 2].step},
                          {"c_D_max", *std::max_element(drag.begin(), drag.end())},
                          {"c_D_mean", mean(drag)},
                          {"c_L_max", *std::max_element(lift.begin(), lift.end())},
                          {"c_L_min", *std::min_element(lift.begin(), lift.end())},
                          {"c_L_mean", mean(lift)}};
      // A lift that swings by less than 0.1 % of the drag is steady: its
      // crossings are round-off and start-up ripples, not shedding.
      const double swing =
          *std::max_element(lift.begin(), lift.end()) - *std::min_element(lift.begin(), lift.end());
      const double f =
          swing > 1e-3 * std::abs(mean(drag)) ? crossing_frequency(steps, lift) : std::nan("");
      if (std::isfinite(f) && ref.length > 0)
        b["strouhal"] = f * ref.length / ref.velocity;
      else
        b["strouhal"] = nullptr;
    }
    out.push_back(b);
  }
  return out;
}

void ForceSeries::plot(const std::string& dir) const {
  if (empty() || m_rows[0].size() < 2) return;
  const bool coefficients = m_case.forces.given();
  const std::string data = dir + "forces_plot.dat";
  {
    std::ofstream out(data);
    out << std::setprecision(10);
    for (std::size_t j = 0; j < m_rows[0].size(); ++j) {
      out << m_rows[0][j].step;
      for (const auto& rows : m_rows)
        for (int a = 0; a < 2; ++a) {
          const double f = rows[j].force[std::size_t(a)];
          out << ' ' << (coefficients ? m_case.forces.coefficient(f) : f);
        }
      out << '\n';
    }
  }
  std::ofstream gp(dir + "forces_plot.gp");
  gp << "set terminal pngcairo size 1000,700\nset output '" << dir << "forces.png'\n"
     << "set multiplot layout 2,1\nset grid\nset xlabel 'step'\n";
  const char* names[2][2] = {{"c_D", "c_L"}, {"F_x", "F_y"}};
  for (int a = 0; a < 2; ++a) {
    gp << "set ylabel '" << names[coefficients ? 0 : 1][a] << "'\nplot ";
    for (std::size_t k = 0; k < m_rows.size(); ++k)
      gp << (k ? ", " : "") << "'" << data << "' using 1:" << 2 + 2 * k + a
         << " with lines title 'obstacle " << k << "'";
    gp << '\n';
  }
  gp << "unset multiplot\n";
  gp.close();
  run_gnuplot(dir + "forces_plot.gp", "kolb run");
}

}  // namespace kolb
