#pragma once
// SIGINT / SIGTERM handlers installed for a scope (internal to src/): the
// run loop and the batch note a signal and act on it at a safe point.

#include <csignal>

namespace kolb {

class SignalGuard {
 public:
  explicit SignalGuard(void (*handler)(int))
      : m_int(std::signal(SIGINT, handler)), m_term(std::signal(SIGTERM, handler)) {}
  ~SignalGuard() {
    std::signal(SIGINT, m_int);
    std::signal(SIGTERM, m_term);
  }
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

 private:
  void (*m_int)(int);
  void (*m_term)(int);
};

}  // namespace kolb
