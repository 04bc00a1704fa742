#include "src/torture/crash_model.h"

#include <utility>

#include "src/base/check.h"

namespace gnomon::torture {
namespace {

std::string Describe(const RowKey& k) {
  return "table " + std::to_string(k.table) + " series " + std::to_string(k.series) + " time " +
         std::to_string(k.time);
}

std::string Describe(const RowValue& v) {
  std::string out = "{";
  out += "v=" + (v.v ? std::to_string(*v.v) : std::string("null"));
  out += " n=" + (v.n ? std::to_string(*v.n) : std::string("null"));
  out += " s=" + (v.s ? *v.s : std::string("null")) + "}";
  return out;
}

}  // namespace

void Apply(const Operation& op, Rows* rows) {
  if (op.kind == Operation::Kind::kDelete) {
    auto it = rows->lower_bound(op.delete_from);
    while (it != rows->end() && it->first.table == op.delete_from.table &&
           it->first.series == op.delete_from.series && it->first.time < op.delete_to) {
      it = rows->erase(it);
    }
    return;
  }
  for (const WrittenRow& w : op.rows) {
    RowValue& row = (*rows)[w.key];
    if (w.value.v) row.v = w.value.v;
    if (w.value.n) row.n = w.value.n;
    if (w.value.s) row.s = w.value.s;
  }
}

void WriterLedger::Begin(Operation op) {
  GNOMON_CHECK(!pending_.has_value());
  pending_ = std::move(op);
}

void WriterLedger::Acknowledge() {
  GNOMON_CHECK(pending_.has_value());
  Apply(*pending_, &acknowledged_);
  pending_.reset();
  ++acknowledged_ops_;
}

void WriterLedger::Unanswered() {
  GNOMON_CHECK(pending_.has_value() && !unresolved_.has_value());
  unresolved_ = std::move(pending_);
  pending_.reset();
}

std::string WriterLedger::Check(const Rows& observed, const MayBeDropped& may_be_dropped) {
  std::string against_acknowledged = DescribeDifferences(acknowledged_, observed, 5, may_be_dropped);
  if (against_acknowledged.empty()) {
    unresolved_.reset();  // it never took effect (or changed nothing): it stays absent
    return "";
  }
  if (unresolved_) {
    Rows with = acknowledged_;
    Apply(*unresolved_, &with);
    std::string against_with = DescribeDifferences(with, observed, 5, may_be_dropped);
    if (against_with.empty()) {
      acknowledged_ = std::move(with);
      unresolved_.reset();
      return "";
    }
    return "rows match neither the acknowledged state nor it plus the unanswered request; "
           "against the acknowledged state: " +
           against_acknowledged + "; against it plus the unanswered request: " + against_with;
  }
  return against_acknowledged;
}

namespace {

// A row of an expired partition, as found: each field it has must be the one last written (a
// field the model still has may be gone with the drop).
bool DroppedRowMatches(const RowValue& expected, const RowValue& found) {
  return (!found.v || found.v == expected.v) && (!found.n || found.n == expected.n) &&
         (!found.s || found.s == expected.s);
}

}  // namespace

std::string DescribeDifferences(const Rows& expected, const Rows& observed, size_t limit,
                                const WriterLedger::MayBeDropped& may_be_dropped) {
  std::string out;
  size_t found = 0;
  auto note = [&](const std::string& line) {
    if (found++ < limit) out += (out.empty() ? "" : "; ") + line;
  };
  auto e = expected.begin();
  auto o = observed.begin();
  while (e != expected.end() || o != observed.end()) {
    if (o == observed.end() || (e != expected.end() && e->first < o->first)) {
      if (!(may_be_dropped && may_be_dropped(e->first))) note("missing " + Describe(e->first) + " " + Describe(e->second));
      ++e;
    } else if (e == expected.end() || o->first < e->first) {
      note("unexpected " + Describe(o->first) + " " + Describe(o->second));
      ++o;
    } else {
      const bool dropped_zone = may_be_dropped && may_be_dropped(e->first);
      if (dropped_zone ? !DroppedRowMatches(e->second, o->second) : !(e->second == o->second)) {
        note("wrong " + Describe(e->first) + ": expected " + Describe(e->second) + ", found " +
             Describe(o->second));
      }
      ++e;
      ++o;
    }
  }
  if (found > limit) out += "; ... " + std::to_string(found - limit) + " more";
  return found == 0 ? "" : std::to_string(found) + " rows differ: " + out;
}

}  // namespace gnomon::torture
