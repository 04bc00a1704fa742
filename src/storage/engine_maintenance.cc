// EngineImpl: freezing memtables, flushing them to segments, compaction, retention, shutdown.
#include <algorithm>
#include <chrono>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "src/base/fault_point.h"
#include "src/base/logging.h"
#include "src/base/time_util.h"
#include "src/storage/engine_impl.h"

namespace gnomon::storage {
namespace {
constexpr auto kRetentionInterval = std::chrono::seconds(60);
// After a flush a registry is checkpointed once its log holds as many series as its snapshot
// (and EngineOptions::registry_checkpoint_series), so a growing fleet rewrites its snapshot at
// 1, 2, 4, 8 M...: each series is encoded about twice overall.
constexpr double kFlushCheckpointFraction = 1.0;
}  // namespace

Status EngineImpl::FreezeAll() {
  std::lock_guard freeze(freeze_mu_);
  // No write may be between its WAL append and its memtable apply while the WAL is cut.
  ExclusiveSection exclusive(&gate_);
  bool any = false;
  for (const auto& t : AllTables()) any |= t->Freeze();
  memtable_bytes_ = 0;
  if (!any) return Status::OK();
  GNOMON_ASSIGN_OR_RETURN(uint64_t segment, wal_->Rotate());
  std::lock_guard lock(bg_mu_);
  pending_freezes_.push_back(segment);
  return Status::OK();
}

Status EngineImpl::FlushFrozen() {
  std::lock_guard flush(flush_mu_);
  uint64_t live_from = 0;
  {
    std::lock_guard lock(bg_mu_);
    if (pending_freezes_.empty()) return Status::OK();
    live_from = pending_freezes_.back();
  }
  auto tables = AllTables();
  for (const auto& t : tables) {
    while (true) {
      uint64_t sequence = next_sequence_.fetch_add(1);
      GNOMON_ASSIGN_OR_RETURN(bool flushed,
                              t->FlushOldestFrozen(options_.partition_duration_ns,
                                                   [this] { return NextFileNumber(); }, sequence));
      if (!flushed) break;
    }
  }
  {
    std::lock_guard lock(manifest_mu_);
    wal_first_live_segment_ = std::max(wal_first_live_segment_.load(), live_from);
    GNOMON_RETURN_IF_ERROR(SaveManifestLocked());  // also removes replaced segments
  }
  GNOMON_FAULT_POINT("flush.after_manifest");
  GNOMON_RETURN_IF_ERROR(wal_->RemoveSegmentsBefore(live_from));
  GNOMON_LOG_INFO("flushed memtables into segments; WAL now starts at segment {}", live_from);
#if defined(__GLIBC__)
  // The frozen memtables were freed across many threads' malloc arenas; hand the pages back so
  // resident memory follows the memtable budget instead of its high-water mark.
  malloc_trim(0);
#endif
  {
    std::lock_guard lock(bg_mu_);
    pending_freezes_.erase(
        std::remove_if(pending_freezes_.begin(), pending_freezes_.end(),
                       [&](uint64_t s) { return s <= live_from; }),
        pending_freezes_.end());
    backlog_cv_.notify_all();
  }
  return Status::OK();
}

Status EngineImpl::ReopenWalAfterFailure() {
  std::lock_guard freeze(freeze_mu_);
  ExclusiveSection exclusive(&gate_);  // no write between its WAL append and its memtable apply
  std::lock_guard flush(flush_mu_);
  const Status failure = wal_->error();
  if (failure.ok()) return Status::OK();
  for (const auto& t : AllTables()) t->Freeze();
  memtable_bytes_ = 0;
  for (const auto& t : AllTables()) {
    while (true) {
      GNOMON_ASSIGN_OR_RETURN(bool flushed, t->FlushOldestFrozen(options_.partition_duration_ns,
                                                                 [this] { return NextFileNumber(); },
                                                                 next_sequence_.fetch_add(1)));
      if (!flushed) break;
    }
  }
  // Closed first (one Wal per directory); a closed Wal keeps reporting its error, so a failed
  // Open below is retried like the rest.
  (void)wal_->Close();  // its error is the failure already reported
  wal::WalOptions wal_options;
  wal_options.env = env_;
  wal_options.dir = wal_->dir();
  GNOMON_ASSIGN_OR_RETURN(std::unique_ptr<wal::Wal> fresh, wal::Wal::Open(wal_options));
  const uint64_t live_from = fresh->current_segment();
  {
    std::lock_guard lock(manifest_mu_);
    wal_first_live_segment_ = std::max(wal_first_live_segment_.load(), live_from);
    GNOMON_RETURN_IF_ERROR(SaveManifestLocked());
  }
  wal_ = std::move(fresh);
  {
    std::lock_guard lock(bg_mu_);
    pending_freezes_.clear();  // every frozen memtable is in segments now
    backlog_cv_.notify_all();
  }
  Status removed = wal_->RemoveSegmentsBefore(live_from);
  if (!removed.ok()) GNOMON_LOG_WARN("could not remove the failed WAL's segments: {}", removed.ToString());
  GNOMON_LOG_INFO("WAL reopened at segment {} after: {}", live_from, failure.ToString());
  return Status::OK();
}

Status EngineImpl::CompactAll(int min_segments, int64_t cold_before, bool tiered) {
  auto tables = AllTables();
  bool changed = false;
  for (const auto& t : tables) {
    size_t before = t->ToManifest().segments.size();
    GNOMON_RETURN_IF_ERROR(
        t->Compact(min_segments, [this] { return NextFileNumber(); }, cold_before, tiered, &closing_));
    changed |= t->ToManifest().segments.size() != before;
  }
  if (!changed) return Status::OK();
  return SaveManifestNow();  // also removes the replaced segments
}

Status EngineImpl::ApplyRetention() {
  const int64_t now = NowNanos();
  std::vector<std::pair<std::shared_ptr<Table>, int64_t>> work;
  {
    std::shared_lock lock(dbs_mu_);
    for (const auto& [name, db] : databases_) {
      int64_t retention = db->retention_ns != 0 ? db->retention_ns : options_.retention_ns;
      if (retention <= 0) continue;
      for (const auto& [tname, t] : db->tables) work.emplace_back(t, now - retention);
    }
  }
  if (work.empty()) return Status::OK();
  for (auto& [t, cutoff] : work) {
    GNOMON_RETURN_IF_ERROR(t->DropPartitionsBefore(cutoff, options_.partition_duration_ns));
  }
  return SaveManifestNow();  // also removes the replaced segments
}

void EngineImpl::BackgroundLoop() {
  auto last_retention = std::chrono::steady_clock::now();
  while (true) {
    {
      std::unique_lock lock(bg_mu_);
      bg_cv_.wait_for(lock, std::chrono::seconds(1),
                      [&] { return bg_stop_ || bg_flush_requested_; });
      if (bg_stop_) return;
      bg_flush_requested_ = false;
    }
    Status s;
    if (!wal_->error().ok()) {
      Status reopened = ReopenWalAfterFailure();
      if (!reopened.ok()) GNOMON_LOG_WARN("WAL still failing, writes refused: {}", reopened.ToString());
      continue;
    }
    if (memtable_bytes_.load() > options_.memtable_budget_bytes) {
      s = FreezeAll();
      if (s.ok()) s = FlushFrozen();
      if (s.ok()) {
        std::lock_guard lock(bg_mu_);
        compaction_requested_ = true;
        compaction_cv_.notify_all();
      }
      if (s.ok()) s = CheckpointRegistries(options_.registry_checkpoint_series, kFlushCheckpointFraction);
    }
    if (s.ok() && std::chrono::steady_clock::now() - last_retention > kRetentionInterval) {
      last_retention = std::chrono::steady_clock::now();
      s = ApplyRetention();
    }
    if (!s.ok()) GNOMON_LOG_ERROR("background work failed: {}", s.ToString());
  }
}

void EngineImpl::CompactionLoop() {
  // Without requests it wakes now and then to look for partitions that went cold.
  const auto cold_check = std::chrono::nanoseconds(
      options_.cold_compaction_ns > 0 ? std::clamp<int64_t>(options_.cold_compaction_ns / 4, 1000000000, 60000000000)
                                      : INT64_MAX / 2);
  while (true) {
    {
      std::unique_lock lock(bg_mu_);
      compaction_cv_.wait_for(lock, cold_check, [&] { return bg_stop_ || compaction_requested_; });
      if (bg_stop_) return;
      compaction_requested_ = false;
    }
    const int64_t cold_before =
        options_.cold_compaction_ns > 0 ? SteadyNanos() - options_.cold_compaction_ns : INT64_MIN;
    Status s = CompactAll(options_.compaction_trigger_segments, cold_before, /*tiered=*/true);
    if (s.code() == Status::Code::kAborted && closing_.load()) {
      GNOMON_LOG_INFO("{}", s.message());
    } else if (!s.ok()) {
      GNOMON_LOG_ERROR("compaction failed: {}", s.ToString());
    }
  }
}

Status EngineImpl::Flush() {
  GNOMON_RETURN_IF_ERROR(FreezeAll());
  GNOMON_RETURN_IF_ERROR(FlushFrozen());
  return CheckpointRegistries(options_.registry_checkpoint_series, kFlushCheckpointFraction);
}

Status EngineImpl::CheckpointRegistries(uint32_t min_log_series, double min_log_fraction) {
  for (const auto& t : AllTables()) GNOMON_RETURN_IF_ERROR(t->CheckpointRegistry(min_log_series, min_log_fraction));
  return Status::OK();
}

Status EngineImpl::Compact() {
  GNOMON_RETURN_IF_ERROR(Flush());
  return CompactAll(2);
}

Status EngineImpl::Close() {
  if (closed_) return Status::OK();
  closed_ = true;
  closing_.store(true);  // a merge under way stops at its next look (Table::Compact)
  {
    std::lock_guard lock(bg_mu_);
    bg_stop_ = true;
    bg_cv_.notify_all();
    compaction_cv_.notify_all();
    backlog_cv_.notify_all();
  }
  if (bg_thread_.joinable()) bg_thread_.join();
  if (compaction_thread_.joinable()) compaction_thread_.join();
  Status s;
  if (wal_) {
    s = Flush();
    Status c = wal_->Close();
    if (s.ok()) s = c;
  }
  // A failed checkpoint leaves the old snapshot and a complete log: the next open replays more.
  Status c = CheckpointRegistries(options_.registry_close_checkpoint_series, 0.0);
  if (!c.ok()) GNOMON_LOG_WARN("registry checkpoint at close failed: {}", c.ToString());
  return s;
}

}  // namespace gnomon::storage
