// The narrow interface the query layer reads storage through: series of one table (with an
// inverted tag index and a last-value cache), and scans that yield column batches or, where a
// stored block needs no merging, that block's statistics instead of its rows.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/status.h"
#include "src/base/value_type.h"
#include "src/storage/write_batch.h"

namespace gnomon::storage {

struct TableInfo;

// A typed column of a ColumnBatch; exactly one of the data pointers is set, per `type`.
struct ColumnVector {
  ValueType type = ValueType::kNull;
  const double* f64 = nullptr;
  const int64_t* i64 = nullptr;
  const uint64_t* u64 = nullptr;
  const uint8_t* b = nullptr;  // 0 or 1
  const std::string_view* str = nullptr;
  // One byte per row, 1 = has a value. nullptr: every row has a value.
  const uint8_t* validity = nullptr;

  bool IsValid(size_t row) const { return validity == nullptr || validity[row] != 0; }
};

// Consecutive rows of one series, in time order (descending for newest-first scans), each time
// unique. Pointers are valid only during the ScanConsumer callback.
struct ColumnBatch {
  SeriesId series = 0;
  size_t rows = 0;
  const int64_t* times = nullptr;
  std::vector<ColumnVector> columns;  // in ScanSpec::columns order
};

// Statistics of one column over a block of rows.
struct ColumnStats {
  uint32_t count = 0;  // rows with a value
  // For numeric and bool columns (bool as 0/1); sum of int columns is exact while it fits.
  double min = 0, max = 0, sum = 0;
  int64_t imin = 0, imax = 0;  // exact for int64 columns
  int64_t isum = 0;            // exact sum of an int64 column when isum_exact
  bool isum_exact = false;
  bool has_numeric = false;
  // Hour-slice statistics of a dense int64 column whose group has a seek point inside the slice
  // (ChunkLayoutForSlices: at its half): the exact sum of the slice's rows before that point.
  bool has_head = false;
  int64_t head_isum = 0;
};

// A block of rows of one series offered in place of its rows: rows_count rows whose times lie in
// [min_time, max_time], all inside the scan's time range, none duplicated by another source.
struct BlockStatsView {
  SeriesId series = 0;
  uint32_t rows = 0;
  int64_t min_time = 0;
  int64_t max_time = 0;
  int64_t first_time = 0;  // == min_time; kept for clarity at call sites
  int64_t last_time = 0;
  std::vector<ColumnStats> columns;  // in ScanSpec::columns order
};

// A comparison of one scanned numeric column with a constant that a scan may use to skip rows:
// rows for which it is certainly false may be left out of the batches (rows near passing ones may
// still be delivered). The consumer applies its own filter regardless.
struct ScanPredicate {
  enum class Op : uint8_t { kGt, kGe, kLt, kLe };
  int column = -1;  // index into ScanSpec::columns; -1: none
  Op op = Op::kGt;
  double value = 0;
};

struct ScanSpec {
  std::vector<SeriesId> series;  // ascending; the series to read
  int64_t min_time = std::numeric_limits<int64_t>::min();  // inclusive
  int64_t max_time = std::numeric_limits<int64_t>::max();  // inclusive
  std::vector<std::string> columns;  // field column names; unknown names read as all-NULL
  bool newest_first = false;  // per series, deliver rows newest first
  bool offer_stats = false;   // call OnBlockStats before decoding blocks that qualify
  // Stored blocks decode the predicate's column first and the other columns only around rows
  // that pass (a selective filter then decodes a fraction of the data).
  ScanPredicate predicate;
};

class ScanConsumer {
 public:
  virtual ~ScanConsumer() = default;
  // Returns false to stop the scan early (e.g. a LIMIT is satisfied).
  virtual bool OnBatch(const ColumnBatch& batch) = 0;
  // Returns true if the statistics were used; then the block's rows are not delivered.
  virtual bool OnBlockStats(const BlockStatsView& stats) { return false; }
  // Whether statistics over rows with times in [min_time, max_time] could be used at all (lets
  // the scan skip reading slice statistics a consumer would decline).
  virtual bool CanUseStats(int64_t min_time, int64_t max_time) { return false; }
  // Whether the consumer can take statistics less some of the rows they summarise (it keeps only
  // counts and sums). A range that starts inside an hour slice is then read as the slice's
  // statistics less the rows before the range, which decodes those rows instead of the others.
  virtual bool CanSubtractStats() { return false; }
  // The rows summarised by `stats` except those in `less` (rows of the same series inside the
  // statistics' time span, in time order). Called only where CanSubtractStats() and
  // CanUseStats(stats.min_time, stats.max_time) hold; the consumer must account for them.
  virtual void OnBlockStatsLess(const BlockStatsView& stats, const ColumnBatch& less) {}
};

struct ScanMetrics {
  uint64_t series_scanned = 0;
  uint64_t blocks_decoded = 0;
  uint64_t blocks_from_stats = 0;
  uint64_t blocks_pruned = 0;
  uint64_t rows_produced = 0;
  uint64_t segments_opened = 0;
};

// Per series: the latest row's time and the latest value of every field (NULL if never written).
struct LastRow {
  int64_t time = 0;
  std::vector<FieldValue> values;  // FieldValue::field indexes TableInfo field order (0-based
                                   // among fields); strings in `strings`
  std::string strings;
};

// The latest rows of several series, field by field (TableReader::LastValuesOf): slot
// i * fields + f holds series i's value of the f-th requested field.
struct LastValues {
  std::vector<uint8_t> present;      // per series: it has a row
  std::vector<int64_t> times;        // per series: the row's time
  std::vector<uint8_t> valid;        // per slot: the row has the field
  std::vector<uint64_t> bits;        // per slot: a numeric value (doubles bit-cast), bools 0/1
  std::vector<std::string> strings;  // per slot when a requested field is a string, else empty
};

// A consistent view of one table at the moment it was opened. Thread-safe for concurrent Scans.
class TableReader {
 public:
  virtual ~TableReader() = default;

