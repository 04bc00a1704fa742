// prune_columns: from the root down, each node learns which of its output columns are read
// above it, keeps only what it needs of its input, and renumbers its expressions; a Get then
// reads only those columns from storage, and a projection (of a CTE or subquery) drops what
// nothing reads. The root's columns are the result and all stay.
#include "src/query/logical/column_refs.h"
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {
namespace {

std::vector<bool> All(size_t n) { return std::vector<bool>(n, true); }

std::vector<int> Prune(LogicalNode* node, std::vector<bool> required, bool* changed);

// Each side keeps what is read above and what the conditions read.
std::vector<int> PruneJoin(LogicalJoin& join, std::vector<bool> required, bool* changed) {
  const size_t left_width = join.children[0]->schema.size();
  const size_t width = left_width + join.children[1]->schema.size();
  const size_t output_width = join.schema.size();
  required.resize(width, false);
  for (const Predicate& p : join.conditions) MarkColumnRefs(*p.expr, &required);
  std::vector<int> left = Prune(join.children[0].get(), std::vector<bool>(required.begin(), required.begin() + left_width),
                                changed);
  std::vector<int> right = Prune(join.children[1].get(), std::vector<bool>(required.begin() + left_width, required.end()),
                                 changed);
  const int kept_left = static_cast<int>(join.children[0]->schema.size());
  std::vector<int> mapping = left;
  for (int r : right) mapping.push_back(r < 0 ? -1 : kept_left + r);
  for (Predicate& p : join.conditions) RemapColumnRefs(p.expr.get(), mapping);
  join.schema = join.children[0]->schema;
  if (output_width > left_width) {
    join.schema.insert(join.schema.end(), join.children[1]->schema.begin(), join.children[1]->schema.end());
  }
  mapping.resize(output_width);
  return mapping;
}

// `required[i]`: output column i is read above. Returns old output index -> new (-1: dropped).
std::vector<int> Prune(LogicalNode* node, std::vector<bool> required, bool* changed) {
  const size_t width = node->schema.size();
  required.resize(width, false);
  switch (node->kind) {
    case LogicalKind::kGet: {
      auto& get = node->As<LogicalGet>();
      for (const Predicate& p : get.filters) MarkColumnRefs(*p.expr, &required);
      std::vector<int> mapping = KeptColumnMapping(required);
      for (Predicate& p : get.filters) RemapColumnRefs(p.expr.get(), mapping);
      std::vector<ScanColumn> columns;
      std::vector<ResultColumn> schema;
      for (size_t i = 0; i < width; ++i) {
        if (!required[i]) continue;
        columns.push_back(get.columns[i]);
        schema.push_back(get.schema[i]);
      }
      *changed = *changed || columns.size() < width;
      get.columns = std::move(columns);
      get.schema = std::move(schema);
      return mapping;
    }
    case LogicalKind::kFilter: {
      auto& filter = node->As<LogicalFilter>();
      for (const Predicate& p : filter.predicates) MarkColumnRefs(*p.expr, &required);
      std::vector<int> mapping = Prune(node->children[0].get(), required, changed);
      for (Predicate& p : filter.predicates) RemapColumnRefs(p.expr.get(), mapping);
      node->schema = node->children[0]->schema;
      return mapping;
    }
    case LogicalKind::kSort:
    case LogicalKind::kDistinct:
    case LogicalKind::kLimit: {
      if (node->kind == LogicalKind::kSort) {
        for (const SortKey& k : node->As<LogicalSort>().keys) required[k.column] = true;
      }
      if (node->kind == LogicalKind::kDistinct) {
        for (int k : node->As<LogicalDistinct>().key_columns) required[k] = true;
      }
      std::vector<int> mapping = Prune(node->children[0].get(), required, changed);
      if (node->kind == LogicalKind::kSort) {
        for (SortKey& k : node->As<LogicalSort>().keys) k.column = mapping[k.column];
      }
      if (node->kind == LogicalKind::kDistinct) {
        for (int& k : node->As<LogicalDistinct>().key_columns) k = mapping[k];
      }
      node->schema = node->children[0]->schema;
      return mapping;
    }
    case LogicalKind::kProject: {
      auto& project = node->As<LogicalProject>();
      std::vector<int> mapping = KeptColumnMapping(required);
      std::vector<BoundExprPtr> exprs;
      std::vector<ResultColumn> schema;
      for (size_t i = 0; i < width; ++i) {
        if (!required[i]) continue;
        exprs.push_back(std::move(project.exprs[i]));
        schema.push_back(project.schema[i]);
      }
      *changed = *changed || exprs.size() < width;
      project.exprs = std::move(exprs);
      project.schema = std::move(schema);
      std::vector<bool> input;
      for (const BoundExprPtr& e : project.exprs) MarkColumnRefs(*e, &input);
      std::vector<int> below = Prune(node->children[0].get(), input, changed);
      for (BoundExprPtr& e : project.exprs) RemapColumnRefs(e.get(), below);
      return mapping;
    }
    case LogicalKind::kAggregate: {
      // Every key groups and every aggregate is computed: the output stays whole.
      auto& agg = node->As<LogicalAggregate>();
      std::vector<bool> input;
      for (const BoundExprPtr& k : agg.keys) MarkColumnRefs(*k, &input);
      for (const AggregateSpec& a : agg.aggregates) MarkColumnRefs(a, &input);
      std::vector<int> below = Prune(node->children[0].get(), input, changed);
      for (BoundExprPtr& k : agg.keys) RemapColumnRefs(k.get(), below);
      for (AggregateSpec& a : agg.aggregates) RemapColumnRefs(&a, below);
      break;
    }
    case LogicalKind::kWindow: {
      // Every call stays (its column is cheap next to the sort); the input keeps what is read
      // above and what the calls read.
      auto& window = node->As<LogicalWindow>();
      const size_t inputs = window.children[0]->schema.size();
      std::vector<bool> input(required.begin(), required.begin() + inputs);
      for (const WindowCall& c : window.calls) MarkColumnRefs(c, &input);
      std::vector<int> below = Prune(node->children[0].get(), input, changed);
      for (WindowCall& c : window.calls) RemapColumnRefs(&c, below);
      std::vector<ResultColumn> schema = node->children[0]->schema;
      std::vector<int> mapping = below;
      mapping.resize(inputs);
      for (size_t i = 0; i < window.calls.size(); ++i) {
        mapping.push_back(static_cast<int>(schema.size()));
        schema.push_back(node->schema[inputs + i]);
      }
      node->schema = std::move(schema);
      return mapping;
    }
    case LogicalKind::kJoin: return PruneJoin(node->As<LogicalJoin>(), std::move(required), changed);
    default:
      for (LogicalPtr& c : node->children) Prune(c.get(), All(c->schema.size()), changed);
      break;
  }
  std::vector<int> identity(width);
  for (size_t i = 0; i < width; ++i) identity[i] = static_cast<int>(i);
  return identity;
}

}  // namespace

bool PruneColumns(LogicalPtr* root) {
  bool changed = false;
  Prune(root->get(), All((*root)->schema.size()), &changed);
  return changed;
}

}  // namespace gnomon::query::rules
