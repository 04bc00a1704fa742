// GapFillOperator: the rows of a time-bucketed aggregate with every missing bucket of [start,
// end) added per group (its group columns copied, everything else NULL), then the filled copies
// of some columns: locf (the group's last non-NULL value so far) or interpolate (linear in time
// between the group's neighbouring non-NULL values; NULL before the first and after the last).
// InfluxDB 3's date_bin_gapfill and TimescaleDB's time_bucket_gapfill. Reads its input whole.
#pragma once

#include <string>
#include <vector>

#include "src/query/execution/basic_operators.h"
#include "src/query/execution/operator.h"
#include "src/query/function/scalar_functions.h"

namespace gnomon::query {

struct GapFillSpec {
  int bucket_column = 0;
  std::vector<int> group_columns;
  // How the output orders the groups, one key per group column (the groups, then the buckets
  // within each, ascending): by default ascending with NULLs last; the gap_fill_order rule sets
  // the order a sort above asked for, and drops that sort.
  std::vector<SortKey> group_order;
  TimeBucketFn bucket;
  int64_t start = 0, end = 0;  // buckets starting in [start, end)
  struct Fill {
    int column = 0;  // the input column filled
    bool interpolate = false;
    std::string name;
  };
  std::vector<Fill> fills;  // output column input width + i
  std::string text;         // for EXPLAIN
};

// The type of a filled copy of a `source` column: locf keeps it; interpolate makes a float of
// anything but an int64 (which it rounds).
ValueType FilledType(ValueType source, bool interpolate);

class GapFillOperator final : public Operator {
 public:
  // One output row: an input row, or a gap (a missing bucket of the group whose row is `row`).
  struct OutputRow {
    uint32_t row;
    bool gap;
    int64_t bucket;
    static OutputRow Input(uint32_t r) { return {r, false, 0}; }
    static OutputRow Gap(uint32_t group_row, int64_t b) { return {group_row, true, b}; }
  };

  GapFillOperator(OperatorPtr child, GapFillSpec spec, ExecutionContext* ctx);
  std::string Describe() const override { return "GapFill: " + spec_.text; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  Status Fill();
  void Materialize(const Chunk& in, const std::vector<OutputRow>& rows);
  void FillColumn(const GapFillSpec::Fill& fill, size_t begin, size_t end, Vector* out) const;

  OperatorPtr child_;
  GapFillSpec spec_;
  ExecutionContext* ctx_;
  bool filled_ = false;
  Chunk out_;
  std::vector<size_t> group_begin_;  // output row where each group starts, then out_.rows
  std::vector<bool> is_group_;       // per input column: a group key
  size_t emitted_ = 0;
};

}  // namespace gnomon::query
