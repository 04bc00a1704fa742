// DatabaseLimits: the size limits of one database (EngineOptions::max_series_per_database,
// max_tables_per_database, max_columns_per_table), shared by its tables. Counts the database's
// series; a new series is admitted only while the count is under the limit. Enforced only once
// the engine has recovered: what the WAL replays was accepted before, under whatever limits held
// then. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace gnomon::storage {

class DatabaseLimits {
 public:
  // 0 for any maximum: no limit.
  DatabaseLimits(std::string database, uint64_t max_series, uint64_t max_tables = 0, uint64_t max_columns = 0)
      : database_(std::move(database)), max_(max_series), max_tables_(max_tables), max_columns_(max_columns) {}

  // Counts series that already exist (a table opened at start).
  void Add(uint64_t n) { count_.fetch_add(n, std::memory_order_relaxed); }
  // Whether new series must be admitted with TryTake (else they are only counted, with Add).
  bool limiting() const { return max_ > 0 && enforced(); }
  // Admits one new series, or returns false when the database is full.
  bool TryTake() {
    if (!enforced() || max_ == 0) {
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
  bool enforced() const { return enforced_.load(std::memory_order_acquire); }

  // Whether a database of `tables` tables may create another (false only once enforced).
  bool MayAddTable(uint64_t tables) const { return max_tables_ == 0 || !enforced() || tables < max_tables_; }
  // Whether a table of `columns` tag and field columns (time not counted) may take another.
  bool MayAddColumn(uint64_t columns) const { return max_columns_ == 0 || !enforced() || columns < max_columns_; }

  const std::string& database() const { return database_; }
  uint64_t max() const { return max_; }
  uint64_t max_tables() const { return max_tables_; }
  uint64_t max_columns() const { return max_columns_; }
  uint64_t count() const { return count_.load(std::memory_order_relaxed); }

 private:
  const std::string database_;
  const uint64_t max_;  // series; 0: no limit
  const uint64_t max_tables_;
  const uint64_t max_columns_;
  std::atomic<uint64_t> count_{0};
  std::atomic<bool> enforced_{false};
};

}  // namespace gnomon::storage
