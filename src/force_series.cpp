// ForceSeries (app/force_series.hpp).

#include "output_files.hpp"

#include <kolb/app/force_series.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace kolb {

double crossing_frequency(const std::vector<double>& steps, const std::vector<double>& signal,
                          double level) {
  const std::size_t n = std::min(steps.size(), signal.size());
  if (n < 3) return std::nan("");
  std::vector<double> up;
  for (std::size_t k = 1; k < n; ++k) {
    const double a = signal[k - 1] - level, b = signal[k] - level;
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

void ForceSeries::resume(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // the header (RunOutputs checked it)
  const int columns = m_case.dim + (m_case.forces.given() ? 2 : 0);
  while (std::getline(in, line)) {
    // A row cut short (a crash while writing it) holds no forces: skipped.
    char* at = nullptr;
    const std::int64_t step = std::strtoll(line.c_str(), &at, 10);
    std::vector<std::array<double, 3>> forces(m_rows.size(), {0, 0, 0});
    bool whole = at != line.c_str();
    for (std::size_t k = 0; whole && k < m_rows.size(); ++k)
      for (int c = 0; whole && c < columns; ++c) {
        char* next = nullptr;
        const double v = *at == ',' ? std::strtod(at + 1, &next) : 0;
        whole = *at == ',' && next != at + 1;
        if (whole && c < m_case.dim) forces[k][std::size_t(c)] = v;
        at = next;
      }
    if (!whole || *at != '\0') continue;
    for (std::size_t k = 0; k < m_rows.size(); ++k) m_rows[k].push_back({step, forces[k]});
  }
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
      // The rows of the second half of the steps: the start-up is over.
      const double middle = 0.5 * (double(rows.front().step) + double(rows.back().step));
      std::size_t first = 0;
      while (double(rows[first].step) < middle) ++first;
      std::vector<double> steps, drag, lift;
      for (std::size_t j = first; j < rows.size(); ++j) {
        steps.push_back(double(rows[j].step));
        drag.push_back(ref.coefficient(rows[j].force[0]));
        lift.push_back(ref.coefficient(rows[j].force[1]));
      }
      // Each row weighs the steps since the one before (all alike at one
      // cadence; a restart may sample more or less often).
      const auto mean = [&](const std::vector<double>& v) {
        double s = 0, w = 0, plain = 0;
        for (std::size_t j = 0; j < v.size(); ++j) {
          const std::size_t g = first + j;
          const double wj = g > 0 ? double(rows[g].step - rows[g - 1].step) : 0.0;
          s += wj * v[j];
          w += wj;
          plain += v[j];
        }
        return w > 0 ? s / w : plain / double(v.size());
      };
      const double drag_mean = mean(drag), lift_mean = mean(lift);
      const auto [lift_min, lift_max] = std::minmax_element(lift.begin(), lift.end());
      b["second_half"] = {
          {"from_step", rows[first].step}, {"c_D_max", *std::max_element(drag.begin(), drag.end())},
          {"c_D_mean", drag_mean},         {"c_L_max", *lift_max},
          {"c_L_min", *lift_min},          {"c_L_mean", lift_mean}};
      // A lift that swings by less than 0.1 % of the drag is steady: its
      // crossings are round-off and start-up ripples, not shedding.
      const double f = *lift_max - *lift_min > 1e-3 * std::abs(drag_mean)
                           ? crossing_frequency(steps, lift, lift_mean)
                           : std::nan("");
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
  // Both through a temporary file: a failed write leaves the last plot's
  // files whole. It is a note, like a failed gnuplot: forces.csv holds the
  // data, and report.json is still to be written.
  const std::string data = dir + "forces_plot.dat";
  try {
    write_atomically_with(data, [&](std::ofstream& out) {
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
    });
    std::ostringstream gp;
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
    write_atomically(dir + "forces_plot.gp", gp.str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kolb run: %s (forces.png not drawn)\n", e.what());
    return;
  }
  run_gnuplot(dir + "forces_plot.gp", "kolb run");
}

}  // namespace kolb
