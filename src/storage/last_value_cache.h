// LastValueCache: per series of one table, the latest row (time and every field's value in that
// row), kept on every write and rebuilt at start, so last-point queries touch no data files.
// Stored column by column, indexed by series.
// Not thread-safe: the owning Table guards it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "src/base/bit_array.h"
#include "src/base/chunked_array.h"
#include "src/base/narrow_array.h"
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
  // The rows of `ids`, fields `fields` only (field indexes; -1 is never valid): see LastValues.
  void GetColumns(std::span<const SeriesId> ids, std::span<const int> fields,
                  const TableSchema& schema, LastValues* out) const;
  // Forgets rows of a series in [min_time, max_time] (after a delete the cache is rebuilt).
  void Invalidate(SeriesId series);
  bool Has(SeriesId series) const { return present_.Test(series); }
  // Asks the CPU to fetch what offering a row of `series` touches (its time, and each column's
  // value and validity), so that a writer can issue it a few series ahead: with millions of
  // series every column of a row is a cache miss.
  void Prefetch(SeriesId series) const;
  // Whether Prefetch pays: below this many series the columns stay in the CPU's caches and the
  // prefetches cost more than they hide (build/bench/last_value_cache_bench: at a million series
  // an offer takes 126 ns with them, 235 without; at 100,000, 76 against 67).
  static constexpr size_t kPrefetchFromSeries = size_t{1} << 18;
  bool WorthPrefetching() const { return present_.size() >= kPrefetchFromSeries; }
  // Heap bytes held.
  size_t MemoryUsage() const;

 private:
  // Columnar, by series: a series costs its time, a presence bit, and per numeric column a
  // validity bit and its value at the narrowest width its chunk of series needs (NarrowArray: a
  // byte for small integers), ~20 bytes for ten columns of small integers (the per-series
  // entries this replaced held ~550; plain 8-byte columns 99).
  struct Column {
    NarrowArray bits;                   // by series
    BitArray valid;                     // by series; shorter: not valid
    ChunkedArray<std::string> strings;  // by series, string columns only
  };
  // Starts the row of `series` at `time` (newer than what it held, or its first).
  void Reset(SeriesId series, int64_t time);
  // Whether a row of `series` at `time` is kept: false when older than the cached one; a newer
  // one (or the first) starts the row afresh, one of the same time merges into it.
  bool Admit(SeriesId series, int64_t time);
  // Offer's fast path: a row newer than the cached one, of numeric fields only (and column ids
  // below 64). Returns false, doing nothing, for any other row.
  bool OfferNewer(SeriesId series, int64_t time, const TableBatch& batch, const Row& row,
                  const std::vector<ColumnId>& field_ids);
  // Column `c` with room for `series`.
  Column& ColumnFor(ColumnId c, SeriesId series, bool strings);

  BitArray present_;               // by series
  ChunkedArray<int64_t> times_;    // by series
  std::vector<Column> columns_;   // by ColumnId
};

}  // namespace gnomon::storage
