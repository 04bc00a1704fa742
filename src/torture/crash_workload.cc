#include "src/torture/crash_workload.h"

#include <algorithm>
#include <cstdio>

#include "src/base/time_util.h"

namespace gnomon::torture {

std::string DatabaseName(uint32_t database) { return std::string("torture_") + char('a' + database); }

std::string TableName(uint32_t table) { return "m" + std::to_string(table % kTablesPerDatabase + 1); }

std::string SeriesHost(int writer, uint32_t series) {
  return "w" + std::to_string(writer) + "s" + std::to_string(series);
}

bool MayBeDroppedByRetention(const RowKey& key, int64_t now_ns) {
  if (DatabaseOf(key.table) != kRetainedDatabase) return false;
  const int64_t partition_start = FloorDiv(key.time, kPartitionNs) * kPartitionNs;
  return partition_start + kPartitionNs <= now_ns - kRetentionNs;  // EngineImpl::ApplyRetention's rule
}

OperationSource::OperationSource(const WorkloadShape& shape, int writer, uint64_t seed)
    : shape_(shape), writer_(writer), rng_(seed ^ (0x9e3779b97f4a7c15ULL * (writer + 1))),
      cursor_(shape.start_step % shape.times) {}

uint32_t OperationSource::ActiveSeries() const {
  return static_cast<uint32_t>(std::min<uint64_t>(shape_.series_per_writer, 4 + requests_ / 100));
}

Operation OperationSource::Next() {
  const uint64_t request = requests_++;
  if (std::uniform_real_distribution<double>(0, 1)(rng_) < shape_.delete_share) return NextDelete();
  return NextWrite(request);
}

Operation OperationSource::NextWrite(uint64_t request) {
  Operation op;
  op.kind = Operation::Kind::kWrite;
  op.database = static_cast<uint32_t>(rng_() % kDatabases);
  const int rows = shape_.min_rows + static_cast<int>(rng_() % (shape_.max_rows - shape_.min_rows + 1));
  // Unique per writer and request, and small enough that v = n + 0.5 is exact in a double.
  const int64_t request_id = static_cast<int64_t>(writer_) * 10'000'000 + static_cast<int64_t>(request % 10'000'000);
  auto time_of = [&](int64_t step) { return shape_.base_time_ns + (step % shape_.times) * shape_.step_ns; };
  for (int r = 0; r < rows; ++r) {
    WrittenRow w;
    const uint64_t pick = rng_() % 10;
    if (pick < 9 || op.rows.empty()) {
      w.key.table = op.database * kTablesPerDatabase + static_cast<uint32_t>(rng_() % kTablesPerDatabase);
      w.key.series = static_cast<uint32_t>(rng_() % ActiveSeries());
      if (pick < 7) {  // in order: around the writer's cursor, which moves on
        w.key.time = time_of(cursor_ + static_cast<int64_t>(rng_() % 3));
        if (rng_() % 4 == 0) ++cursor_;
      } else {  // late: anywhere before the cursor
        w.key.time = time_of(static_cast<int64_t>(rng_() % static_cast<uint64_t>(cursor_ + 1)));
      }
    } else {  // a row of this request written again, with other values
      w.key = op.rows[rng_() % op.rows.size()].key;
    }
    const int64_t n = request_id * 1000 + r;
    w.value.n = n;
    w.value.v = static_cast<double>(n) + 0.5;
    if (r % 5 != 4) w.value.s = "q" + std::to_string(n);
    op.rows.push_back(std::move(w));
  }
  if (cursor_ >= shape_.times) cursor_ = 0;
  return op;
}

Operation OperationSource::NextDelete() {
  Operation op;
  op.kind = Operation::Kind::kDelete;
  op.delete_from.table = static_cast<uint32_t>(rng_() % kTables);
  op.database = DatabaseOf(op.delete_from.table);
  op.delete_from.series = static_cast<uint32_t>(rng_() % ActiveSeries());
  const int64_t first = static_cast<int64_t>(rng_() % static_cast<uint64_t>(std::min<int64_t>(cursor_, shape_.times - 1) + 1));
  const int64_t length = 1 + static_cast<int64_t>(rng_() % 50);
  op.delete_from.time = shape_.base_time_ns + first * shape_.step_ns;
  op.delete_to = op.delete_from.time + length * shape_.step_ns;
  return op;
}

std::string ToLineProtocol(const Operation& op, int writer) {
  std::string out;
  char number[64];
  for (const WrittenRow& w : op.rows) {
    out += TableName(w.key.table);
    out += ",host=";
    out += SeriesHost(writer, w.key.series);
    std::snprintf(number, sizeof(number), " v=%.1f,n=%lldi", *w.value.v, static_cast<long long>(*w.value.n));
    out += number;
    if (w.value.s) out += ",s=\"" + *w.value.s + "\"";
    out += ' ';
    out += std::to_string(w.key.time);
    out += '\n';
  }
  return out;
}

std::string ToDeleteSql(const Operation& op, int writer) {
  return "DELETE FROM " + TableName(op.delete_from.table) + " WHERE host = '" +
         SeriesHost(writer, op.delete_from.series) + "' AND time >= '" + FormatRfc3339(op.delete_from.time) +
         "' AND time < '" + FormatRfc3339(op.delete_to) + "'";
}

}  // namespace gnomon::torture
