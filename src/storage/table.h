// Table: everything the engine keeps for one table — schema, series registry and tag index,
// the active and frozen memtables, the live segments and the last-value cache.
// Thread-safety: mu_ guards the mutable state; the registry has its own synchronisation.
// Split by concern: table.cc (open, write path), table_flush.cc (freeze, segments),
// table_reader.cc (read snapshots and scans).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/index/raw_key_cache.h"
#include "src/index/series_registry.h"
#include "src/port/env.h"
#include "src/storage/engine.h"
#include "src/storage/last_value_cache.h"
#include "src/storage/manifest.h"
#include "src/storage/memtable.h"
#include "src/storage/segment_reader.h"
#include "src/storage/database_limits.h"
#include "src/storage/table_schema.h"

namespace gnomon::storage {

struct SegmentRef {
  ManifestSegment meta;
  std::shared_ptr<SegmentReader> reader;
};

// A listed segment that failed to open (bad checksum, unreadable, missing). It stays listed, so
// nothing removes the file, and its time range is fenced off: scans that reach into it, deletes
// over it and last-value answers fail with `error`, which names the file; compaction leaves its
// partition alone. Everything else in the table stays readable and writable.
struct DamagedSegment {
  ManifestSegment meta;
  std::string path;
  Status error;
};

// The first of `damaged` whose time range meets [min_time, max_time], or nullptr.
inline const DamagedSegment* FirstDamagedIn(const std::vector<DamagedSegment>& damaged, int64_t min_time,
                                            int64_t max_time) {
  for (const DamagedSegment& d : damaged) {
    if (d.meta.max_time >= min_time && d.meta.min_time <= max_time) return &d;
  }
  return nullptr;
}

// A batch resolved against a table: column ids for the batch's fields, series ids for its series,
// and the rows that cannot be written (field type conflicts), if partial writes are allowed.
struct PreparedTable {
  std::vector<ColumnId> field_ids;
  std::vector<SeriesId> series_ids;
  std::vector<uint8_t> row_rejected;  // empty when none
};

class Table : public std::enable_shared_from_this<Table> {
 public:
  // Opens the table directory (creating it), its registry and segments listed in `manifest`
  // (nullptr for a new table), and rebuilds its last-value cache from those segments. Its
  // segments cache slice statistics within `stats_budget` (nullptr: no cache).
  static Result<std::shared_ptr<Table>> Open(port::Env* env, std::string name, std::string dir,
                                             std::string dir_name, const ManifestTable* manifest,
                                             std::shared_ptr<CacheBudget> stats_budget = nullptr);

  const std::string& name() const { return name_; }
  const std::string& dir() const { return dir_; }
  const std::string& dir_name() const { return dir_name_; }
  // Whether a durable manifest lists this table (opened from one, or saved since creation).
  bool in_manifest() const { return in_manifest_.load(std::memory_order_acquire); }
  void set_in_manifest() { in_manifest_.store(true, std::memory_order_release); }

  // Write path. Prepare resolves schema and series (adding new columns and series); Apply puts
  // the rows into the memtable and the last-value cache, and returns the bytes the memtable grew
  // by (Memtable::ApproximateBytes: what its buffers hold).
  Status Prepare(const TableBatch& batch, bool accept_partial, PreparedTable* out,
                 std::vector<RowError>* rejected);
  size_t Apply(const TableBatch& batch, const PreparedTable& prepared);
  size_t MemtableBytes() const;

  // Flush path (table_flush.cc).
  // Moves a non-empty active memtable to the frozen list; returns whether it did.
  bool Freeze();
  // Writes the oldest frozen memtable into segments (one per partition) and installs them.
  // Sequence and file numbers come from the callbacks. Returns false if nothing was frozen.
  Result<bool> FlushOldestFrozen(int64_t partition_ns, const std::function<uint64_t()>& next_file,
                                 uint64_t sequence);
  // Merges the segments of each partition holding at least `min_segments` segments, and of each
  // partition holding two or more that has taken no flush since `cold_before` (steady-clock
  // nanoseconds, see SteadyNanos; INT64_MIN: none is cold). `tiered` (background compaction of a
  // partition still taking flushes): only the newest run of segments of similar size
  // (TieredRunStart), at least `min_segments` of them, so a large merged segment is rewritten
  // when the data flushed after it has grown as large, not at every merge.
  // `cancel` (may be null) set: the merge under way is abandoned (Aborted), its inputs kept.
  Status Compact(int min_segments, const std::function<uint64_t()>& next_file, int64_t cold_before = INT64_MIN,
                 bool tiered = false, const std::atomic<bool>* cancel = nullptr);
  // How many series a merge writes between two looks at its `cancel` flag.
  static constexpr uint32_t kCancelCheckSeries = 1024;
  // Drops the segments of partitions ending at or before `cutoff`.
  Status DropPartitionsBefore(int64_t cutoff, int64_t partition_ns);
  // Removes rows in [min_time, max_time] of `series` (all when nullptr) from memtables and by
  // rewriting the segments that hold them. Refused (Corruption) where a damaged segment meets the
  // range, unless `skip_damaged` (WAL replay), when those files keep their rows.
  Status DeleteRows(const std::vector<SeriesId>* series, int64_t min_time, int64_t max_time,
                    const std::function<uint64_t()>& next_file, bool skip_damaged = false);
  // Corruption naming the first damaged segment whose time range meets [min_time, max_time];
  // OK when none does.
  Status CheckUndamaged(int64_t min_time, int64_t max_time) const;
  std::vector<DamagedSegment> DamagedSegments() const;
  // The database's cardinality limit, shared by its tables; counts this table's series now.
  void set_limits(std::shared_ptr<DatabaseLimits> limit) {
    limit->Add(registry_->size());
    limits_ = std::move(limit);
  }
  // Makes every series created so far durable; before a WAL record names series by id.
  Status SyncRegistry();
  // Writes the series registry's snapshot when its log holds at least `min_log_series` series
  // and at least `min_log_fraction` of the snapshot's count, so that a reopen decodes a snapshot
  // instead of replaying millions of log records (index::SeriesRegistry).
  Status CheckpointRegistry(uint32_t min_log_series, double min_log_fraction);
  std::unique_ptr<SeriesResolver> NewSeriesResolver() const;
  // Segment files replaced or dropped since the last call; delete them once the manifest that no
  // longer lists them is durable.
  std::vector<std::string> TakeObsoleteFiles();

