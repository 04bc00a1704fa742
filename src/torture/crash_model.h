// The crash torture's model of what the database must hold: every operation each writer sent,
// whether it was acknowledged, and the rows that follow from the acknowledged ones.
//
// Each writer owns its series (host=w<writer>s<k> in every table), sends one request at a time
// and so knows the order of its own operations: the expected rows of a writer are its
// acknowledged operations applied in order. Only its last operation can be unanswered when the
// server dies; after the restart the rows must equal the state without it or the state with it
// (a request is all or nothing), and that outcome is then fixed for every later restart.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace gnomon::torture {

// Where a row lives: table (an index into the workload's tables), the writer's series k, time.
struct RowKey {
  uint32_t table = 0;
  uint32_t series = 0;
  int64_t time = 0;
  auto operator<=>(const RowKey&) const = default;
};

// Fields: v (float), n (integer), s (string, not always written). Merged field by field: a write
// without s keeps the s an earlier write of the same time gave.
struct RowValue {
  std::optional<double> v;
  std::optional<int64_t> n;
  std::optional<std::string> s;
  bool operator==(const RowValue&) const = default;
};

using Rows = std::map<RowKey, RowValue>;

struct WrittenRow {
  RowKey key;
  RowValue value;
};

// One request: rows to write, or a deletion of [min_time, max_time) of one series.
struct Operation {
  enum class Kind { kWrite, kDelete } kind = Kind::kWrite;
  uint32_t database = 0;
  std::vector<WrittenRow> rows;  // kWrite
  RowKey delete_from;            // kDelete: table, series, min time
  int64_t delete_to = 0;         // kDelete: max time, exclusive
};

void Apply(const Operation& op, Rows* rows);

// The model of one writer's rows.
class WriterLedger {
 public:
  // The writer sends `op`; it stays pending until Acknowledge or Unanswered.
  void Begin(Operation op);
  void Acknowledge();
  // The server died before answering: the outcome is decided by the next Check.
  void Unanswered();

  // Rows retention may have dropped (their partition has expired): such a row may be missing,
  // and one written again after its drop may lack an older field value; but a row present must
  // hold the values last written to it, and a row never written (or deleted) must not be there.
  using MayBeDropped = std::function<bool(const RowKey&)>;

  // Compares what the database holds for this writer with the model. Returns "" when it matches
  // (deciding an unanswered operation's outcome), else a description of the first differences.
  std::string Check(const Rows& observed, const MayBeDropped& may_be_dropped = nullptr);

  const Rows& expected() const { return acknowledged_; }
  uint64_t acknowledged_ops() const { return acknowledged_ops_; }
  bool has_unresolved() const { return unresolved_.has_value(); }

 private:
  Rows acknowledged_;                 // every acknowledged (or resolved-as-applied) operation applied
  std::optional<Operation> pending_;  // sent, not yet answered
  std::optional<Operation> unresolved_;  // unanswered at a crash, outcome not yet seen
  uint64_t acknowledged_ops_ = 0;
};

// Up to `limit` lines naming rows that differ between `expected` and `observed`; rows for which
// `may_be_dropped` holds may be missing, and lack fields expected (see WriterLedger::MayBeDropped).
std::string DescribeDifferences(const Rows& expected, const Rows& observed, size_t limit = 5,
                                const WriterLedger::MayBeDropped& may_be_dropped = nullptr);

}  // namespace gnomon::torture
