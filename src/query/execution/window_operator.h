// Window functions over all input rows: the input's columns, then one column per call.
// Rows are materialised (counted against the query's memory limit), sorted once per distinct
// PARTITION BY + ORDER BY, and come out in the order of the last such sort.
#pragma once

#include <string>
#include <vector>

#include "src/query/execution/operator.h"
#include "src/query/execution/window_function.h"

namespace gnomon::query {

struct WindowPartition;

class WindowOperator final : public Operator {
 public:
  WindowOperator(OperatorPtr child, std::vector<WindowCall> calls, ExecutionContext* ctx);
  std::string Describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  Status Compute();
  // Sorts rows_ by call's ordering into order_, and evaluates its keys into *keys.
  Status SortFor(const WindowCall& call, Chunk* keys);
  // Every call with this ordering, partition by partition.
  Status ComputeGroup(const std::vector<size_t>& calls, const Chunk& keys);
  Status ComputeCall(const WindowCall& call, const Chunk& args, const WindowPartition& part, const Chunk& keys,
                     std::vector<Value>* out);

  OperatorPtr child_;
  std::vector<WindowCall> calls_;
  ExecutionContext* ctx_;
  bool computed_ = false;
  Chunk rows_;
  std::vector<uint32_t> order_;
  std::vector<std::vector<Value>> results_;  // by call, by input row
  size_t emitted_ = 0;
};

}  // namespace gnomon::query
