// FakeEngine: an in-memory storage::Engine for the API tests. It keeps what the handlers need to
// observe (databases, tables, field types, every row's time and source line) and can inject
// failures and hold writes at a gate (to test shutdown with requests in flight).
// Test-only; thread-safe.
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "src/storage/engine.h"

namespace gnomon::server::api {

class FakeEngine : public storage::Engine {
 public:
  struct WriteCall {
    std::string database;
    size_t rows = 0;
    bool sync = true;
    bool accept_partial = false;
    std::vector<int64_t> times;  // per row, tables in batch order
  };

  Result<storage::WriteOutcome> Write(const storage::WriteBatch& batch,
                                      const storage::WriteOptions& options) override {
    std::unique_lock<std::mutex> lock(mu_);
    ++writes_entered_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return !gate_closed_; });
    if (next_error_) {
      Status s = *next_error_;
      next_error_.reset();
      return s;
    }
    storage::WriteOutcome outcome;
    WriteCall call{batch.database(), 0, options.sync, options.accept_partial, {}};
    auto& db = databases_[batch.database()];
    // First pass: find rows whose fields conflict with the stored schema.
    std::set<std::pair<const storage::TableBatch*, size_t>> bad_rows;
    for (const auto& table : batch.tables()) {
      auto& schema = db[table->name()];
      const auto& rows = table->rows();
      for (size_t r = 0; r < rows.size(); ++r) {
        for (uint32_t v = 0; v < rows[r].value_count; ++v) {
          const auto& field = table->fields()[table->values()[rows[r].value_begin + v].field];
          auto it = schema.find(field.name);
          if (it != schema.end() && it->second != field.type) {
            std::string reason = "invalid column type for column '" + field.name + "', expected " +
                                 std::string(ValueTypeName(it->second)) + ", got " +
                                 std::string(ValueTypeName(field.type));
            if (!options.accept_partial) return Status::TypeConflict(reason);
            bad_rows.insert({table.get(), r});
            outcome.rejected.push_back({rows[r].line, reason});
            break;
          }
        }
      }
    }
    for (const auto& table : batch.tables()) {
      auto& schema = db[table->name()];
      const auto& rows = table->rows();
      for (size_t r = 0; r < rows.size(); ++r) {
        if (bad_rows.count({table.get(), r})) continue;
        for (uint32_t v = 0; v < rows[r].value_count; ++v) {
          const auto& field = table->fields()[table->values()[rows[r].value_begin + v].field];
          schema.emplace(field.name, field.type);
        }
        call.times.push_back(rows[r].time);
        ++call.rows;
      }
    }
    outcome.rows_written = call.rows;
    rows_total_ += call.rows;
    calls_.push_back(std::move(call));
    return outcome;
  }

  Status CreateDatabase(const std::string& name, const storage::DatabaseOptions& options) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (databases_.count(name)) return Status::AlreadyExists("database " + name);
    databases_[name];
    retention_[name] = options.retention_ns;
    return Status::OK();
  }
  Result<storage::DatabaseInfo> DescribeDatabase(const std::string& name) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!databases_.count(name)) return Status::NotFound("database not found: " + name);
    storage::DatabaseInfo info;
    info.options.retention_ns = info.effective_retention_ns = retention_[name];
    return info;
  }
  Status AlterDatabase(const std::string& name, const storage::DatabaseOptions& options) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!databases_.count(name)) return Status::NotFound("database not found: " + name);
    retention_[name] = options.retention_ns;
    return Status::OK();
  }
  Status DropDatabase(const std::string& name) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (databases_.erase(name) == 0) return Status::NotFound("database " + name);
    return Status::OK();
  }
  std::vector<std::string> ListDatabases() override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::string> out;
    for (const auto& [name, tables] : databases_) out.push_back(name);
    return out;
  }
  bool DatabaseExists(const std::string& name) override {
    std::lock_guard<std::mutex> lock(mu_);
    return databases_.count(name) > 0;
  }
  Result<std::vector<std::string>> ListTables(const std::string& database) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = databases_.find(database);
    if (it == databases_.end()) return Status::NotFound("database not found: " + database);
    std::vector<std::string> out;
    for (const auto& [name, schema] : it->second) out.push_back(name);
    return out;
  }
  Result<storage::TableInfo> DescribeTable(const std::string&, const std::string&) override {
    return Status::Unsupported("fake engine");
  }
  Status DropTable(const std::string&, const std::string&) override {
    return Status::Unsupported("fake engine");
  }
  Status DeleteRows(const std::string&, const std::string&,
                    const std::optional<std::vector<storage::SeriesId>>&, int64_t, int64_t) override {
    return Status::Unsupported("fake engine");
  }
  Result<std::unique_ptr<storage::TableReader>> OpenTable(const std::string&,
                                                          const std::string&) override {
    return Status::Unsupported("fake engine");
  }
  Status Flush() override {
    std::lock_guard<std::mutex> lock(mu_);
    ++flushes_;
    return maintenance_error_;
  }
  Status Compact() override {
    std::lock_guard<std::mutex> lock(mu_);
    ++compactions_;
    return maintenance_error_;
  }
  storage::EngineStats Stats() override {
    std::lock_guard<std::mutex> lock(mu_);
    storage::EngineStats s;
    s.rows_written = rows_total_;
    return s;
  }
  Status Close() override { return Status::OK(); }

  // --- test controls ---
  void FailNextWrite(Status status) {
    std::lock_guard<std::mutex> lock(mu_);
    next_error_ = std::move(status);
  }
  void CloseGate() {
    std::lock_guard<std::mutex> lock(mu_);
    gate_closed_ = true;
  }
  void OpenGate() {
    std::lock_guard<std::mutex> lock(mu_);
    gate_closed_ = false;
    cv_.notify_all();
  }
  // Waits until `n` writes have entered Write() (possibly blocked at the gate).
  void WaitForWritesEntered(size_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return writes_entered_ >= n; });
  }
  std::vector<WriteCall> calls() {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_;
  }
  int flushes() {
    std::lock_guard<std::mutex> lock(mu_);
    return flushes_;
  }
  int compactions() {
    std::lock_guard<std::mutex> lock(mu_);
    return compactions_;
  }
  void FailMaintenance(Status status) {
    std::lock_guard<std::mutex> lock(mu_);
    maintenance_error_ = std::move(status);
  }
  size_t rows_total() {
    std::lock_guard<std::mutex> lock(mu_);
    return rows_total_;
  }
  int64_t retention(const std::string& db) {
    std::lock_guard<std::mutex> lock(mu_);
    return retention_[db];
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  // database -> table -> field -> type
  std::map<std::string, std::map<std::string, std::map<std::string, ValueType>>> databases_;
  std::map<std::string, int64_t> retention_;
  std::vector<WriteCall> calls_;
  size_t rows_total_ = 0;
  int flushes_ = 0;
  int compactions_ = 0;
  Status maintenance_error_;
  size_t writes_entered_ = 0;
  bool gate_closed_ = false;
  std::optional<Status> next_error_;
};

}  // namespace gnomon::server::api
