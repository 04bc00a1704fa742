// Memtable: the in-memory part of one table. Per series, append-only column buffers (time plus one
// buffer per field column). Rows may arrive out of order and may repeat a time; readers get them
// sorted with duplicates resolved to the last write (SortedRows()).
// Not thread-safe: the owning Table serialises writers and readers of the active memtable;
// a frozen memtable is immutable and may be read concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "src/base/value_type.h"
#include "src/storage/scan.h"
#include "src/storage/table_schema.h"

namespace gnomon::storage {

// Values of one field column for one series; numeric values stored as their 8-byte patterns.
struct ColumnBuffer {
  ValueType type = ValueType::kNull;
  std::vector<uint64_t> bits;          // numeric/bool values, one per row (0 where null)
  std::vector<std::string> strings;    // string values, one per row ("" where null)
  std::vector<uint8_t> validity;       // one per row; empty while every row has a value
  size_t null_count = 0;
};

// A series' rows in time order (positions in its buffer), computed by a read of an unsorted
// buffer and kept for later reads while the buffer stays as it was (same rows, no edits).
struct TimeOrder {
  size_t rows = 0;          // buffer rows it covers
  uint64_t edits = 0;       // Memtable::edits() when computed
  bool repeats = false;     // some time occurs twice (reads then merge rows field by field)
  std::vector<uint32_t> order;
};

struct SeriesBuffer {
  std::vector<int64_t> times;
  std::vector<ColumnBuffer> columns;  // indexed by ColumnId; may be shorter than the schema
  uint32_t typed_columns = 0;         // columns whose type is set (not kNull)
  bool sorted = true;                 // times strictly increasing so far
  int64_t min_time = INT64_MAX;
  int64_t max_time = INT64_MIN;
  // Set by reads (under Memtable::order_mu_): concurrent writers' batches leave a buffer in a few
  // runs, and after a load every query would otherwise order the same rows again.
  mutable std::shared_ptr<const TimeOrder> time_order;
};

// Rows of one series sorted by time with unique times (last write wins), materialised for a read
// or a flush. Columns indexed by ColumnId, each exactly `times.size()` long (or absent: type kNull).
struct SortedSeries {
  std::vector<int64_t> times;
  std::vector<ColumnBuffer> columns;
};

class Memtable {
 public:
  Memtable() = default;
  Memtable(const Memtable&) = delete;
  Memtable& operator=(const Memtable&) = delete;

  // Appends one row; `values` index the batch's fields through `field_ids` (batch field -> column).
  void Append(SeriesId series, int64_t time, const TableBatch& batch, const Row& row,
              const std::vector<ColumnId>& field_ids, const TableSchema& schema);

  // Appends rows `rows` (indexes into batch.rows(), in write order) of one series: the same as
  // calling Append for each, but a run of rows naming the same numeric fields in the same order
  // (a series' usual shape) is appended column by column.
  void AppendRows(SeriesId series, const TableBatch& batch, std::span<const uint32_t> rows,
                  const std::vector<ColumnId>& field_ids, const TableSchema& schema);

  // Cache hint for a coming AppendRows of `series`, in three steps issued in turn a few series
  // ahead of it (step 0 farthest): 0 fetches the series' buffer, 1 its column headers, 2 the
  // ends of its columns, where the next values go. Each step reads only what the one before
  // fetched. No effect on contents.
  void Prefetch(SeriesId series, int step) const;

  bool empty() const { return rows_ == 0; }
  size_t rows() const { return rows_; }
  size_t ApproximateBytes() const { return bytes_; }
  int64_t min_time() const { return min_time_; }
  int64_t max_time() const { return max_time_; }

  // Series with rows, ascending.
  std::vector<SeriesId> SeriesIds() const;
  const SeriesBuffer* Find(SeriesId id) const {
    return id < series_.size() ? series_[id].get() : nullptr;
  }
  // The rows of `id` with time in [min_time, max_time], sorted and deduplicated.
  // `columns` selects ColumnIds to materialise (others are left kNull in the result).
  // Only the series' first `limit` rows in write order are considered (see RowCounts()).
  void ReadSorted(SeriesId id, int64_t min_time, int64_t max_time,
                  const std::vector<int>& columns, SortedSeries* out,
                  size_t limit = SIZE_MAX) const;

  // Rows written so far per series (indexed by SeriesId; 0 for none). A series' rows are only
  // ever appended, except by DeleteRows (which bumps edits()), so these counts taken together are
  // a point-in-time view of a memtable that keeps growing: reading each series up to its count
  // sees every write applied before the call and none after.
  std::vector<uint32_t> RowCounts() const;
  uint64_t edits() const { return edits_; }
  // Time range of the first `limit` rows of `id`; false when there are none.
  bool PrefixTimeRange(SeriesId id, size_t limit, int64_t* min_time, int64_t* max_time) const;

  // Removes rows of the given series (all when `series` is empty) in [min_time, max_time].
  void DeleteRows(const std::vector<SeriesId>* series, int64_t min_time, int64_t max_time);

 private:
  SeriesBuffer& Slot(SeriesId series, bool* created);
  // Heap bytes `buf` holds in its vectors (capacities), with its own allocation.
  static size_t Footprint(const SeriesBuffer& buf);
  // Append's work on the series' buffer, without the memory accounting.
  void AppendRow(SeriesBuffer& buf, int64_t time, const TableBatch& batch, const Row& row,
                 const std::vector<ColumnId>& field_ids, const TableSchema& schema);
  // The time order of the first `n` rows of `buf`, from its cache or computed (and cached).
  std::shared_ptr<const TimeOrder> OrderOf(const SeriesBuffer& buf, size_t n) const;
  // AppendRows' column-wise path; false (nothing changed) when the rows do not qualify.
  bool AppendUniformRows(SeriesBuffer& buf, const TableBatch& batch,
                         std::span<const uint32_t> rows, const std::vector<ColumnId>& field_ids);

  std::vector<std::unique_ptr<SeriesBuffer>> series_;  // indexed by SeriesId
  size_t rows_ = 0;
  size_t bytes_ = 0;
  uint64_t edits_ = 0;  // DeleteRows calls that removed rows
  mutable std::mutex order_mu_;  // guards SeriesBuffer::time_order
  int64_t min_time_ = INT64_MAX;
  int64_t max_time_ = INT64_MIN;
};

}  // namespace gnomon::storage
