// SeriesRegistry: the persistent series dictionary and inverted tag index of one table.
//
// Files in the table directory (docs/format/series-registry.md):
//   series.snap  compact snapshot of the first N series (absent until the first Checkpoint)
//   series.log   header (first id) + one CRC-framed record per series created since
// Open loads the snapshot, replays the log (cutting a torn tail), and keeps appending to the log.
// New series are buffered in memory by GetOrCreate and written + fdatasync'ed by Sync.
//
// Durability contract for the engine: a series id may be referenced by a WAL record only after a
// Sync() that began after GetOrCreate returned that id (created or not: another writer may have
// created it and not yet synced). Call Sync() before *writing* such a WAL record, not only before
// syncing it, so the WAL never reaches disk ahead of the series it names.
//
// Thread-safety: all methods may be called concurrently. Lookups take a shared lock; creating a
// series takes the exclusive lock briefly (no I/O under it); Sync and Checkpoint serialise with
// each other and do their I/O outside the lock. Tags() and TagValue() take no lock at all.
// After an I/O error while writing the log the registry refuses to create series or sync (the
// error is sticky) because its file no longer matches memory; reopening recovers.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <roaring/roaring.hh>

#include "src/base/result.h"
#include "src/base/status.h"
#include "src/index/series_index.h"
#include "src/index/series_key.h"
#include "src/port/env.h"

namespace gnomon::index {

inline constexpr std::string_view kSeriesLogName = "series.log";
inline constexpr std::string_view kSeriesSnapshotName = "series.snap";

struct RegistryOptions {
  // zstd-compress snapshots (level 1); they are ~5x smaller for TSBS-like tags.
  bool compress_snapshot = true;
  // Series known to exist (the table's segments have rows of ids below this): a log whose valid
  // records end before them was damaged, not torn, so Open fails with Corruption and cuts nothing.
  uint32_t known_series = 0;
};

class SeriesRegistry {
 public:
  // Opens (creating if needed) the registry in `dir`. Errors: IOError, Corruption (file + offset),
  // Unsupported (a newer format version).
  static Result<std::unique_ptr<SeriesRegistry>> Open(port::Env* env, const std::string& dir,
                                                      RegistryOptions options = {});
  ~SeriesRegistry();
  SeriesRegistry(const SeriesRegistry&) = delete;
  SeriesRegistry& operator=(const SeriesRegistry&) = delete;

  // `canonical_tags`: sorted by key, keys unique, keys and values non-empty (else
  // InvalidArgument). Returns the existing id, or assigns the next dense id and buffers its log
  // record. *created (may be null) says whether it was new.
  Result<SeriesId> GetOrCreate(std::span<const TagRef> canonical_tags, bool* created = nullptr);
  // Same, with hash == HashSeriesKey(canonical_tags) computed by the caller (the write path
  // caches it per raw series key).
  Result<SeriesId> GetOrCreate(uint64_t hash, std::span<const TagRef> canonical_tags,
                               bool* created = nullptr);
  std::optional<SeriesId> Find(std::span<const TagRef> canonical_tags) const;
  std::optional<SeriesId> Find(uint64_t hash, std::span<const TagRef> canonical_tags) const;
  // GetOrCreate for a batch: ids[i] for tags[i], hashes[i] == HashSeriesKey(tags[i]). One shared
  // lock finds the series that exist, and the exclusive lock is taken once per
  // kCreateChunk new series, not twice a series: writers creating series side by side would
  // otherwise hand the lock back and forth thousands of times a batch, each hand-off a sleep and
  // a wake-up. *created (may be null) counts the new series. On error nothing is valid in ids;
  // series created before it stay created.
  // REQUIRES: tags.size() == hashes.size() == ids.size().
  Status GetOrCreateMany(std::span<const std::span<const TagRef>> tags, std::span<const uint64_t> hashes,
                         std::span<SeriesId> ids, size_t* created = nullptr);
  // New series one exclusive hold of the lock creates at most (bounds how long readers wait).
  static constexpr size_t kCreateChunk = 1024;

