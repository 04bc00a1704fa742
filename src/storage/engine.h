// Engine: the storage engine's public face. Owns the databases under one data directory: their
// catalogs, series registries, WALs, memtables, segments and background flush/compaction.
// Thread-safe: any number of concurrent writers and readers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/base/status.h"
#include "src/index/series_key.h"
#include "src/port/env.h"
#include "src/storage/scan.h"
#include "src/storage/write_batch.h"

namespace gnomon::index {
struct RawKeyHash;
}  // namespace gnomon::index

namespace gnomon::storage {

enum class WalSyncMode {
  kFsync,  // every acknowledged write is on stable storage (group commit shares one fsync)
  kNone,   // writes reach the OS page cache only: survive a process crash, not a power loss
};

struct EngineOptions {
  std::string data_dir;
  port::Env* env = nullptr;  // nullptr: port::Env::Default()
  WalSyncMode wal_sync = WalSyncMode::kFsync;
  // Memtables of all tables together; past it the largest is frozen and flushed.
  size_t memtable_budget_bytes = 512ull << 20;
  // Width of a time partition (one segment set per table and partition).
  int64_t partition_duration_ns = 24ll * 3600 * 1000000000;
  // New series a database may take beyond this many are refused (their rows rejected with the
  // offending series named); 0: no limit.
  uint64_t max_series_per_database = 0;
  // A database may hold at most this many tables, a table at most this many tag and field columns;
  // a write that would create more is refused, naming the table or column. 0: no limit.
  uint64_t max_tables_per_database = 0;
  uint64_t max_columns_per_table = 0;
  // Server-wide retention (0 = keep forever); a database may set its own.
  int64_t retention_ns = 0;
  // Decoded hour-slice statistics that segments may keep in memory, all together (0: none).
  size_t stats_cache_bytes = 256ull << 20;
  // A partition with at least this many segments is compacted into one.
  int compaction_trigger_segments = 4;
  // A partition that has taken no flush for this long (since the engine opened, at the latest) is
  // compacted into one segment once it has two or more: a cold day's last flushes are merged
  // into its one segment, whose reads no longer merge overlapping sources (0: never).
  int64_t cold_compaction_ns = 10LL * 60 * 1000000000;
  // A table's series registry writes its snapshot (and restarts its log) after a flush once its
  // log holds this many series and as many as the snapshot, and at a clean close once the log
  // holds registry_close_checkpoint_series: reopening decodes a snapshot several times faster
  // than it replays a log (at 10 M series 43 s to serving became 19 s).
  uint32_t registry_checkpoint_series = 1000000;
  uint32_t registry_close_checkpoint_series = 100000;
  // Run flush and compaction on background threads (tests may turn this off and call Flush()).
  bool background_work = true;
};

struct WriteOptions {
  // Per-request override of EngineOptions::wal_sync (InfluxDB v3 `no_sync=true`).
  bool sync = true;
  // Keep the good rows of a batch whose other rows conflict with the schema (v3 accept_partial).
  bool accept_partial = false;
};

struct RowError {
  uint32_t line;  // source line of the rejected row
  std::string reason;
};

struct WriteOutcome {
  size_t rows_written = 0;
  std::vector<RowError> rejected;  // only with accept_partial
};

struct DatabaseOptions {
  int64_t retention_ns = 0;  // 0: the server-wide default
};

struct DatabaseInfo {
  DatabaseOptions options;         // its own settings
  int64_t effective_retention_ns = 0;  // its own, else the server-wide one; 0 keeps everything
};

struct ColumnInfo {
  std::string name;
  enum class Kind : uint8_t { kTime, kTag, kField } kind;
  ValueType type;  // kTimestamp for time, kString for tags
};

struct TableInfo {
  std::string name;
  std::vector<ColumnInfo> columns;  // time first, then tags (sorted), then fields (first-write order)
};

struct EngineStats {
  uint64_t rows_written = 0;
  uint64_t series = 0;
  uint64_t series_index_bytes = 0;  // series registries and their raw-key caches in memory
  uint64_t last_value_bytes = 0;    // last-value caches
  uint64_t memtable_bytes = 0;
  uint64_t segment_files = 0;
  uint64_t segment_bytes = 0;
  uint64_t segment_index_bytes = 0;  // decoded indexes of open segments, in memory
  uint64_t damaged_segments = 0;  // listed segments that failed to open (Table's DamagedSegment)
  uint64_t stats_cache_bytes = 0;  // decoded slice statistics held in memory
  uint64_t wal_bytes = 0;
  // Writers held by the memtable budget (a flush still running when the new memtables are full
  // again): how many waits, and their total time.
  uint64_t write_stalls = 0;
  uint64_t write_stall_ns = 0;
  uint64_t slow_writes = 0;  // writes that took over kSlowWriteNs (each logged with its breakdown)
};

// A write taking longer than this is logged with where its time went.
inline constexpr int64_t kSlowWriteNs = 500'000'000;

// Read access to one table's series registry, for the ingest layer to name series by id before
// a write (TableBatch::AddResolvedSeries): a series that already exists then costs the parse of
// its key and one look-up, not a tag set built per request, and its WAL record names it by id.
// Holds the table open; thread-safe.
class SeriesResolver {
 public:
  virtual ~SeriesResolver() = default;
  // The table instance ids belong to (TableBatch::set_table_instance).
  virtual const std::string& table_instance() const = 0;
  // The id of the series with these canonical tags, if it exists; `hash` is
  // index::HashSeriesKey(canonical_tags).
  virtual std::optional<SeriesId> Find(uint64_t hash,
                                       std::span<const index::TagRef> canonical_tags) const = 0;
  // The series a key spelt as a client spelt it names (index::RawKeyCache), if it was recorded.
  virtual std::optional<SeriesId> FindRaw(const index::RawKeyHash& hash) const = 0;
  // Records that the spelling with `hash` names series `id` (an id Find returned).
  virtual void RememberRaw(const index::RawKeyHash& hash, SeriesId id) = 0;
  // Whether the spellings outgrow the CPU's caches: then a caller that knows its next key early
  // should PrefetchRaw it.
  virtual bool RawKeysLarge() const { return false; }
  // Starts loading what FindRaw(hash) will read (index::RawKeyCache::Prefetch).
  virtual void PrefetchRaw(const index::RawKeyHash& /*hash*/) const {}
};

class Engine {
 public:
  // Opens (creating if needed) the data directory, replays WALs, rebuilds caches.
  static Result<std::unique_ptr<Engine>> Open(const EngineOptions& options);
  virtual ~Engine() = default;

