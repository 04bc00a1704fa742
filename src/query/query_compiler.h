// Query compiler: parse tree -> logical plan (binder) -> optimized logical plan (rules) ->
// execution operators (physical planner). What EXPLAIN shows of each step comes back with the
// operators.
#pragma once

#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/query/access_check.h"
#include "src/query/execution/operator.h"
#include "src/query/parser/ast.h"
#include "src/storage/engine.h"

namespace gnomon::query {

struct CompileOptions {
  std::string database;
  AccessCheck access_check;  // QueryOptions::access_check; empty: allowed
  int64_t now_ns = 0;
  int threads = 1;
  bool explain = false;  // fill CompiledQuery's logical plan and rules
};

struct CompiledQuery {
  OperatorPtr root;
  std::string logical_plan;         // as bound, before the rules (with CompileOptions::explain)
  std::vector<std::string> rules;   // the rules that changed the plan
};

Result<CompiledQuery> CompileSelect(storage::Engine* engine, const CompileOptions& options, ExecutionContext* ctx,
                                    const SelectNode& node, const Statement& statement);

}  // namespace gnomon::query
