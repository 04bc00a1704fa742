// gap_fill_order: a gap fill already emits its rows group by group, each group's buckets
// ascending. A sort (through a projection of plain columns) by the group columns, in any order
// and direction, and then the bucket ascending asks for exactly that once the gap fill orders its
// groups the same way; the gap fill takes the order and the sort goes. InfluxQL's GROUP BY
// time(), tags answers (ORDER BY tags NULLS FIRST, time) are this shape.
#include <algorithm>

#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {
namespace {

// The sort's keys as columns of the gap fill's output, or false when one is not a plain column.
bool KeysBelowProjection(const LogicalSort& sort, const LogicalProject* project, std::vector<SortKey>* keys) {
  for (SortKey k : sort.keys) {
    if (project != nullptr) {
      const BoundExpr& e = *project->exprs[k.column];
      if (e.kind != BoundKind::kColumn) return false;
      k.column = e.column;
    }
    keys->push_back(k);
  }
  return true;
}

// Whether `keys` are the group columns (each once) and then the bucket, ascending, NULLs last.
bool IsGroupsThenBucket(const GapFillSpec& spec, const std::vector<SortKey>& keys) {
  if (keys.size() != spec.group_columns.size() + 1) return false;
  const SortKey& last = keys.back();
  if (last.column != spec.bucket_column || last.descending || last.nulls_first) return false;
  std::vector<int> wanted = spec.group_columns, got;
  for (size_t i = 0; i + 1 < keys.size(); ++i) got.push_back(keys[i].column);
  std::sort(wanted.begin(), wanted.end());
  std::sort(got.begin(), got.end());
  return wanted == got;
}

}  // namespace

bool GapFillOrder(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    if ((*slot)->kind != LogicalKind::kSort) return;
    const auto& sort = (*slot)->As<LogicalSort>();
    LogicalNode* below = sort.children[0].get();
    const LogicalProject* project = nullptr;
    if (below->kind == LogicalKind::kProject) {
      project = &below->As<LogicalProject>();
      if (!project->OnlyColumnRefs()) return;
      below = below->children[0].get();
    }
    if (below->kind != LogicalKind::kGapFill) return;
    auto& spec = below->As<LogicalGapFill>().spec;
    std::vector<SortKey> keys;
    if (!KeysBelowProjection(sort, project, &keys) || !IsGroupsThenBucket(spec, keys)) return;
    keys.pop_back();
    spec.group_columns.clear();
    for (const SortKey& k : keys) spec.group_columns.push_back(k.column);
    spec.group_order = std::move(keys);
    LogicalPtr child = std::move((*slot)->children[0]);
    *slot = std::move(child);
    changed = true;
  });
  return changed;
}

}  // namespace gnomon::query::rules
