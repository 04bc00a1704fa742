#include "src/query/logical/column_refs.h"

#include "src/base/check.h"

namespace gnomon::query {

void MarkColumnRefs(const BoundExpr& e, std::vector<bool>* used) {
  if (e.kind == BoundKind::kColumn) {
    if (used->size() <= static_cast<size_t>(e.column)) used->resize(e.column + 1, false);
    (*used)[e.column] = true;
  }
  for (const BoundExprPtr& c : e.children) MarkColumnRefs(*c, used);
}

void MarkColumnRefs(const AggregateSpec& spec, std::vector<bool>* used) {
  if (spec.arg) MarkColumnRefs(*spec.arg, used);
  if (spec.key) MarkColumnRefs(*spec.key, used);
}

void MarkColumnRefs(const WindowCall& call, std::vector<bool>* used) {
  for (const auto* list : {&call.args, &call.partition, &call.order}) {
    for (const BoundExprPtr& e : *list) MarkColumnRefs(*e, used);
  }
}

void RemapColumnRefs(BoundExpr* e, const std::vector<int>& mapping) {
  if (e->kind == BoundKind::kColumn) {
    GNOMON_CHECK(static_cast<size_t>(e->column) < mapping.size() && mapping[e->column] >= 0);
    e->column = mapping[e->column];
  }
  for (BoundExprPtr& c : e->children) RemapColumnRefs(c.get(), mapping);
}

void RemapColumnRefs(AggregateSpec* spec, const std::vector<int>& mapping) {
  if (spec->arg) RemapColumnRefs(spec->arg.get(), mapping);
  if (spec->key) RemapColumnRefs(spec->key.get(), mapping);
}

void RemapColumnRefs(WindowCall* call, const std::vector<int>& mapping) {
  for (auto* list : {&call->args, &call->partition, &call->order}) {
    for (BoundExprPtr& e : *list) RemapColumnRefs(e.get(), mapping);
  }
}

bool ReadsNoColumn(const BoundExpr& e) {
  if (e.kind == BoundKind::kColumn) return false;
  // A volatile call is never one value for all rows, so it counts as reading one.
  if (e.kind == BoundKind::kCall && e.name == "random") return false;
  for (const BoundExprPtr& c : e.children) {
    if (!ReadsNoColumn(*c)) return false;
  }
  return true;
}

std::vector<int> KeptColumnMapping(const std::vector<bool>& keep) {
  std::vector<int> mapping(keep.size(), -1);
  int next = 0;
  for (size_t i = 0; i < keep.size(); ++i) {
    if (keep[i]) mapping[i] = next++;
  }
  return mapping;
}

JoinSide SideOf(const BoundExpr& e, size_t left_width) {
  std::vector<bool> used;
  MarkColumnRefs(e, &used);
  bool left = false, right = false;
  for (size_t i = 0; i < used.size(); ++i) {
    if (used[i]) (i < left_width ? left : right) = true;
  }
  if (left && right) return JoinSide::kBoth;
  return left ? JoinSide::kLeft : (right ? JoinSide::kRight : JoinSide::kNone);
}

}  // namespace gnomon::query
