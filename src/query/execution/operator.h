// Physical operators: pull-based, each producing chunks of its output columns.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "src/base/status.h"
#include "src/query/execution/value.h"
#include "src/query/result.h"

namespace gnomon {
class TaskPool;
}

namespace gnomon::query {

constexpr size_t kChunkRows = 2048;

// Shared by every operator of one query: limits, and the counters EXPLAIN ANALYZE prints.
struct ExecutionContext {
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  size_t memory_limit = SIZE_MAX;
  size_t max_result_rows = 0;  // rows the statement may return; 0 = no limit
  std::atomic<size_t> memory_used{0};  // Reserve may be called from an operator's own threads
  // Threads an operator may use for its own work (the query engine's worker_threads).
  int threads = 1;
  // The engine's long-lived helpers for that work; nullptr: the operator's thread does it all.
  TaskPool* pool = nullptr;
  QueryStats stats;

  // Runs body(slot) for every slot in [0, width) on this thread and the pool's free helpers
  // (TaskPool::ParallelFor); returns when all have returned.
  void ParallelFor(int width, const std::function<void(int)>& body) const;

  // Timeout when the deadline passed.
  Status Check() const {
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::Timeout("query exceeded its time limit and was cancelled");
    }
    return Status::OK();
  }
  // Accounts `bytes` of working memory; ResourceExhausted past the limit.
  Status Reserve(size_t bytes) {
    if (memory_used.fetch_add(bytes, std::memory_order_relaxed) + bytes > memory_limit) {
      return Status::ResourceExhausted("query exceeded its memory limit of " +
                                       std::to_string(memory_limit) + " bytes");
    }
    return Status::OK();
  }
};

class Operator {
 public:
  virtual ~Operator() = default;
  const std::vector<ResultColumn>& schema() const { return schema_; }
  // Next chunk of output; sets *done (with an empty chunk) at the end. A chunk always has one
  // column per schema entry, an empty one too.
  Status Next(Chunk* chunk, bool* done);
  // One line for EXPLAIN: the operator and what it does ("Filter: usage_user > 90").
  virtual std::string Describe() const = 0;
  virtual std::vector<const Operator*> children() const { return {}; }
  uint64_t rows_out() const { return rows_out_; }
  int64_t elapsed_ns() const { return elapsed_ns_; }

 protected:
  virtual Status NextImpl(Chunk* chunk, bool* done) = 0;
  std::vector<ResultColumn> schema_;

 private:
  uint64_t rows_out_ = 0;
  int64_t elapsed_ns_ = 0;
};

using OperatorPtr = std::unique_ptr<Operator>;

// Renders the operator tree, one operator per line, children indented; with `analyze`, rows and
// time per operator.
std::string ExplainTree(const Operator& root, bool analyze);

// Drains an operator into one chunk (for subqueries and tests).
Status DrainAll(Operator* op, Chunk* out, ExecutionContext* ctx);
// Pulls op's chunks until it is done, handing each non-empty one to `take` (which may move it),
// checking the deadline before each pull. Reserves rows * bytes_per_row(chunk) of working memory
// for each chunk first.
Status ForEachChunk(Operator* op, ExecutionContext* ctx, const std::function<size_t(const Chunk&)>& bytes_per_row,
                    const std::function<void(Chunk&&)>& take);
// Appends every row of src to dst (same column types).
void AppendChunk(Chunk* dst, const Chunk& src);

}  // namespace gnomon::query
