// SeriesLimit: the cardinality limit of one database (EngineOptions::max_series_per_database),
// shared by its tables. Counts the database's series; a new series is admitted only while the
// count is under the limit. Enforced only once the engine has recovered: rows replayed from the
// WAL were accepted before. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace gnomon::storage {

class SeriesLimit {
 public:
  SeriesLimit(std::string database, uint64_t max) : database_(std::move(database)), max_(max) {}

  // Counts series that already exist (a table opened at start).
  void Add(uint64_t n) { count_.fetch_add(n, std::memory_order_relaxed); }
  // Whether new series must be admitted with TryTake (else they are only counted, with Add).
  bool limiting() const { return max_ > 0 && enforced_.load(std::memory_order_acquire); }
  // Admits one new series, or returns false when the database is full.
  bool TryTake() {
    if (!enforced_.load(std::memory_order_acquire) || max_ == 0) {
      count_.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
    uint64_t n = count_.load(std::memory_order_relaxed);
    while (n < max_) {
      if (count_.compare_exchange_weak(n, n + 1, std::memory_order_relaxed)) return true;
    }
    return false;
  }
  // A series admitted but not created (another writer created it first).
  void GiveBack() { count_.fetch_sub(1, std::memory_order_relaxed); }
  void Enforce() { enforced_.store(true, std::memory_order_release); }

  const std::string& database() const { return database_; }
  uint64_t max() const { return max_; }
  uint64_t count() const { return count_.load(std::memory_order_relaxed); }

 private:
  const std::string database_;
  const uint64_t max_;  // 0: no limit
  std::atomic<uint64_t> count_{0};
  std::atomic<bool> enforced_{false};
};

}  // namespace gnomon::storage
