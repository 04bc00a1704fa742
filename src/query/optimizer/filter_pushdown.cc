// filter_pushdown: a Filter moves below what does not change which rows it keeps — a Sort, a
// projection of plain columns (its predicates renumbered onto the projection's input), another
// Filter (merged) — and into a Get, whose filters the storage pushdown then reads. Over a join, a
// predicate on one side's columns goes to that side where the join kind allows (never to the side
// whose rows an outer join keeps unmatched), and one over both sides of an inner join becomes a
// join condition; a join's own conditions on one side go down the same way.
#include "src/query/logical/column_refs.h"
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query::rules {
namespace {

// One step for the Filter at *slot; true if it moved.
bool PushOnce(LogicalPtr* slot) {
  auto& filter = (*slot)->As<LogicalFilter>();
  LogicalPtr& child = filter.children[0];
  switch (child->kind) {
    case LogicalKind::kGet: {
      auto& get = child->As<LogicalGet>();
      for (Predicate& p : filter.predicates) get.filters.push_back(std::move(p));
      *slot = std::move(child);
      return true;
    }
    case LogicalKind::kFilter: {
      auto& below = child->As<LogicalFilter>();
      for (Predicate& p : filter.predicates) below.predicates.push_back(std::move(p));
      *slot = std::move(child);
      return true;
    }
    case LogicalKind::kProject: {
      auto& project = child->As<LogicalProject>();
      if (!project.OnlyColumnRefs()) return false;
      std::vector<int> mapping;
      for (const BoundExprPtr& e : project.exprs) mapping.push_back(e->column);
      for (Predicate& p : filter.predicates) RemapColumnRefs(p.expr.get(), mapping);
      filter.schema = project.children[0]->schema;
      break;
    }
    case LogicalKind::kSort: break;
    default: return false;
  }
  // Swap: the filter goes between `child` and its input.
  LogicalPtr filter_node = std::move(*slot);
  LogicalPtr below = std::move(filter_node->children[0]);
  filter_node->children[0] = std::move(below->children[0]);
  below->children[0] = std::move(filter_node);
  *slot = std::move(below);
  return true;
}

// Adds `p` as a filter over *input (merging into a Filter already there).
void AddFilter(LogicalPtr* input, Predicate p) {
  if ((*input)->kind != LogicalKind::kFilter) {
    auto filter = std::make_unique<LogicalFilter>();
    filter->schema = (*input)->schema;
    filter->children.push_back(std::move(*input));
    *input = std::move(filter);
  }
  (*input)->As<LogicalFilter>().predicates.push_back(std::move(p));
}

// Sends `p`, over the join's left columns then right ones, into the side it reads.
void SendToSide(LogicalJoin& join, JoinSide side, Predicate p) {
  const size_t left_width = join.children[0]->schema.size();
  if (side == JoinSide::kRight) {
    std::vector<int> mapping(left_width + join.children[1]->schema.size(), 0);
    for (size_t i = left_width; i < mapping.size(); ++i) mapping[i] = static_cast<int>(i - left_width);
    RemapColumnRefs(p.expr.get(), mapping);
  }
  AddFilter(&join.children[side == JoinSide::kLeft ? 0 : 1], std::move(p));
}

// Which sides' rows a predicate may filter before the join without changing its answer: a
// WHERE above the join (`above`) or the join's own ON.
bool MayFilterSide(JoinKind kind, JoinSide side, bool above) {
  const bool left = side == JoinSide::kLeft;
  switch (kind) {
    case JoinKind::kInner: return true;
    case JoinKind::kLeft: return above ? left : !left;   // ON filters the right's matches only
    case JoinKind::kRight: return above ? !left : left;
    case JoinKind::kFull: return false;
    case JoinKind::kSemi: return true;
    case JoinKind::kAnti: return above ? left : !left;
  }
  return false;
}

// The join's ON conditions that read one side only go into that side.
bool PushJoinConditions(LogicalJoin& join) {
  if (join.asof) return false;  // the ASOF pairing needs every candidate row
  const size_t left_width = join.children[0]->schema.size();
  bool changed = false;
  std::vector<Predicate> keep;
  for (Predicate& p : join.conditions) {
    const JoinSide side = SideOf(*p.expr, left_width);
    if ((side == JoinSide::kLeft || side == JoinSide::kRight) && MayFilterSide(join.join_kind, side, false)) {
      SendToSide(join, side, std::move(p));
      changed = true;
    } else {
      keep.push_back(std::move(p));
    }
  }
  join.conditions = std::move(keep);
  return changed;
}

// A Filter over a join: its predicates go to a side, into the join (inner), or stay above.
bool PushFilterIntoJoin(LogicalPtr* slot) {
  auto& filter = (*slot)->As<LogicalFilter>();
  auto& join = filter.children[0]->As<LogicalJoin>();
  const size_t left_width = join.children[0]->schema.size();
  bool changed = false;
  std::vector<Predicate> keep;
  for (Predicate& p : filter.predicates) {
    const JoinSide side = SideOf(*p.expr, left_width);
    // ASOF: a left row's nearest match does not depend on the other left rows, but does on every
    // right row, so only left predicates may go down.
    const bool allowed = join.asof ? side == JoinSide::kLeft : MayFilterSide(join.join_kind, side, true);
    if ((side == JoinSide::kLeft || side == JoinSide::kRight) && allowed) {
      SendToSide(join, side, std::move(p));
      changed = true;
    } else if (side == JoinSide::kBoth && join.join_kind == JoinKind::kInner && !join.asof) {
      join.conditions.push_back(std::move(p));
      changed = true;
    } else {
      keep.push_back(std::move(p));
    }
  }
  filter.predicates = std::move(keep);
  if (filter.predicates.empty()) *slot = std::move(filter.children[0]);
  return changed;
}

// Pushes the filter at *slot as far as it goes; the filter ends in the subtree of *slot.
bool Push(LogicalPtr* slot) {
  bool changed = false;
  LogicalPtr* at = slot;
  while ((*at)->kind == LogicalKind::kFilter && PushOnce(at)) {
    changed = true;
    // After a swap the filter is the child of *at; after a merge *at is the merged node.
    if ((*at)->kind != LogicalKind::kFilter && (*at)->kind != LogicalKind::kGet) at = &(*at)->children[0];
  }
  return changed;
}

bool PushFiltersDownIn(LogicalPtr* slot) {
  bool changed = false;
  if ((*slot)->kind == LogicalKind::kFilter) changed = Push(slot);
  if ((*slot)->kind == LogicalKind::kFilter && (*slot)->children[0]->kind == LogicalKind::kJoin) {
    changed = PushFilterIntoJoin(slot) || changed;
  }
  if ((*slot)->kind == LogicalKind::kJoin) changed = PushJoinConditions((*slot)->As<LogicalJoin>()) || changed;
  for (LogicalPtr& c : (*slot)->children) changed = PushFiltersDownIn(&c) || changed;
  return changed;
}

}  // namespace

bool FilterPushdown(LogicalPtr* root) { return PushFiltersDownIn(root); }

}  // namespace gnomon::query::rules
