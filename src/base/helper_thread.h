// HelperThread: one long-lived thread that runs posted tasks one at a time, for work split in
// two many times over (e.g. each chunk of a large answer rendered in halves): waking a waiting
// thread is cheaper than creating one per piece, and its buffers stay warm.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace gnomon {

class HelperThread {
 public:
  HelperThread() : thread_([this] { Loop(); }) {}
  ~HelperThread() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  HelperThread(const HelperThread&) = delete;
  HelperThread& operator=(const HelperThread&) = delete;

  // Starts `task` on the helper. REQUIRES: the previous task was waited for.
  void Post(std::function<void()> task) {
    {
      std::lock_guard lock(mu_);
      task_ = std::move(task);
      pending_ = true;
    }
    cv_.notify_all();
  }
  // Blocks until the posted task has finished.
  void Wait() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !pending_; });
  }

 private:
  void Loop() {
    std::unique_lock lock(mu_);
    while (true) {
      cv_.wait(lock, [&] { return stop_ || pending_; });
      if (!pending_) return;  // stopping, nothing left to run
      std::function<void()> task = std::move(task_);
      lock.unlock();
      task();
      lock.lock();
      pending_ = false;
      cv_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> task_;
  bool pending_ = false;
  bool stop_ = false;
  std::thread thread_;  // last: starts once the members it uses exist
};

}  // namespace gnomon
