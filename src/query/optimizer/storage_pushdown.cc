// storage_pushdown: a Get's filters become a time range and a series set where they can.
#include "src/query/optimizer/storage_pushdown.h"

#include <algorithm>
#include <set>

#include "src/base/time_util.h"
#include "src/query/execution/expression_executor.h"
#include "src/query/logical/column_refs.h"
#include "src/query/optimizer/optimizer.h"
#include "src/query/optimizer/rules.h"

namespace gnomon::query {
namespace {

bool IsColumnOfKind(const BoundExpr& e, const std::vector<ScanColumn>& columns, ScanColumn::Kind kind) {
  return e.kind == BoundKind::kColumn && columns[e.column].kind == kind;
}

std::optional<int64_t> ConstantTime(const BoundExpr& e) {
  if (!ReadsNoColumn(e)) return std::nullopt;
  auto v = EvalConstant(e);
  if (!v.ok()) return std::nullopt;
  if (v->type == ValueType::kTimestamp || v->type == ValueType::kInt64) return v->i;
  return std::nullopt;
}

// time <op> constant (either side), or an AND of those (what BETWEEN binds to): narrows [lo, hi].
bool TimeBound(const BoundExpr& e, const std::vector<ScanColumn>& columns, int64_t* lo, int64_t* hi) {
  if (e.kind == BoundKind::kAnd) {
    int64_t l = *lo, h = *hi;
    for (const BoundExprPtr& c : e.children) {
      if (!TimeBound(*c, columns, &l, &h)) return false;
    }
    *lo = l;
    *hi = h;
    return true;
  }
  if (e.kind != BoundKind::kCompare || e.op == BinaryOp::kNotEqual) return false;
  const BoundExpr* col = e.children[0].get();
  const BoundExpr* val = e.children[1].get();
  BinaryOp op = e.op;
  if (!IsColumnOfKind(*col, columns, ScanColumn::Kind::kTime)) {
    std::swap(col, val);
    op = MirrorComparison(op);
  }
  if (!IsColumnOfKind(*col, columns, ScanColumn::Kind::kTime)) return false;
  auto t = ConstantTime(*val);
  if (!t) return false;
  int64_t l = INT64_MIN, h = INT64_MAX;
  switch (op) {
    case BinaryOp::kEqual: l = h = *t; break;
    case BinaryOp::kLess:
      if (*t == INT64_MIN) { l = INT64_MAX; h = INT64_MIN; } else { h = *t - 1; }
      break;
    case BinaryOp::kLessEqual: h = *t; break;
    case BinaryOp::kGreater:
      if (*t == INT64_MAX) { l = INT64_MAX; h = INT64_MIN; } else { l = *t + 1; }
      break;
    case BinaryOp::kGreaterEqual: l = *t; break;
    default: return false;
  }
  *lo = std::max(*lo, l);
  *hi = std::min(*hi, h);
  return true;
}

std::optional<std::string> ConstantString(const BoundExpr& e) {
  if (e.kind != BoundKind::kConstant || e.constant.type != ValueType::kString) return std::nullopt;
  return e.constant.s;
}

// tag = 'v', 'v' = tag, tag IN ('a', 'b'), or an OR of those over one tag: the (tag, values).
bool TagPredicate(const BoundExpr& e, const std::vector<ScanColumn>& columns, int* tag,
                  std::vector<std::string>* values) {
  auto same_tag = [&](const BoundExpr& c) {
    if (!IsColumnOfKind(c, columns, ScanColumn::Kind::kTag) || (*tag >= 0 && *tag != c.column)) return false;
    *tag = c.column;
    return true;
  };
  switch (e.kind) {
    case BoundKind::kCompare: {
      if (e.op != BinaryOp::kEqual) return false;
      const BoundExpr* col = e.children[0].get();
      const BoundExpr* val = e.children[1].get();
      if (col->kind != BoundKind::kColumn) std::swap(col, val);
      auto v = ConstantString(*val);
      if (!v || !same_tag(*col)) return false;
      values->push_back(*v);
      return true;
    }
    case BoundKind::kInList: {
      if (e.negated) return false;
      for (size_t i = 1; i < e.children.size(); ++i) {
        if (!ConstantString(*e.children[i])) return false;
      }
      if (!same_tag(*e.children[0])) return false;
      for (size_t i = 1; i < e.children.size(); ++i) values->push_back(*ConstantString(*e.children[i]));
      return true;
    }
    case BoundKind::kOr: {
      for (const BoundExprPtr& c : e.children) {
        if (!TagPredicate(*c, columns, tag, values)) return false;
      }
      return true;
    }
    default: return false;
  }
}

// tag IS [NOT] NULL: the tag, and whether the series must have it.
bool TagPresence(const BoundExpr& e, const std::vector<ScanColumn>& columns, int* tag, bool* present) {
  if (e.kind != BoundKind::kIsNull || !IsColumnOfKind(*e.children[0], columns, ScanColumn::Kind::kTag)) return false;
  *tag = e.children[0]->column;
  *present = e.negated;
  return true;
}

// The series that have (or lack) tag `key`: the union of its values' postings, or its complement.
std::vector<storage::SeriesId> SeriesByPresence(const storage::TableReader& reader, const std::string& key,
                                                bool present) {
  std::vector<storage::SeriesId> with;
  for (const std::string& v : reader.TagValues(key)) {
    std::vector<storage::SeriesId> ids = reader.SeriesWithTag(key, v);
    with.insert(with.end(), ids.begin(), ids.end());
  }
  std::sort(with.begin(), with.end());
  with.erase(std::unique(with.begin(), with.end()), with.end());
  if (present) return with;
  std::vector<storage::SeriesId> without;
  size_t j = 0;
  for (storage::SeriesId id = 0; id < reader.SeriesCount(); ++id) {
    while (j < with.size() && with[j] < id) ++j;
    if (j == with.size() || with[j] != id) without.push_back(id);
  }
  return without;
}

void IntersectSeries(std::vector<storage::SeriesId> ids, StoragePushdown* out) {
  if (!out->series) {
    out->series = std::move(ids);
    return;
  }
  std::vector<storage::SeriesId> both;
  std::set_intersection(out->series->begin(), out->series->end(), ids.begin(), ids.end(), std::back_inserter(both));
  out->series = std::move(both);
}

std::string FormatBound(int64_t t) {
  if (t == INT64_MIN) return "-inf";
  if (t == INT64_MAX) return "+inf";
  return FormatRfc3339(t);
}

}  // namespace

StoragePushdown ExtractStoragePushdown(std::vector<Predicate>* conjuncts, const std::vector<ScanColumn>& columns,
                                       const storage::TableReader& reader) {
  StoragePushdown out;
  std::vector<std::string> notes;
  std::vector<Predicate> residual;
  for (Predicate& p : *conjuncts) {
    if (TimeBound(*p.expr, columns, &out.min_time, &out.max_time)) {
      out.has_time_bound = true;
      continue;
    }
    int tag = -1;
    std::vector<std::string> values;
    if (TagPredicate(*p.expr, columns, &tag, &values)) {
      std::set<storage::SeriesId> ids;
      for (const std::string& v : values) {
        for (storage::SeriesId id : reader.SeriesWithTag(columns[tag].name, v)) ids.insert(id);
      }
      IntersectSeries(std::vector<storage::SeriesId>(ids.begin(), ids.end()), &out);
      notes.push_back(columns[tag].name + " in " + std::to_string(values.size()) + " values");
      continue;
    }
    bool present = false;
    if (TagPresence(*p.expr, columns, &tag, &present)) {
      IntersectSeries(SeriesByPresence(reader, columns[tag].name, present), &out);
      notes.push_back(columns[tag].name + (present ? " IS NOT NULL" : " IS NULL"));
      continue;
    }
    residual.push_back(std::move(p));
  }
  *conjuncts = std::move(residual);
  if (out.has_time_bound) {
    notes.insert(notes.begin(), "time in [" + FormatBound(out.min_time) + ", " + FormatBound(out.max_time) + "]");
  }
  for (size_t i = 0; i < notes.size(); ++i) out.note += (i ? ", " : "pushed down: ") + notes[i];
  return out;
}

namespace rules {

bool StoragePushdown(LogicalPtr* root) {
  bool changed = false;
  ForEachSlotBottomUp(root, [&](LogicalPtr* slot) {
    if ((*slot)->kind != LogicalKind::kGet) return;
    auto& get = (*slot)->As<LogicalGet>();
    if (get.pushdown_done || get.filters.empty()) return;
    get.pushdown = ExtractStoragePushdown(&get.filters, get.columns, *get.reader);
    get.pushdown_done = true;
    changed = changed || !get.pushdown.note.empty();
  });
  return changed;
}

}  // namespace rules
}  // namespace gnomon::query
