// Logical plan: the relational operators a query compiles into. The binder builds a tree of
// these from a parsed query (binder/select_binder.h), the optimizer's rules rewrite it
// (optimizer/), and the physical planner turns it into execution operators (physical/).
// Every node's expressions are bound against its child's output columns, by position.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/query/binder/bound_expression.h"
#include "src/query/execution/aggregate_function.h"
#include "src/query/execution/basic_operators.h"
#include "src/query/execution/bucket_aggregate_operator.h"
#include "src/query/execution/gap_fill_operator.h"
#include "src/query/execution/hash_join_operator.h"
#include "src/query/execution/last_value_aggregate_operator.h"
#include "src/query/execution/scan_operator.h"
#include "src/query/execution/set_operation_operator.h"
#include "src/query/execution/window_function.h"
#include "src/query/result.h"
#include "src/storage/engine.h"

namespace gnomon::query {

enum class LogicalKind : uint8_t {
  kGet,       // rows of a base table
  kValues,    // a constant relation (one empty row for SELECT without FROM)
  kFilter,
  kProject,
  kAggregate,
  kSort,
  kDistinct,
  kLimit,
  kWindow,    // window functions: the input's columns, then one per call
  kJoin,      // the left input's columns, then the right's (semi and anti joins: the left's only)
  kSetOperation,  // UNION / INTERSECT / EXCEPT of two inputs with the same column types
  kGapFill,   // a bucketed aggregate with its missing buckets added: the input's columns, then fills
  // Chosen by optimizer rules where storage answers an aggregate over a base table itself.
  kBucketAggregate,  // time buckets and tags from running statistics (optimizer/bucket_aggregate.cc)
  kLastValues,       // last values per tag group from the last-value cache
};

// A predicate with the query text it came from (for EXPLAIN and errors).
struct Predicate {
  BoundExprPtr expr;
  std::string text;
};

struct LogicalNode;
using LogicalPtr = std::unique_ptr<LogicalNode>;

struct LogicalNode {
  explicit LogicalNode(LogicalKind k) : kind(k) {}
  virtual ~LogicalNode() = default;
  LogicalNode(const LogicalNode&) = delete;
  LogicalNode& operator=(const LogicalNode&) = delete;

  // One line for EXPLAIN ("Filter: usage_user > 90").
  virtual std::string Describe() const = 0;

  template <typename T>
  T& As() {
    GNOMON_CHECK(kind == T::kKind);
    return static_cast<T&>(*this);
  }
  template <typename T>
  const T& As() const {
    GNOMON_CHECK(kind == T::kKind);
    return static_cast<const T&>(*this);
  }

  const LogicalKind kind;
  std::vector<ResultColumn> schema;  // output columns
  std::vector<LogicalPtr> children;
};

// What the storage pushdown rule found a base table's predicates allow storage to do itself.
struct StoragePushdown {
  int64_t min_time = std::numeric_limits<int64_t>::min();
  int64_t max_time = std::numeric_limits<int64_t>::max();
  bool has_time_bound = false;
  // Ascending series ids allowed by tag predicates; nullopt = every series.
  std::optional<std::vector<storage::SeriesId>> series;
  std::string note;  // what was pushed, for EXPLAIN
};

struct LogicalGet final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kGet;
  LogicalGet() : LogicalNode(kKind) {}
  std::string Describe() const override;
  // Every series the pushdown allows, in id order.
  std::vector<storage::SeriesId> Series() const;

  std::shared_ptr<storage::TableReader> reader;
  std::string table;
  std::vector<ScanColumn> columns;  // the output, in order
  std::vector<Predicate> filters;   // conjuncts over `columns` still to evaluate on rows
  StoragePushdown pushdown;
  bool pushdown_done = false;
  // time_ordered_scan, one_row_per_series: each series oldest (or newest) first, stopping after
  // per_series_limit rows that pass the filters.
  size_t per_series_limit = 0;
  bool newest_first = false;
  // last_point_from_cache: the newest row of each series, from the last-value cache.
  bool last_point = false;
};

struct LogicalValues final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kValues;
  LogicalValues() : LogicalNode(kKind) {}
  std::string Describe() const override { return description; }

  Chunk chunk;
  std::string description;
};

struct LogicalFilter final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kFilter;
  LogicalFilter() : LogicalNode(kKind) {}
  std::string Describe() const override;

  std::vector<Predicate> predicates;  // all must hold
};

