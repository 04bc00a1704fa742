// BoundedQueue: the producer-to-workers hand-off of the loader and the query runner. Capacity
// `workers`, as TSBS's channels, so the producer runs at most one item per worker ahead.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace gnomon::bench {

template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(size_t capacity) : capacity_(capacity) {}

  // Blocks while full. False when the queue was aborted (the item is dropped).
  bool Push(T&& item) {
    std::unique_lock lock(mu_);
    not_full_.wait(lock, [&] { return aborted_ || items_.size() < capacity_; });
    if (aborted_) return false;
    items_.push_back(std::move(item));
    not_empty_.notify_one();
    return true;
  }
  // Blocks while empty. Nothing when the queue is finished and drained, or aborted.
  std::optional<T> Pop() {
    std::unique_lock lock(mu_);
    not_empty_.wait(lock, [&] { return aborted_ || finished_ || !items_.empty(); });
    if (aborted_ || items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return item;
  }
  // No more items will come; Pop drains what is queued.
  void Finish() {
    std::lock_guard lock(mu_);
    finished_ = true;
    not_empty_.notify_all();
  }
  // Stops producer and consumers at once, dropping what is queued.
  void Abort() {
    std::lock_guard lock(mu_);
    aborted_ = true;
    items_.clear();
    not_empty_.notify_all();
    not_full_.notify_all();
  }

 private:
  const size_t capacity_;
  std::mutex mu_;
  std::condition_variable not_full_;
  std::condition_variable not_empty_;
  std::deque<T> items_;
  bool finished_ = false;
  bool aborted_ = false;
};

}  // namespace gnomon::bench
