#include "src/base/task_pool.h"

#include <algorithm>

namespace gnomon {

TaskPool::TaskPool(int threads) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Loop(); });
}

TaskPool::~TaskPool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void TaskPool::RunSlots(Job* job) {
  for (int slot; (slot = job->next.fetch_add(1, std::memory_order_relaxed)) < job->width;) (*job->body)(slot);
}

void TaskPool::Loop() {
  std::unique_lock lock(mu_);
  while (true) {
    work_cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    Job* job = queue_.front();
    queue_.pop_front();
    ++job->helpers;  // the job stays alive until this thread lets go of it
    lock.unlock();
    RunSlots(job);
    lock.lock();
    // Notified under the lock: the caller cannot see zero and destroy the job before this returns.
    if (--job->helpers == 0) job->helpers_done.notify_all();
  }
}

void TaskPool::ParallelFor(int width, const std::function<void(int)>& body) {
  if (width <= 1 || threads_.empty()) {
    for (int slot = 0; slot < width; ++slot) body(slot);
    return;
  }
  Job job;
  job.body = &body;
  job.width = width;
  const int asks = std::min(width - 1, threads());
  {
    std::lock_guard lock(mu_);
    for (int i = 0; i < asks; ++i) queue_.push_back(&job);
  }
  if (asks == 1) {
    work_cv_.notify_one();
  } else {
    work_cv_.notify_all();
  }
  RunSlots(&job);
  // Every slot is claimed: withdraw the requests no helper took, then wait for those that did.
  std::unique_lock lock(mu_);
  queue_.erase(std::remove(queue_.begin(), queue_.end(), &job), queue_.end());
  job.helpers_done.wait(lock, [&] { return job.helpers == 0; });
}

}  // namespace gnomon