  // Applies `batch` to its database (created on first write). All-or-nothing unless
  // options.accept_partial: then rows whose field types conflict are rejected and listed.
  // On return with ok status the rows are durable (per sync mode) and visible to every reader.
  virtual Result<WriteOutcome> Write(const WriteBatch& batch, const WriteOptions& options) = 0;

  virtual Status CreateDatabase(const std::string& name, const DatabaseOptions& options) = 0;
  virtual Status DropDatabase(const std::string& name) = 0;
  virtual std::vector<std::string> ListDatabases() = 0;
  virtual bool DatabaseExists(const std::string& name) = 0;
  // NotFound when the database does not exist. The default bodies serve test doubles.
  virtual Result<DatabaseInfo> DescribeDatabase(const std::string& name) {
    (void)name;
    return Status::Unsupported("database settings are not supported");
  }
  // Replaces the database's settings; durable (in the manifest) when it returns OK.
  virtual Status AlterDatabase(const std::string& name, const DatabaseOptions& options) {
    (void)name;
    (void)options;
    return Status::Unsupported("database settings are not supported");
  }

  virtual Result<std::vector<std::string>> ListTables(const std::string& database) = 0;
  virtual Result<TableInfo> DescribeTable(const std::string& database, const std::string& table) = 0;
  virtual Status DropTable(const std::string& database, const std::string& table) = 0;
  // Deletes the rows of `table` in [min_time, max_time] of the given series (all when nullopt).
  virtual Status DeleteRows(const std::string& database, const std::string& table,
                            const std::optional<std::vector<SeriesId>>& series, int64_t min_time,
                            int64_t max_time) = 0;

  // A resolver for the series of `table` in `database`; nullptr when the table does not exist
  // yet (its first write creates it). The default serves test doubles: they resolve nothing.
  virtual std::unique_ptr<SeriesResolver> NewSeriesResolver(const std::string& database,
                                                            const std::string& table) {
    (void)database;
    (void)table;
    return nullptr;
  }

  // A consistent read view of one table (memtables + segments at the time of the call).
  virtual Result<std::unique_ptr<TableReader>> OpenTable(const std::string& database,
                                                         const std::string& table) = 0;

  // Freezes all memtables and writes them to segments; then truncates the WALs.
  virtual Status Flush() = 0;
  // Merges each partition's segments into one.
  virtual Status Compact() = 0;
  // Drops the segments of every partition that lies wholly before now - retention (the database's
  // DatabaseOptions::retention_ns, else EngineOptions::retention_ns; 0 keeps everything) and
  // deletes their files once the manifest without them is durable. Rows still in memtables are
  // dropped by the first pass after they are flushed. The background thread runs this every
  // minute; tests and admin commands call it directly.
  // The default body exists only so test doubles of Engine outside storage keep compiling.
  virtual Status ApplyRetention() { return Status::Unsupported("retention is not supported"); }
  virtual EngineStats Stats() = 0;
  // Stops background work, flushes, closes files. Idempotent; the destructor calls it.
  virtual Status Close() = 0;
};

}  // namespace gnomon::storage
