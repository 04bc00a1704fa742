// Column references inside bound expressions: which input columns an expression reads, and
// renumbering them when the input's columns change (pruning, removing a projection).
#pragma once

#include <vector>

#include "src/query/binder/bound_expression.h"
#include "src/query/execution/aggregate_function.h"
#include "src/query/execution/window_function.h"

namespace gnomon::query {

// Marks (*used)[i] for every input column i that `e` reads; grows *used as needed.
void MarkColumnRefs(const BoundExpr& e, std::vector<bool>* used);
void MarkColumnRefs(const AggregateSpec& spec, std::vector<bool>* used);
void MarkColumnRefs(const WindowCall& call, std::vector<bool>* used);

// Replaces every column reference i with mapping[i] (which must be >= 0).
void RemapColumnRefs(BoundExpr* e, const std::vector<int>& mapping);
void RemapColumnRefs(AggregateSpec* spec, const std::vector<int>& mapping);
void RemapColumnRefs(WindowCall* call, const std::vector<int>& mapping);

// Which inputs of a join an expression over its left columns then right columns reads.
enum class JoinSide { kNone, kLeft, kRight, kBoth };
JoinSide SideOf(const BoundExpr& e, size_t left_width);

// True if `e` reads no input column and calls nothing volatile (a constant once folded).
bool ReadsNoColumn(const BoundExpr& e);

// For keeping the columns marked in `keep`: old index -> new index, -1 for a dropped column.
std::vector<int> KeptColumnMapping(const std::vector<bool>& keep);

}  // namespace gnomon::query
