// EngineImpl: the storage engine. engine_impl.cc holds open/recovery, writes and DDL;
// engine_maintenance.cc holds freezing, flushing, compaction, retention and the background thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "src/storage/engine.h"
#include "src/storage/manifest.h"
#include "src/storage/database_limits.h"
#include "src/storage/table.h"
#include "src/storage/write_batch_codec.h"
#include "src/storage/write_gate.h"
#include "src/wal/wal.h"

namespace gnomon::storage {

struct Database {
  std::string name;
  std::string dir_name;
  std::string dir;
  int64_t retention_ns = 0;
  std::shared_ptr<DatabaseLimits> limits;
  std::map<std::string, std::shared_ptr<Table>, std::less<>> tables;
};

class EngineImpl final : public Engine {
 public:
  explicit EngineImpl(const EngineOptions& options);
  ~EngineImpl() override;

  Status Open();

  Result<WriteOutcome> Write(const WriteBatch& batch, const WriteOptions& options) override;
  Status CreateDatabase(const std::string& name, const DatabaseOptions& options) override;
  Status DropDatabase(const std::string& name) override;
  Result<DatabaseInfo> DescribeDatabase(const std::string& name) override;
  Status AlterDatabase(const std::string& name, const DatabaseOptions& options) override;
  std::vector<std::string> ListDatabases() override;
  bool DatabaseExists(const std::string& name) override;
  Result<std::vector<std::string>> ListTables(const std::string& database) override;
  Result<TableInfo> DescribeTable(const std::string& database, const std::string& table) override;
  Status DropTable(const std::string& database, const std::string& table) override;
  Status DeleteRows(const std::string& database, const std::string& table,
                    const std::optional<std::vector<SeriesId>>& series, int64_t min_time,
                    int64_t max_time) override;
  Result<std::unique_ptr<TableReader>> OpenTable(const std::string& database,
                                                 const std::string& table) override;
  std::unique_ptr<SeriesResolver> NewSeriesResolver(const std::string& database,
                                                    const std::string& table) override;
  Status Flush() override;
  Status Compact() override;
  Status ApplyRetention() override;  // engine_maintenance.cc
  EngineStats Stats() override;
  Status Close() override;

 private:
  // engine_impl.cc
  Status Recover();
  Status ApplyRecord(std::string_view record);
  std::unique_ptr<Database> NewDatabase(const std::string& name, std::string dir_name, int64_t retention_ns);
  Result<std::shared_ptr<Table>> GetOrCreateTable(const std::string& database,
                                                  const std::string& table, bool create);
  std::shared_ptr<Table> FindTable(const std::string& database, const std::string& table);
  // Where a write's time went, for the slow-write log line (nanoseconds).
  struct WriteTimes {
    int64_t gate = 0;      // entering the writer gate (a freeze or a WAL reopen holds it)
    int64_t prepare = 0;   // tables created, series resolved, manifest and registries saved
    int64_t wal = 0;       // the WAL append, with its fsync
  };
  Status ApplyBatch(const WriteBatch& batch, const WriteOptions& options, bool log,
                    WriteOutcome* outcome, WriteTimes* times = nullptr);
  Status ApplyControl(const ControlRecord& record);
  Status SaveManifestLocked();
  Status SaveManifestNow();
  std::vector<std::shared_ptr<Table>> AllTables();
  uint64_t NextFileNumber() { return next_file_number_.fetch_add(1); }

  // engine_maintenance.cc
  Status FreezeAll();
  Status FlushFrozen();
  // Table::CheckpointRegistry for every table.
  Status CheckpointRegistries(uint32_t min_log_series, double min_log_fraction);
  // After the WAL failed (a full disk, a failed write or fsync), which it never recovers from:
  // flushes every memtable into segments, so that each acknowledged write is durable without
  // the failed log, then opens a new WAL and moves the manifest's live mark past the old one,
  // which is never replayed. Fails, changing nothing that matters, while the disk still fails;
  // the background loop retries every second. OK at once when the WAL is healthy.
  Status ReopenWalAfterFailure();
  // Compacts partitions with at least `min_segments` segments, and cold ones (no flush since
  // `cold_before`, SteadyNanos) with two or more.
  Status CompactAll(int min_segments, int64_t cold_before = INT64_MIN, bool tiered = false);
  void BackgroundLoop();
  // Compaction has its own thread so that flushes (and thus writers) never wait behind a merge.
  void CompactionLoop();

  EngineOptions options_;
  port::Env* env_;
  // Shared by every segment's slice-statistics cache (options_.stats_cache_bytes).
  std::shared_ptr<CacheBudget> stats_budget_;
  // <data_dir>/LOCK, held while open so that a second server cannot share the directory. Declared
  // before everything that writes there, so it is released last.
  std::unique_ptr<port::FileLock> dir_lock_;
  std::unique_ptr<wal::Wal> wal_;
  WriteGate gate_;

  std::shared_mutex dbs_mu_;  // guards databases_ and the tables maps
  std::map<std::string, std::unique_ptr<Database>, std::less<>> databases_;

  std::mutex manifest_mu_;  // serialises manifest saves
  std::atomic<uint64_t> next_file_number_{1};
  std::atomic<uint64_t> next_sequence_{1};
  std::atomic<uint64_t> wal_first_live_segment_{0};

  std::mutex flush_mu_;  // one flush at a time
  std::mutex freeze_mu_;
  std::vector<uint64_t> pending_freezes_;  // WAL segments started by freezes not yet flushed

  std::atomic<uint64_t> memtable_bytes_{0};  // estimate since the last freeze
  std::atomic<uint64_t> rows_written_{0};
  std::atomic<uint64_t> write_stalls_{0};
  std::atomic<uint64_t> write_stall_ns_{0};
  std::atomic<uint64_t> slow_writes_{0};

  std::mutex bg_mu_;
  std::condition_variable bg_cv_;
  std::condition_variable backlog_cv_;
  bool bg_stop_ = false;
  // Set when Close begins; read by compactions without bg_mu_ (they abandon their merge).
  std::atomic<bool> closing_{false};
  bool bg_flush_requested_ = false;
  std::thread bg_thread_;
  std::thread compaction_thread_;
  std::condition_variable compaction_cv_;
  bool compaction_requested_ = false;
  bool closed_ = false;
  bool replaying_ = false;
};

}  // namespace gnomon::storage
