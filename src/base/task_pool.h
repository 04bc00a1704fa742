// TaskPool: long-lived threads that lend themselves to work split into slots (ParallelFor), so
// that a query's operator does not create a thread for each piece of parallel work (creating and
// joining one costs tens of microseconds here, several times per last-point query).
//
// The caller always takes part: it runs slots itself until none is left, and a pool thread only
// joins in if it is free before then. A pool busy with other queries therefore makes a query
// less parallel, never stalled, and every slot runs exactly once whatever the pool does.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gnomon {

class TaskPool {
 public:
  // `threads` helpers (0: ParallelFor runs everything on the caller).
  explicit TaskPool(int threads);
  ~TaskPool();
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  int threads() const { return static_cast<int>(threads_.size()); }

  // Runs body(slot) once for every slot in [0, width), on the calling thread and on up to
  // width - 1 helpers that are free; returns when every slot has returned. Slots may run in any
  // order and several on one thread, one after another. Thread-safe: many callers may share it.
  void ParallelFor(int width, const std::function<void(int)>& body);

 private:
  struct Job {
    const std::function<void(int)>* body = nullptr;
    int width = 0;
    std::atomic<int> next{0};  // next slot to claim
    int helpers = 0;           // pool threads working on it (under mu_)
    std::condition_variable helpers_done;
  };
  // Claims and runs the job's slots until none is left.
  static void RunSlots(Job* job);
  void Loop();

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::deque<Job*> queue_;  // one entry per helper a job asks for
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace gnomon
