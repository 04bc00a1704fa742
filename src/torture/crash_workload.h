// The crash torture's workload: what each writer sends. Two databases of two tables each; every
// writer owns `series_per_writer` series (host=w<writer>s<k>) in every table and writes rows in
// and out of time order, repeats times (rewriting a row field by field, sometimes without its
// string field), and now and then deletes a time range of one of its series. Values name the
// request and row that wrote them, so a misplaced or stale value is caught.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "src/torture/crash_model.h"

namespace gnomon::torture {

struct WorkloadShape {
  int writers = 3;
  // A writer starts with a few series and adds one every 100 requests up to this many, so that
  // new series (and the registry's syncs) keep coming in the early cycles.
  int series_per_writer = 16;
  // Row times are base_time + i * step for i < times: the key space is bounded, so a long run
  // rewrites rows instead of growing without end. 5,000 minutes span four daily partitions.
  int times = 5000;
  // Where each writer's cursor starts, in steps: past the first day (the retained database's
  // expiring partition), so that in-order rows land in live partitions and only late rows (those
  // before the cursor) reach the expiring one.
  int start_step = 2000;
  int64_t base_time_ns = 0;
  int64_t step_ns = 60'000'000'000;
  int min_rows = 10;
  int max_rows = 150;
  double delete_share = 0.05;  // of a writer's operations
};

inline constexpr int kDatabases = 2;
inline constexpr int kTablesPerDatabase = 2;
inline constexpr int kTables = kDatabases * kTablesPerDatabase;  // RowKey::table indexes these
std::string DatabaseName(uint32_t database);                     // "torture_a", "torture_b"
std::string TableName(uint32_t table);                           // "m1", "m2" (within its database)
inline uint32_t DatabaseOf(uint32_t table) { return table / kTablesPerDatabase; }
std::string SeriesHost(int writer, uint32_t series);             // "w0s3"

// The second database keeps two days: its tables' first partition (the day three days back, where
// the writers start) expires, and retention drops its segments while the writers go on writing
// there (the harness also calls /v1/admin/retention).
inline constexpr uint32_t kRetainedDatabase = 1;
inline constexpr int64_t kRetentionNs = 2 * 86400LL * 1000000000;
inline constexpr int64_t kPartitionNs = 86400LL * 1000000000;  // the server's default
// Whether retention, applied at or before `now_ns`, may have dropped the row at `key`.
bool MayBeDroppedByRetention(const RowKey& key, int64_t now_ns);

// The operations of one writer, deterministic from its seed. Lives across crash cycles.
class OperationSource {
 public:
  OperationSource(const WorkloadShape& shape, int writer, uint64_t seed);
  Operation Next();

 private:
  Operation NextWrite(uint64_t request);
  Operation NextDelete();

  WorkloadShape shape_;
  int writer_;
  std::mt19937_64 rng_;
  uint64_t requests_ = 0;
  uint32_t ActiveSeries() const;
  int64_t cursor_;  // the writer's "now", in steps; wraps at shape_.times
};

// The request bodies: line protocol for /write, a DELETE statement for /v1/sql.
std::string ToLineProtocol(const Operation& op, int writer);
std::string ToDeleteSql(const Operation& op, int writer);

}  // namespace gnomon::torture