  virtual const TableInfo& Info() const = 0;
  virtual size_t SeriesCount() const = 0;
  // REQUIRES: id < SeriesCount(). Tags sorted by key.
  virtual TagSet SeriesTags(SeriesId id) const = 0;
  // Value of tag `key` for series `id`, empty if the series lacks that tag.
  virtual std::string_view SeriesTag(SeriesId id, std::string_view key) const = 0;
  // Values of tags `keys` of each series of `ids`: out[i * keys.size() + k], empty where series
  // i lacks key k. The same as SeriesTag per series and key, in one call. With `value_ids`, also
  // an id per value at the same places: within one key, equal ids exactly when equal values
  // (grouping by ids needs no string hashing); kNoTagValue where the series lacks the key.
  static constexpr uint32_t kNoTagValue = UINT32_MAX;
  virtual void SeriesTagColumns(std::span<const SeriesId> ids, std::span<const std::string> keys,
                                std::string_view* out, uint32_t* value_ids = nullptr) const = 0;
  // Ascending ids of the series with tag key=value (inverted index).
  virtual std::vector<SeriesId> SeriesWithTag(std::string_view key,
                                              std::string_view value) const = 0;
  // Distinct values of a tag key, sorted.
  virtual std::vector<std::string> TagValues(std::string_view key) const = 0;
  // Bounds of all data in the table (min > max when empty).
  virtual void TimeRange(int64_t* min_time, int64_t* max_time) const = 0;

  // Whether LastRowOf can be trusted for this table: an error (naming the damaged file) when some
  // of its rows are unreadable. Callers check once before their LastRowOf calls.
  virtual Status CheckLastValues() const { return Status::OK(); }
  // The last-value cache. Returns false if the series has no rows.
  virtual bool LastRowOf(SeriesId id, LastRow* out) const = 0;
  // The same for each series of `ids`, only fields `fields` (indexes among the table's fields;
  // -1: none, never valid), in one visit of the cache.
  virtual void LastValuesOf(std::span<const SeriesId> ids, std::span<const int> fields,
                            LastValues* out) const = 0;

  virtual Status Scan(const ScanSpec& spec, ScanConsumer* consumer,
                      ScanMetrics* metrics) const = 0;
};

}  // namespace gnomon::storage
