#pragma once
// How `kolb bench` pairs a row with its bound: the row's repeats alternate
// with windows of its same-pattern probe, and the bound is the best window
// from before the first repeat to after the last. A shared machine's
// bandwidth moves within minutes: with windows only before and after all
// repeats, or the two next to the median repeat alone, a rise during the
// repeats let a row read above 100 %.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace kolb {

// A row's repeats and the probe windows between them, reduced: the median
// seconds per step (what a run sustains), the fastest, and the bound, the
// best of all windows over one stream and over Q (and the FP64 peak
// likewise; 0 where none was measured); and the timeline.
struct TimedRow {
  double median = 0, best = 0;
  double one = 0, many = 0;
  double peak = 0;
  std::vector<double> seconds;  // per step, of each repeat in the order run
  std::vector<double> windows;  // the better of one and many, of each window
};

// Runs window 0, repeat 0, window 1, ..., repeat n - 1, window n, with
// `repeat()` returning seconds per step, `window()` a rate pair with
// members one and many (StreamRates), `peak()` GFLOP/s or 0; reduces them
// as TimedRow says. With an even n the median is the mean of the two middle
// repeats.
template <class Repeat, class Window, class Peak>
TimedRow time_between_probes(const Repeat& repeat, const Window& window, const Peak& peak,
                             int repeats) {
  TimedRow t;
  const auto take_window = [&] {
    const auto w = window();
    t.one = std::max(t.one, w.one);
    t.many = std::max(t.many, w.many);
    t.windows.push_back(std::max(w.one, w.many));
    t.peak = std::max(t.peak, peak());
  };
  take_window();
  for (int r = 0; r < repeats; ++r) {
    t.seconds.push_back(repeat());
    take_window();
  }
  std::vector<double> sorted = t.seconds;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t mid = sorted.size() / 2;
  t.median = sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
  t.best = sorted.front();
  return t;
}

}  // namespace kolb