  // Makes every series created so far durable (append + fdatasync of the log). Cheap when
  // nothing is pending.
  Status Sync();

  // Number of series; ids are 0 .. size()-1.
  size_t size() const { return size_.load(std::memory_order_acquire); }

  // Tags of a series as views valid until the registry is destroyed. Lock-free.
  // REQUIRES: id < size().
  SeriesTags Tags(SeriesId id) const;
  // Value of tag `key` for series `id`; empty if it has no such tag. Lock-free.
  // REQUIRES: id < size().
  std::string_view TagValue(SeriesId id, std::string_view key) const;
  // The values of tags `keys` of every series of `ids`: out[i * keys.size() + k], empty where
  // series i lacks key k, and with `value_ids` the values' ids (SeriesIndex::TagColumns).
  // REQUIRES: every id < size().
  void TagColumns(std::span<const SeriesId> ids, std::span<const std::string> keys,
                  std::string_view* out, uint32_t* value_ids = nullptr) const;

  // Inverted index, kept in step with GetOrCreate: the series with tag key=value.
  Roaring SeriesWithTag(std::string_view key, std::string_view value) const;
  // The same as ascending ids (appended to *out).
  void AppendSeriesWithTag(std::string_view key, std::string_view value,
                           std::vector<SeriesId>* out) const;
  // Number of series with key=value, without materialising them.
  uint64_t CountSeriesWithTag(std::string_view key, std::string_view value) const;
  std::vector<std::string> TagKeys() const;                     // sorted
  std::vector<std::string> TagValues(std::string_view key) const;  // sorted, distinct

  // Writes a snapshot of all series (temporary file, fsync, rename) and starts a new log holding
  // only the series created meanwhile. A crash at any point leaves a registry that reopens to the
  // same series. No-op when the log holds no series. GetOrCreate and Sync proceed meanwhile (Sync
  // waits only while the new log replaces the old, not while the snapshot is encoded).
  Status Checkpoint();
  // Series in the snapshot; the rest of size() are in the log, which a reopen replays one record
  // at a time. Never above a size() read after it.
  uint32_t SeriesInSnapshot() const { return snapshot_series_.load(std::memory_order_acquire); }

  // Approximate heap bytes held by the in-memory registry.
  size_t MemoryUsage() const;

 private:
  SeriesRegistry(port::Env* env, std::string dir, RegistryOptions options);
  Status Recover();
  Status ReplayLog(const std::string& path);
  // Replaces the log with one based at `base_id` holding `records` (framed, ids from base_id).
  Status StartNewLog(uint32_t base_id, std::string_view records = {});
  // Writes `batch` to the log and fdatasyncs it. REQUIRES: sync_mu_ held.
  Status WriteToLog(std::string_view batch, uint32_t durable_through);

  port::Env* const env_;
  const std::string dir_;
  const std::string log_path_;
  const std::string snapshot_path_;
  const RegistryOptions options_;

  // Guards index_ (except its lock-free reads), pending_ and bg_error_.
  mutable std::shared_mutex mu_;
  SeriesIndex index_;
  std::string pending_;        // framed log records not yet handed to log_
  Status bg_error_;            // sticky log write error
  std::atomic<uint32_t> size_{0};

  // Serialises checkpoints (held through one, outside sync_mu_).
  std::mutex checkpoint_mu_;
  // Serialises log writes, and a checkpoint's cut and log swap; guards log_, log_base_,
  // snapshot_series_, since_cut_ and checkpointing_.
  std::mutex sync_mu_;
  std::unique_ptr<port::WritableFile> log_;
  uint32_t log_base_ = 0;         // id of the current log file's first record
  // While a checkpoint encodes its snapshot, the records written to the log after its cut: the
  // log that replaces the old one starts with them.
  bool checkpointing_ = false;
  std::string since_cut_;
  std::atomic<uint32_t> snapshot_series_{0};  // series in series.snap (written under sync_mu_)
  std::atomic<uint32_t> durable_{0};  // ids below this are in the synced log or the snapshot
};

}  // namespace gnomon::index