struct LogicalProject final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kProject;
  LogicalProject() : LogicalNode(kKind) {}
  std::string Describe() const override;
  // True when every expression is a plain column reference.
  bool OnlyColumnRefs() const;

  std::vector<BoundExprPtr> exprs;  // schema[i] names exprs[i]
};

struct LogicalAggregate final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kAggregate;
  LogicalAggregate() : LogicalNode(kKind) {}
  std::string Describe() const override;

  // Output: the keys, then the aggregates.
  std::vector<BoundExprPtr> keys;
  std::vector<std::string> key_names;
  std::vector<AggregateSpec> aggregates;
};

struct LogicalWindow final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kWindow;
  LogicalWindow() : LogicalNode(kKind) {}
  std::string Describe() const override;

  std::vector<WindowCall> calls;  // output column input_width + i is calls[i]
};

struct LogicalSort final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kSort;
  LogicalSort() : LogicalNode(kKind) {}
  std::string Describe() const override;

  std::vector<SortKey> keys;
  int64_t top_n = -1;  // top_n rule: only the first n rows are wanted
  std::string text;
};

struct LogicalDistinct final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kDistinct;
  LogicalDistinct() : LogicalNode(kKind) {}
  std::string Describe() const override;

  std::vector<int> key_columns;
  bool on = false;  // DISTINCT ON: the first row of each key (input is sorted)
};

struct LogicalLimit final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kLimit;
  LogicalLimit() : LogicalNode(kKind) {}
  std::string Describe() const override;

  int64_t limit = -1;  // < 0: none
  int64_t offset = 0;
};

struct LogicalJoin final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kJoin;
  LogicalJoin() : LogicalNode(kKind) {}
  std::string Describe() const override;

  JoinKind join_kind = JoinKind::kInner;
  // ASOF: of the right rows matching the equalities, only the nearest one in time (conditions
  // hold exactly one comparison of a left and a right expression, which says which way).
  bool asof = false;
  // NOT IN: a NULL on either side of the key makes the answer unknown, so the row is dropped.
  bool null_aware = false;
  // Over the left columns then the right ones (all must hold; empty for CROSS).
  std::vector<Predicate> conditions;
};

struct LogicalSetOperation final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kSetOperation;
  LogicalSetOperation() : LogicalNode(kKind) {}
  std::string Describe() const override;

  SetOperationKind op = SetOperationKind::kUnionAll;
};

struct LogicalGapFill final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kGapFill;
  LogicalGapFill() : LogicalNode(kKind) {}
  std::string Describe() const override { return "GapFill: " + spec.text; }

  GapFillSpec spec;
  // Without start and finish arguments the range is the time range WHERE gives the scan below,
  // known once the storage pushdown has run (the physical planner reads it).
  bool has_range = false;
};

struct LogicalBucketAggregate final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kBucketAggregate;
  LogicalBucketAggregate() : LogicalNode(kKind) {}
  std::string Describe() const override;

  std::shared_ptr<storage::TableReader> reader;
  std::string table;
  std::vector<storage::SeriesId> series;
  int64_t min_time = std::numeric_limits<int64_t>::min();
  int64_t max_time = std::numeric_limits<int64_t>::max();
  std::vector<BucketGroupKey> keys;
  std::vector<BucketAggregate> aggregates;
  size_t newest_buckets = 0;  // newest_buckets rule: only the newest n buckets are wanted
  std::string note;
};

struct LogicalLastValues final : LogicalNode {
  static constexpr LogicalKind kKind = LogicalKind::kLastValues;
  LogicalLastValues() : LogicalNode(kKind) {}
  std::string Describe() const override;

  std::shared_ptr<storage::TableReader> reader;
  std::string table;
  std::vector<storage::SeriesId> series;
  std::vector<std::string> key_tags;
  std::vector<std::string> key_names;
  std::vector<LastValueAggregate> aggregates;
};

// The output columns of an aggregate with these keys and aggregates (what every aggregate
// operator emits).
std::vector<ResultColumn> AggregateSchema(const std::vector<std::string>& key_names,
                                          const std::vector<ValueType>& key_types,
                                          const std::vector<AggregateSpec>& aggregates);

// The tree, one node per line, children indented two spaces.
std::string ExplainLogical(const LogicalNode& root);

}  // namespace gnomon::query
