// QueryEngine: runs SQL statements against the storage engine and streams their results.
// Thread-safe: one QueryEngine serves all HTTP requests concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "src/base/status.h"
#include "src/query/access_check.h"
#include "src/query/result.h"
#include "src/storage/engine.h"

namespace gnomon {
class TaskPool;
}

namespace gnomon::query {

struct QueryEngineOptions {
  int64_t default_timeout_ms = 60'000;          // per query; 0 = none
  size_t default_memory_limit_bytes = 4ull << 30;  // per query working memory
  int worker_threads = 0;                       // 0 = hardware concurrency
  size_t max_result_rows = 0;                   // a longer result ends the query; 0 = no limit
};

struct QueryOptions {
  std::string database = "public";
  AccessCheck access_check;  // empty: everything is allowed
  int64_t now_ns = 0;        // value of now(); 0 = the wall clock when the query starts
  int64_t timeout_ms = -1;   // -1 = engine default
  int64_t memory_limit_bytes = -1;
  int64_t max_result_rows = -1;  // -1 = engine default; 0 = no limit
};

class QueryEngine {
 public:
  static std::unique_ptr<QueryEngine> Create(storage::Engine* storage,
                                             const QueryEngineOptions& options);
  virtual ~QueryEngine() = default;

  // Parses, plans and runs one statement, streaming its result into `sink`.
  // Errors: InvalidArgument (syntax: message points at line/column; semantic: names the unknown
  // table/column/function), NotFound (unknown database), Timeout, ResourceExhausted (memory, or a result past
  // max_result_rows).
  // If an error happens after sink->Begin, the sink is not ended; the caller reports the error.
  virtual Status Execute(std::string_view sql, const QueryOptions& options, ResultSink* sink) = 0;

  // The long-lived helper threads its operators split work over (worker_threads - 1 of them),
  // lent to callers for work beside a query, such as rendering a large answer in halves.
  virtual TaskPool* pool() = 0;
};

}  // namespace gnomon::query
