#pragma once
// How `kolb bench` pairs a row with its bound: the row's repeats alternate
// with windows of its same-pattern probe, and the median repeat is judged
// against the windows right before and right after it. This machine's
// bandwidth moves by 1.5x within minutes (33 to 77 GB/s seen): a bound
// measured around all repeats together let a row read 106 % when the
// bandwidth rose during it, and others read low when it fell.

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace kolb {

// A row's repeats and the probe windows between them, reduced: the median
// seconds per step (what a run sustains), the fastest, and the bound of the
// median, the best of the windows right before and right after the
// repeat(s) that make it, over one stream and over Q (and the FP64 peak
// likewise; 0 where none was measured).
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
// repeats, judged against the windows around both.
template <class Repeat, class Window, class Peak>
TimedRow time_between_probes(const Repeat& repeat, const Window& window, const Peak& peak,
                             int repeats) {
  std::vector<decltype(window())> windows{window()};
  std::vector<double> peaks{peak()}, seconds;
  for (int r = 0; r < repeats; ++r) {
    seconds.push_back(repeat());
    windows.push_back(window());
    peaks.push_back(peak());
  }
  std::vector<std::size_t> order(seconds.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return seconds[a] < seconds[b]; });
  const std::size_t mid = order.size() / 2;
  std::vector<std::size_t> middle{order[mid]};
  if (order.size() % 2 == 0) middle.push_back(order[mid - 1]);
  TimedRow t;
  t.seconds = seconds;
  for (const auto& w : windows) t.windows.push_back(std::max(w.one, w.many));
  t.best = seconds[order.front()];
  for (const std::size_t r : middle) {
    t.median += seconds[r] / double(middle.size());
    for (const std::size_t w : {r, r + 1}) {
      t.one = std::max(t.one, windows[w].one);
      t.many = std::max(t.many, windows[w].many);
      t.peak = std::max(t.peak, peaks[w]);
    }
  }
  return t;
}

}  // namespace kolb
