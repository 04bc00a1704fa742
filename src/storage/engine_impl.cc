#include "src/storage/engine_impl.h"

#include <algorithm>

#include "src/base/fault_point.h"
#include "src/base/logging.h"
#include "src/base/time_util.h"
#include "src/storage/data_dir_layout.h"
#include "src/storage/identifier.h"
#include "src/wal/replay.h"

namespace gnomon::storage {
namespace {

// A writer thread keeps its WAL record buffer between batches (a 10,000-row batch encodes to
// ~300 KB: a fresh string would regrow, copy and fault its pages in on every request), unless a
// batch left it larger than this.
constexpr size_t kKeepRecordBufferBytes = 16ull << 20;

}  // namespace

Result<std::unique_ptr<Engine>> Engine::Open(const EngineOptions& options) {
  auto engine = std::make_unique<EngineImpl>(options);
  GNOMON_RETURN_IF_ERROR(engine->Open());
  return std::unique_ptr<Engine>(std::move(engine));
}

EngineImpl::EngineImpl(const EngineOptions& options)
    : options_(options),
      env_(options.env != nullptr ? options.env : port::Env::Default()),
      stats_budget_(options.stats_cache_bytes > 0 ? std::make_shared<CacheBudget>(options.stats_cache_bytes)
                                                  : nullptr) {}

EngineImpl::~EngineImpl() { (void)Close(); }

Status EngineImpl::Open() {
  if (options_.data_dir.empty()) return Status::InvalidArgument("data directory is required");
  // Freed memtables' blocks wait for the next memtables, up to one budget's worth.
  RowPages::SetBlockPoolLimit(options_.memtable_budget_bytes);
  if (options_.partition_duration_ns <= 0) {
    return Status::InvalidArgument("partition duration must be positive");
  }
  GNOMON_RETURN_IF_ERROR(env_->CreateDirs(port::JoinPath(options_.data_dir, kDatabasesDirName)));
  auto lock = env_->LockFile(port::JoinPath(options_.data_dir, kLockFileName));
  if (!lock.ok()) {
    return Status::IOError("data directory " + options_.data_dir +
                           " is in use by another gnomon process (" + lock.status().message() + ")");
  }
  dir_lock_ = std::move(*lock);
  GNOMON_RETURN_IF_ERROR(Recover());
  if (options_.background_work) {
    bg_thread_ = std::thread([this] { BackgroundLoop(); });
    compaction_thread_ = std::thread([this] { CompactionLoop(); });
  }
  return Status::OK();
}

Status EngineImpl::Recover() {
  GNOMON_ASSIGN_OR_RETURN(Manifest manifest, LoadManifest(env_, options_.data_dir));
  next_file_number_ = manifest.next_file_number;
  next_sequence_ = manifest.next_sequence;
  wal_first_live_segment_ = manifest.wal_first_live_segment;
  for (const ManifestDatabase& mdb : manifest.databases) {
    auto db = NewDatabase(mdb.name, mdb.dir_name, mdb.retention_ns);
    for (const ManifestTable& mt : mdb.tables) {
      std::string dir = port::JoinPath(db->dir, mt.dir_name);
      GNOMON_ASSIGN_OR_RETURN(auto table, Table::Open(env_, mt.name, dir, mt.dir_name, &mt, stats_budget_));
      table->set_limits(db->limits);
      // Segment files the manifest does not list are leftovers of an interrupted flush.
      GNOMON_ASSIGN_OR_RETURN(auto children, env_->GetChildren(dir));
      for (const std::string& child : children) {
        uint64_t number = 0;
        if (!SegmentFileNumber(child, &number)) continue;
        bool live = std::any_of(mt.segments.begin(), mt.segments.end(),
                                [&](const ManifestSegment& s) { return s.file_number == number; });
        if (!live) {
          GNOMON_LOG_WARN("removing unlisted segment file {}", port::JoinPath(dir, child));
          (void)env_->RemoveFile(port::JoinPath(dir, child));
        }
      }
      db->tables.emplace(mt.name, std::move(table));
    }
    databases_.emplace(mdb.name, std::move(db));
  }

  const std::string wal_dir = port::JoinPath(options_.data_dir, kWalDirName);
  GNOMON_RETURN_IF_ERROR(env_->CreateDirs(wal_dir));
  replaying_ = true;
  wal::ReplayOptions replay_options;
  replay_options.min_segment = wal_first_live_segment_.load();
  auto report = wal::ReplayWal(env_, wal_dir, replay_options, [this](std::string_view record, uint64_t) {
    return ApplyRecord(record);
  });
  replaying_ = false;
  for (const auto& [name, db] : databases_) db->limits->Enforce();
  if (!report.ok()) {
    if (!report.status().IsCorruption()) return report.status().WithContext("WAL replay");
    // Acknowledged writes lie past the damage: the operator chooses (docs/reliability.md).
    return report.status().WithContext(
        "WAL replay (records after the damage would be lost; back up the data directory, then "
        "`gnomon repair --cut-wal --data-dir " + options_.data_dir + "` to drop them and start)");
  }
  if (report->truncated) {
    GNOMON_LOG_WARN("WAL: cut a torn or corrupt tail in {} at offset {}: {}", report->truncated_file,
                    report->truncated_offset, report->detail);
  }
  GNOMON_LOG_INFO("recovered {} databases; replayed {} WAL records ({} bytes)", databases_.size(),
                  report->records, report->bytes);

  wal::WalOptions wal_options;
  wal_options.env = env_;
  wal_options.dir = wal_dir;
  GNOMON_ASSIGN_OR_RETURN(wal_, wal::Wal::Open(wal_options));
  // Replayed rows now sit in memtables only; they stay covered by the WAL segments kept until
  // the next flush moves the live mark past them.
  return SaveManifestNow();
}

Status EngineImpl::ApplyRecord(std::string_view record) {
  if (record.empty()) return Status::Corruption("empty WAL record");
  auto type = static_cast<WalRecordType>(record[0]);
  if (type == WalRecordType::kWriteBatch || type == WalRecordType::kWriteBatchById) {
    WriteBatch batch;
    GNOMON_RETURN_IF_ERROR(DecodeWriteBatch(record, &batch));
    WriteOutcome outcome;
    WriteOptions options;
    options.accept_partial = true;  // replay keeps whatever still fits the schema
    return ApplyBatch(batch, options, /*log=*/false, &outcome);
  }
  ControlRecord control;
  GNOMON_RETURN_IF_ERROR(DecodeControlRecord(record, &control));
  return ApplyControl(control);
}

std::shared_ptr<Table> EngineImpl::FindTable(const std::string& database, const std::string& table) {
  std::shared_lock lock(dbs_mu_);
  auto db = databases_.find(database);
  if (db == databases_.end()) return nullptr;
  auto t = db->second->tables.find(table);
  return t == db->second->tables.end() ? nullptr : t->second;
}

std::unique_ptr<Database> EngineImpl::NewDatabase(const std::string& name, std::string dir_name,
                                                  int64_t retention_ns) {
  auto db = std::make_unique<Database>();
  db->name = name;
  db->dir_name = std::move(dir_name);
  db->dir = DatabaseDir(options_.data_dir, db->dir_name);
  db->retention_ns = retention_ns;
  db->limits = std::make_shared<DatabaseLimits>(name, options_.max_series_per_database,
                                                options_.max_tables_per_database, options_.max_columns_per_table);
  if (!replaying_) db->limits->Enforce();  // else once recovery is over
  return db;
}

Result<std::shared_ptr<Table>> EngineImpl::GetOrCreateTable(const std::string& database,
                                                            const std::string& table, bool create) {
  if (auto t = FindTable(database, table)) return t;
  if (!create) return Status::NotFound("table " + table + " not found in database " + database);
  GNOMON_RETURN_IF_ERROR(ValidateTableName(table));
  std::shared_ptr<Table> result;
  {
    std::unique_lock lock(dbs_mu_);
    auto db_it = databases_.find(database);
    if (db_it == databases_.end()) {
      GNOMON_RETURN_IF_ERROR(ValidateDatabaseName(database));
      auto db = NewDatabase(database, EscapeFileName(database) + "-" + std::to_string(NextFileNumber()), 0);
      db_it = databases_.emplace(database, std::move(db)).first;
    }
    Database& db = *db_it->second;
    auto t = db.tables.find(table);
    if (t != db.tables.end()) return t->second;
    if (!db.limits->MayAddTable(db.tables.size())) {
      return Status::InvalidArgument("max-tables-per-database limit exceeded: database " + database + " has " +
                                     std::to_string(db.tables.size()) + " tables (limit " +
                                     std::to_string(db.limits->max_tables()) + "); new table " + table + " refused");
    }
    std::string dir_name = EscapeFileName(table) + "-" + std::to_string(NextFileNumber());
    GNOMON_ASSIGN_OR_RETURN(result, Table::Open(env_, table, port::JoinPath(db.dir, dir_name),
                                                dir_name, nullptr, stats_budget_));
    result->set_limits(db.limits);
    db.tables.emplace(table, result);
  }
  // The writer records the new table in the manifest before its WAL record (ApplyBatch).
  return result;
}

std::unique_ptr<SeriesResolver> EngineImpl::NewSeriesResolver(const std::string& database,
                                                              const std::string& table) {
  auto t = FindTable(database, table);
  return t == nullptr ? nullptr : t->NewSeriesResolver();
}

Result<WriteOutcome> EngineImpl::Write(const WriteBatch& batch, const WriteOptions& options) {
  if (closed_) return Status::Aborted("engine is closed");
  WriteOutcome outcome;
  if (batch.empty()) return outcome;
  GNOMON_RETURN_IF_ERROR(ValidateDatabaseName(batch.database()));
  const int64_t start = SteadyNanos();
  int64_t stalled = 0;
  {
    // Back-pressure: while a flush is running and the new memtables have filled the budget
    // again, writers wait for it instead of growing memory (at most one frozen generation
    // beside a full active one).
    std::unique_lock lock(bg_mu_);
    auto may_go = [&] {
      return pending_freezes_.empty() || memtable_bytes_.load() < options_.memtable_budget_bytes || bg_stop_;
    };
    if (!may_go()) {
      backlog_cv_.wait(lock, may_go);
      stalled = SteadyNanos() - start;
      write_stalls_.fetch_add(1, std::memory_order_relaxed);
      write_stall_ns_.fetch_add(static_cast<uint64_t>(stalled), std::memory_order_relaxed);
    }
  }
  WriteTimes times;
  GNOMON_RETURN_IF_ERROR(ApplyBatch(batch, options, /*log=*/true, &outcome, &times));
  if (const int64_t total = SteadyNanos() - start; total > kSlowWriteNs) {
    slow_writes_.fetch_add(1, std::memory_order_relaxed);
    GNOMON_LOG_WARN("slow write to database {} ({} rows): {} ms; waiting for a flush (memtable budget) {} ms, "
                    "writer gate {} ms, preparing {} ms, WAL {} ms",
                    batch.database(), batch.RowCount(), total / 1000000, stalled / 1000000, times.gate / 1000000,
                    times.prepare / 1000000, times.wal / 1000000);
  }
  return outcome;
}

Status EngineImpl::ApplyBatch(const WriteBatch& batch, const WriteOptions& options, bool log,
                              WriteOutcome* outcome, WriteTimes* times) {
  int64_t mark = times != nullptr ? SteadyNanos() : 0;
  // Adds the time since the last mark to *field (when timing).
  auto lap = [&](int64_t WriteTimes::*field) {
    if (times == nullptr) return;
    const int64_t now = SteadyNanos();
    times->*field += now - mark;
    mark = now;
  };
  WriterSection writer(&gate_);
  lap(&WriteTimes::gate);
  // tables[i] is null for a replayed table batch whose table instance was dropped since.
  std::vector<std::shared_ptr<Table>> tables;
  std::vector<PreparedTable> prepared(batch.tables().size());
  std::vector<ResolvedTable> resolved(batch.tables().size());
  for (size_t i = 0; i < batch.tables().size(); ++i) {
    const TableBatch& tb = *batch.tables()[i];
    GNOMON_ASSIGN_OR_RETURN(auto table, GetOrCreateTable(batch.database(), tb.name(), true));
    if (tb.has_resolved_series() && tb.table_instance() != table->dir_name()) {
      if (!replaying_) {
        return Status::Aborted("table " + tb.name() + " was dropped while this write was being "
                               "prepared; nothing was written, send it again");
      }
      tables.push_back(nullptr);  // rows of a dropped instance: the drop record came before
      continue;
    }
    GNOMON_RETURN_IF_ERROR(
        table->Prepare(tb, options.accept_partial, &prepared[i], &outcome->rejected));
    resolved[i] = ResolvedTable{table->dir_name(), prepared[i].series_ids, prepared[i].row_rejected};
    tables.push_back(std::move(table));
  }
  if (log) {
    // The record names series by id in a table's registry: replay must find the table's
    // directory through the manifest, and its series in the registry. So a table new since the
    // last manifest save is recorded first, and each registry makes its series durable (a no-op
    // unless some were created since its last sync, by this writer or another).
    for (const auto& table : tables) {
      if (table != nullptr && !table->in_manifest()) GNOMON_RETURN_IF_ERROR(SaveManifestNow());
      if (table != nullptr) GNOMON_RETURN_IF_ERROR(table->SyncRegistry());
    }
    thread_local std::string record;
    record.clear();
    EncodeWriteBatchById(batch, resolved, &record);
    bool sync = options.sync && options_.wal_sync == WalSyncMode::kFsync;
    lap(&WriteTimes::prepare);
    auto lsn = wal_->Append(record, sync);
    lap(&WriteTimes::wal);
    if (record.capacity() > kKeepRecordBufferBytes) std::string().swap(record);
    if (!lsn.ok()) return lsn.status();
  }
  size_t rows = 0;
  size_t bytes = 0;
  for (size_t i = 0; i < tables.size(); ++i) {
    if (tables[i] == nullptr) continue;
    const TableBatch& tb = *batch.tables()[i];
    // What the memtable grew by as it holds it (blocks, series states, the id index), so that
    // the budget bounds memory at any series count.
    bytes += tables[i]->Apply(tb, prepared[i]);
    rows += tb.rows().size();
  }
  rows -= outcome->rejected.size();
  outcome->rows_written += rows;
  rows_written_ += rows;
  if (memtable_bytes_.fetch_add(bytes) + bytes > options_.memtable_budget_bytes && !replaying_) {
    std::lock_guard lock(bg_mu_);
    bg_flush_requested_ = true;
    bg_cv_.notify_all();
  }
  return Status::OK();
}

Status EngineImpl::ApplyControl(const ControlRecord& record) {
  switch (record.type) {
    case WalRecordType::kDropDatabase: {
      std::unique_ptr<Database> db;
      {
        std::unique_lock lock(dbs_mu_);
        auto it = databases_.find(record.database);
        if (it == databases_.end()) return Status::OK();
        if (!record.instance.empty() && record.instance != it->second->dir_name) return Status::OK();
        db = std::move(it->second);
        databases_.erase(it);
      }
      if (!replaying_) GNOMON_RETURN_IF_ERROR(SaveManifestNow());
      return env_->RemoveDirRecursive(db->dir);
    }
    case WalRecordType::kDropTable: {
      std::shared_ptr<Table> table;
      {
        std::unique_lock lock(dbs_mu_);
        auto it = databases_.find(record.database);
        if (it == databases_.end()) return Status::OK();
        auto t = it->second->tables.find(record.table);
        if (t == it->second->tables.end()) return Status::OK();
        // Replay: the table was dropped and created again since this record.
        if (!record.instance.empty() && record.instance != t->second->dir_name()) return Status::OK();
        table = t->second;
        it->second->tables.erase(t);
      }
      if (!replaying_) GNOMON_RETURN_IF_ERROR(SaveManifestNow());
      return env_->RemoveDirRecursive(table->dir());
    }
    case WalRecordType::kDeleteRows: {
      auto table = FindTable(record.database, record.table);
      if (table == nullptr) return Status::OK();
      if (!record.instance.empty() && record.instance != table->dir_name()) return Status::OK();
      if (replaying_) {
        // A file damaged since this delete ran: refusing would keep the whole database from
        // opening, so the delete goes everywhere else.
        Status damaged = table->CheckUndamaged(record.min_time, record.max_time);
        if (!damaged.ok()) GNOMON_LOG_ERROR("replaying a delete: {}; that file keeps its rows", damaged.ToString());
      }
      Status s = table->DeleteRows(record.all_series ? nullptr : &record.series, record.min_time,
                                   record.max_time, [this] { return NextFileNumber(); },
                                   /*skip_damaged=*/replaying_);
      GNOMON_RETURN_IF_ERROR(s);
      if (!replaying_) {
        GNOMON_RETURN_IF_ERROR(SaveManifestNow());  // also removes the replaced segments
      }
      return Status::OK();
    }
    default: return Status::Corruption("unknown control record");
  }
}

Status EngineImpl::CreateDatabase(const std::string& name, const DatabaseOptions& options) {
  GNOMON_RETURN_IF_ERROR(ValidateDatabaseName(name));
  {
    std::unique_lock lock(dbs_mu_);
    auto it = databases_.find(name);
    if (it != databases_.end()) {
      if (options.retention_ns != 0) it->second->retention_ns = options.retention_ns;
    } else {
      databases_.emplace(name, NewDatabase(name, EscapeFileName(name) + "-" + std::to_string(NextFileNumber()),
                                           options.retention_ns));
    }
  }
  return SaveManifestNow();
}

Result<DatabaseInfo> EngineImpl::DescribeDatabase(const std::string& name) {
  std::shared_lock lock(dbs_mu_);
  auto it = databases_.find(name);
  if (it == databases_.end()) return Status::NotFound("database not found: " + name);
  DatabaseInfo info;
  info.options.retention_ns = it->second->retention_ns;
  info.effective_retention_ns = info.options.retention_ns != 0 ? info.options.retention_ns : options_.retention_ns;
  return info;
}

Status EngineImpl::AlterDatabase(const std::string& name, const DatabaseOptions& options) {
  {
    std::unique_lock lock(dbs_mu_);
    auto it = databases_.find(name);
    if (it == databases_.end()) return Status::NotFound("database not found: " + name);
    it->second->retention_ns = options.retention_ns;
  }
  return SaveManifestNow();
}

Status EngineImpl::DropDatabase(const std::string& name) {
  if (!DatabaseExists(name)) return Status::NotFound("database " + name + " not found");
  ControlRecord record;
  record.type = WalRecordType::kDropDatabase;
  record.database = name;
  ExclusiveSection exclusive(&gate_);
  {
    std::shared_lock lock(dbs_mu_);
    auto it = databases_.find(name);
    if (it == databases_.end()) return Status::NotFound("database " + name + " not found");
    record.instance = it->second->dir_name;
  }
  std::string bytes;
  EncodeControlRecord(record, &bytes);
  GNOMON_RETURN_IF_ERROR(wal_->Append(bytes, true).status());
  return ApplyControl(record);
}

Status EngineImpl::DropTable(const std::string& database, const std::string& table) {
  ExclusiveSection exclusive(&gate_);
  auto t = FindTable(database, table);
  if (t == nullptr) return Status::NotFound("table " + table + " not found in database " + database);
  ControlRecord record;
  record.type = WalRecordType::kDropTable;
  record.database = database;
  record.table = table;
  record.instance = t->dir_name();
  std::string bytes;
  EncodeControlRecord(record, &bytes);
  GNOMON_RETURN_IF_ERROR(wal_->Append(bytes, true).status());
  return ApplyControl(record);
}

Status EngineImpl::DeleteRows(const std::string& database, const std::string& table,
                              const std::optional<std::vector<SeriesId>>& series, int64_t min_time,
                              int64_t max_time) {
  auto t = FindTable(database, table);
  if (t == nullptr) return Status::NotFound("table " + table + " not found in database " + database);
  // Refused before it is logged: a replay could not apply it either.
  GNOMON_RETURN_IF_ERROR(t->CheckUndamaged(min_time, max_time));
  // Frozen memtables are immutable: flush them into segments first, where deletes rewrite files.
  GNOMON_RETURN_IF_ERROR(Flush());
  ControlRecord record;
  record.type = WalRecordType::kDeleteRows;
  record.database = database;
  record.table = table;
  record.all_series = !series.has_value();
  if (series) {
    record.series = *series;
    std::sort(record.series.begin(), record.series.end());
  }
  record.min_time = min_time;
  record.max_time = max_time;
  record.instance = t->dir_name();
  ExclusiveSection exclusive(&gate_);
  // The record names series ids: they must be durable before the record is.
  GNOMON_RETURN_IF_ERROR(t->SyncRegistry());
  std::string bytes;
  EncodeControlRecord(record, &bytes);
  GNOMON_RETURN_IF_ERROR(wal_->Append(bytes, true).status());
  return ApplyControl(record);
}

std::vector<std::string> EngineImpl::ListDatabases() {
  std::shared_lock lock(dbs_mu_);
  std::vector<std::string> names;
  for (const auto& [name, db] : databases_) names.push_back(name);
  return names;
}

bool EngineImpl::DatabaseExists(const std::string& name) {
  std::shared_lock lock(dbs_mu_);
  return databases_.count(name) > 0;
}

Result<std::vector<std::string>> EngineImpl::ListTables(const std::string& database) {
  std::shared_lock lock(dbs_mu_);
  auto it = databases_.find(database);
  if (it == databases_.end()) return Status::NotFound("database " + database + " not found");
  std::vector<std::string> names;
  for (const auto& [name, t] : it->second->tables) names.push_back(name);
  return names;
}

Result<TableInfo> EngineImpl::DescribeTable(const std::string& database, const std::string& table) {
  if (!DatabaseExists(database)) return Status::NotFound("database " + database + " not found");
  auto t = FindTable(database, table);
  if (t == nullptr) return Status::NotFound("table " + table + " not found in database " + database);
  return t->Info();
}

Result<std::unique_ptr<TableReader>> EngineImpl::OpenTable(const std::string& database,
                                                           const std::string& table) {
  if (!DatabaseExists(database)) return Status::NotFound("database " + database + " not found");
  auto t = FindTable(database, table);
  if (t == nullptr) return Status::NotFound("table " + table + " not found in database " + database);
  return t->NewReader();
}

std::vector<std::shared_ptr<Table>> EngineImpl::AllTables() {
  std::shared_lock lock(dbs_mu_);
  std::vector<std::shared_ptr<Table>> tables;
  for (const auto& [name, db] : databases_) {
    for (const auto& [tname, t] : db->tables) tables.push_back(t);
  }
  return tables;
}

Status EngineImpl::SaveManifestNow() {
  std::lock_guard lock(manifest_mu_);
  return SaveManifestLocked();
}

Status EngineImpl::SaveManifestLocked() {
  Manifest m;
  // Segment files replaced since the last save. Taken before the tables are described: a table
  // drops a file from its segment list and marks it obsolete in one step, so the manifest built
  // below no longer lists these, and they may go once it is durable. Files made obsolete while
  // this runs (by a concurrent compaction) stay for the next save: deleting them now could leave
  // the manifest on disk naming a file that is gone.
  std::vector<std::string> removable;
  std::vector<std::shared_ptr<Table>> listed;
  {
    std::shared_lock lock(dbs_mu_);
    for (const auto& [name, db] : databases_) {
      for (const auto& [tname, t] : db->tables) {
        for (std::string& path : t->TakeObsoleteFiles()) removable.push_back(std::move(path));
      }
    }
    for (const auto& [name, db] : databases_) {
      ManifestDatabase mdb;
      mdb.name = name;
      mdb.dir_name = db->dir_name;
      mdb.retention_ns = db->retention_ns;
      for (const auto& [tname, t] : db->tables) {
        mdb.tables.push_back(t->ToManifest());
        listed.push_back(t);
      }
      m.databases.push_back(std::move(mdb));
    }
  }
  m.next_file_number = next_file_number_.load();
  m.next_sequence = next_sequence_.load();
  m.wal_first_live_segment = wal_first_live_segment_.load();
  // On failure the files stay: unlisted segments are removed at the next start.
  GNOMON_RETURN_IF_ERROR(SaveManifest(env_, options_.data_dir, m));
  for (const auto& t : listed) t->set_in_manifest();
  if (!removable.empty()) GNOMON_FAULT_POINT("manifest.before_remove");
  for (const std::string& path : removable) {
    Status s = env_->RemoveFile(path);
    if (!s.ok()) GNOMON_LOG_WARN("could not remove obsolete segment: {}", s.ToString());
  }
  return Status::OK();
}

EngineStats EngineImpl::Stats() {
  EngineStats stats;
  for (const auto& t : AllTables()) t->Stats(&stats);
  stats.rows_written = rows_written_.load();
  stats.write_stalls = write_stalls_.load(std::memory_order_relaxed);
  stats.write_stall_ns = write_stall_ns_.load(std::memory_order_relaxed);
  stats.slow_writes = slow_writes_.load(std::memory_order_relaxed);
  {
    WriterSection writer(&gate_);  // ReopenWalAfterFailure replaces wal_ under the exclusive gate
    if (wal_) stats.wal_bytes = wal_->TotalBytes();
  }
  if (stats_budget_) stats.stats_cache_bytes = stats_budget_->used();
  return stats;
}

}  // namespace gnomon::storage
