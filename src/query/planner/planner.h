// Planner: turns a parsed SELECT into a tree of physical operators, choosing the storage
// pushdowns (time range, series from tag predicates, block statistics, newest-first scans,
// the last-value cache) where the query's shape allows them.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "src/base/result.h"
#include "src/query/access_check.h"
#include "src/query/execution/operator.h"
#include "src/query/parser/ast.h"
#include "src/storage/engine.h"

namespace gnomon::query {

struct PlannerOptions {
  std::string database;
  AccessCheck access_check;  // QueryOptions::access_check; empty: allowed
  int64_t now_ns = 0;
  int threads = 1;
};

class Planner {
 public:
  Planner(storage::Engine* engine, PlannerOptions options, ExecutionContext* ctx)
      : engine_(engine), options_(std::move(options)), ctx_(ctx) {}

  // `statement` owns the text the node's spans point into (for output column names).
  Result<OperatorPtr> PlanSelect(const SelectNode& node, const Statement& statement);

 private:
  using CteScope = std::map<std::string, const SelectNode*>;
  Result<OperatorPtr> Plan(const SelectNode& node, const Statement& statement, CteScope scope);

  storage::Engine* engine_;
  PlannerOptions options_;
  ExecutionContext* ctx_;
};

}  // namespace gnomon::query
