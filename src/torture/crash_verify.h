// Reads back everything the crash torture's tables hold, sorted by writer, and notes what can
// never be right whatever the model says: a row present twice, a host no writer owns, a value
// that does not parse, the setup rows missing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/bench/url.h"
#include "src/torture/crash_model.h"
#include "src/torture/crash_workload.h"

namespace gnomon::torture {

// One row per table, written and acknowledged before the first crash, so that every table exists
// (a DELETE on a table never written would be refused) and must stay.
std::string SetupLines(const WorkloadShape& shape, uint32_t database);
inline constexpr char kSetupHost[] = "setup";

struct ObservedRows {
  std::vector<Rows> by_writer;  // index: writer
  uint64_t rows = 0;
  std::vector<std::string> violations;
};

// Error: a query failed (a violation too, but the harness cannot go on from it).
Result<ObservedRows> ReadAllRows(const bench::Url& url, const WorkloadShape& shape);

}  // namespace gnomon::torture
