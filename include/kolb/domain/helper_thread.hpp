#pragma once
// HelperThread: one persistent std::thread that runs submitted jobs, one at
// a time. In CPU-only builds it is where Kokkos::Serial runs the host blocks
// while the initialising thread drives OpenMP (docs/heterogeneous.md:
// Kokkos 3.4 OpenMP only works from the thread that initialised it, and only
// one thread at a time may use Serial). An exception thrown by a job is
// rethrown by wait().

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace kolb {

class HelperThread {
 public:
  HelperThread() : m_thread([this] { loop(); }) {}
  ~HelperThread() {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_quit = true;
    }
    m_cv.notify_all();
    m_thread.join();
  }
  HelperThread(const HelperThread&) = delete;
  HelperThread& operator=(const HelperThread&) = delete;

  // Starts `job` on the helper thread; the previous job must have been waited for.
  void submit(std::function<void()> job) {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_job = std::move(job);
      m_busy = true;
    }
    m_cv.notify_all();
  }

  // Blocks until the submitted job has finished; rethrows its exception.
  void wait() {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_cv.wait(lock, [this] { return !m_busy; });
    if (m_error) {
      std::exception_ptr e = m_error;
      m_error = nullptr;
      std::rethrow_exception(e);
    }
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
      m_cv.wait(lock, [this] { return m_quit || m_busy; });
      if (m_quit) return;
      std::function<void()> job = std::move(m_job);
      lock.unlock();
      std::exception_ptr error;
      try {
        job();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      m_error = error;
      m_busy = false;
      m_cv.notify_all();
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::function<void()> m_job;
  std::exception_ptr m_error;
  bool m_busy = false;
  bool m_quit = false;
  std::thread m_thread;  // last: starts after the members it uses exist
};

}  // namespace kolb