  // Rebuilds the last-value cache from segments and memtables (at open, before WAL replay adds
  // newer rows; after a delete or a retention drop). REQUIRES: maintenance_mu_ held, or no
  // concurrent flush (at open).
  Status RebuildLastValues();

  // Reading (table_reader.cc).
  std::unique_ptr<TableReader> NewReader();
  TableInfo Info() const;
  // Manifest view of this table.
  ManifestTable ToManifest() const;
  void Stats(EngineStats* stats) const;

 private:
  friend class TableSnapshot;
  Table(port::Env* env, std::string name, std::string dir, std::string dir_name,
        std::shared_ptr<CacheBudget> stats_budget)
      : env_(env), name_(std::move(name)), dir_(std::move(dir)), dir_name_(std::move(dir_name)),
        stats_budget_(std::move(stats_budget)), active_(std::make_shared<Memtable>()) {}
  std::string SegmentPath(uint64_t file_number) const;
  // Marks the rows of batch series `series` rejected (or fails the batch unless accept_partial):
  // a new series over the database's limit.
  Status RejectSeriesOverLimit(const TableBatch& batch, uint32_t series, bool accept_partial, PreparedTable* out,
                               std::vector<RowError>* rejected);
  // Prepare's series resolution for the series `by_tags` of `batch` (those it names by their
  // tags): all at once, or one at a time where the database limits its series (*refused marks,
  // by batch series, those refused for the limit).
  Status ResolveSeriesByTags(const TableBatch& batch, std::span<const uint32_t> by_tags, PreparedTable* out);
  Status ResolveSeriesLimited(const TableBatch& batch, std::span<const uint32_t> by_tags, bool accept_partial,
                              PreparedTable* out, std::vector<RowError>* rejected, std::vector<uint8_t>* refused);
  // Records the batch's spellings of its series (TableBatch::AddSpelling) in raw_keys_.
  void RememberSpellings(const TableBatch& batch, const PreparedTable& prepared, const std::vector<uint8_t>& refused);
  // Whether the schema may take one more tag or field column (max-columns-per-table); mu_ held.
  bool MayAddColumn() const;
  std::string ColumnLimitReason(std::string_view kind, std::string_view column) const;
  // One past the highest series id the segments have rows of (0: none).
  uint32_t SeriesInSegments() const;
  // The schema's fields as a segment's column list (a segment's ColumnIds are the table's).
  std::vector<SegmentColumn> SegmentColumns() const;

  port::Env* const env_;
  const std::string name_;
  const std::string dir_;
  const std::string dir_name_;
  const std::shared_ptr<CacheBudget> stats_budget_;  // shared by the engine's segments; may be null
  std::unique_ptr<index::SeriesRegistry> registry_;
  std::atomic<bool> in_manifest_{false};
  std::shared_ptr<DatabaseLimits> limits_;  // may be null (tests)
  // Series by the spelling of their keys in writes (for the ingest layer's resolvers).
  mutable index::RawKeyCache raw_keys_;
  // Serialises flush, compaction and delete of this table's segments.
  std::mutex maintenance_mu_;
  // Serialises compactions and deletes (both rewrite segments); taken before maintenance_mu_.
  std::mutex compaction_mu_;

  mutable std::shared_mutex mu_;
  TableSchema schema_;
  std::shared_ptr<Memtable> active_;
  std::vector<std::shared_ptr<Memtable>> frozen_;  // oldest first; immutable
  std::vector<SegmentRef> segments_;                // ascending sequence
  std::vector<DamagedSegment> damaged_;             // listed but unreadable; see DamagedSegment
  // Per partition start: when a flush last installed a segment there (SteadyNanos; partitions
  // present at open count from the open).
  std::map<int64_t, int64_t> last_flush_;
  LastValueCache last_values_;
  std::vector<std::string> obsolete_files_;
};

// Reads every row of series `meta` in [min_time, max_time] from a segment (column index =
// ColumnId): all columns, or only those listed in `columns` (negative ids ignored; the others are
// left absent), decoding only the rows in the range where the blocks allow it.
Status ReadSeriesFromSegment(const SegmentReader& reader, const SeriesMeta& meta, int64_t min_time,
                             int64_t max_time, SortedSeries* out, const std::vector<int>* columns = nullptr);

// Reads a series' rows from every source that holds them, merged: sorted by time, and for rows
// with the same time each column takes the value of the newest source that has one.
// A single source is swapped with *out, so a caller that reuses its sources keeps their buffers.
void MergeSortedSeries(std::span<SortedSeries> sources_oldest_first, const TableSchema& schema,
                       SortedSeries* out);

}  // namespace gnomon::storage
