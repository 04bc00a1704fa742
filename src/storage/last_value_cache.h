// LastValueCache: per series of one table, the latest row (time and every field's value in that
// row), kept on every write and rebuilt at start, so last-point queries touch no data files.
// Not thread-safe: the owning Table guards it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/storage/scan.h"
#include "src/storage/table_schema.h"

namespace gnomon::storage {

class LastValueCache {
 public:
  // Offers row `row` of `batch` for `series` (field_ids maps batch fields to column ids). Kept if
  // newer than the cached row; merged field by field if it has the same time.
  void Offer(SeriesId series, int64_t time, const TableBatch& batch, const Row& row,
             const std::vector<ColumnId>& field_ids);
  // Offers a row given column-wise: values[c] valid when valid[c] (bits as in ColumnBuffer).
  void OfferColumns(SeriesId series, int64_t time, const std::vector<uint64_t>& bits,
                    const std::vector<std::string>& strings, const std::vector<uint8_t>& valid,
                    const TableSchema& schema);
  bool Get(SeriesId series, const TableSchema& schema, LastRow* out) const;
  // Forgets rows of a series in [min_time, max_time] (after a delete the cache is rebuilt).
  void Invalidate(SeriesId series);
  bool Has(SeriesId series) const { return series < entries_.size() && entries_[series].present; }

 private:
  struct Entry {
    bool present = false;
    int64_t time = 0;
    std::vector<uint64_t> bits;        // by ColumnId
    std::vector<std::string> strings;  // by ColumnId (string columns)
    std::vector<uint8_t> valid;        // by ColumnId
  };
  Entry& Slot(SeriesId series);
  std::vector<Entry> entries_;
};

}  // namespace gnomon::storage
