// Serialises a WriteBatch into one WAL record and back. Format: docs/format/wal-records.md.
#pragma once

#include <span>
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
  // A write batch whose series are named by registry id, with the table instance they belong to.
  kWriteBatchById = 5,
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
  // The directory name of the table (kDeleteRows, kDropTable) or database (kDropDatabase) the
  // record meant: replay skips a record whose target was dropped and created again since. Empty
  // in records of servers that did not write it.
  std::string instance;
};

void EncodeControlRecord(const ControlRecord& record, std::string* out);
Status DecodeControlRecord(std::string_view in, ControlRecord* record);

// Appends the record (type byte included) for `batch` to *out, series as tag sets (kWriteBatch:
// what servers before WAL-by-id wrote; kept for tests of their replay).
void EncodeWriteBatch(const WriteBatch& batch, std::string* out);

// What the engine resolved for one table of a batch: the instance and registry id of each of the
// batch's series, and the rows it will not apply (empty: none).
struct ResolvedTable {
  std::string_view instance;
  std::span<const SeriesId> series_ids;
  std::span<const uint8_t> row_rejected;
};
// Appends a kWriteBatchById record for `batch` (tables[i] belongs to batch.tables()[i]) to *out:
// series by id, rejected rows left out. The ids must be durable before the record is written.
void EncodeWriteBatchById(const WriteBatch& batch, std::span<const ResolvedTable> tables,
                          std::string* out);

// REQUIRES: record starts with kWriteBatch or kWriteBatchById. The series of a kWriteBatchById
// record come back resolved (TableBatch::resolved_id, table_instance). Corruption on malformed
// bytes.
Status DecodeWriteBatch(std::string_view record, WriteBatch* batch);

}  // namespace gnomon::storage
