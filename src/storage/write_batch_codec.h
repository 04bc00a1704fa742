// Serialises a WriteBatch into one WAL record and back. Format: docs/format/wal-records.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/base/status.h"
#include "src/storage/write_batch.h"

namespace gnomon::storage {

// WAL record kinds; the first byte of every record.
enum class WalRecordType : uint8_t {
  kWriteBatch = 1,
  kDeleteRows = 2,
  kDropTable = 3,
  kDropDatabase = 4,
};

// A control record: a delete, or a drop of a table or database, replayed in log order.
struct ControlRecord {
  WalRecordType type;
  std::string database;
  std::string table;                 // kDeleteRows, kDropTable
  bool all_series = true;            // kDeleteRows
  std::vector<uint32_t> series;      // kDeleteRows when !all_series (series ids, ascending)
  int64_t min_time = 0;              // kDeleteRows
  int64_t max_time = 0;
};

void EncodeControlRecord(const ControlRecord& record, std::string* out);
Status DecodeControlRecord(std::string_view in, ControlRecord* record);

// Appends the record (type byte included) for `batch` to *out.
void EncodeWriteBatch(const WriteBatch& batch, std::string* out);
// REQUIRES: record starts with WalRecordType::kWriteBatch. Corruption on malformed bytes.
Status DecodeWriteBatch(std::string_view record, WriteBatch* batch);

}  // namespace gnomon::storage
