// SegmentReader: an open, memory-mapped segment file with its decoded index. Immutable and
// thread-safe; shared by every reader that needs it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/encoding/chunked_delta.h"
#include "src/port/env.h"
#include "src/storage/column_data.h"
#include "src/storage/segment_format.h"
#include "src/storage/slice_stats_cache.h"

namespace gnomon::storage {

class SegmentReader {
 public:
  // Opens and verifies the footer and index checksums. Corruption names the file. With a
  // `stats_budget`, decoded slice statistics are cached within it (see SliceStatsCache).
  static Result<std::shared_ptr<SegmentReader>> Open(port::Env* env, const std::string& path,
                                                     std::shared_ptr<CacheBudget> stats_budget = nullptr);

  const std::string& path() const { return path_; }
  const SegmentIndex& index() const { return index_; }
  uint32_t version() const { return version_; }  // the file's format version
  uint64_t file_size() const { return file_->Size(); }

  // Metadata of series `id`, or nothing if the segment has no rows for it. With `hint`, searches
  // forward from *hint (SeriesTable::FindFrom): for scans of ascending ids.
  std::optional<SeriesMeta> FindSeries(SeriesId id, size_t* hint = nullptr) const;
  // Group `k` of series `meta` (SeriesGroup).
  RowGroupMeta group(const SeriesMeta& meta, uint32_t k) const { return SeriesGroup(index_, meta, k); }
  const ColumnChunkMeta& chunk(const RowGroupMeta& group, size_t column) const {
    return index_.chunks[group.first_column + column];
  }
  // Segment column index of field `name` with `type`, or -1 (absent or another type).
  int FindColumn(const std::string& name, ValueType type) const;

  Status ReadTimes(const RowGroupMeta& group, std::vector<int64_t>* out) const;
  // True when the group's times are evenly spaced (the usual case for regular samples): time of
  // row i = *first + i * *step, *step > 0. Lets a scan find its rows without decoding the times.
  bool EvenTimes(const RowGroupMeta& group, int64_t* first, int64_t* step) const;
  // For a group with EvenTimes(first, step): its rows [*begin, *end) with times in
  // [min_time, max_time], found arithmetically.
  static void EvenRowRange(const RowGroupMeta& group, int64_t first, int64_t step, int64_t min_time,
                           int64_t max_time, uint32_t* begin, uint32_t* end);
  // The group's hour slices; a single slice covering the group when none were stored.
  Status ReadSlices(const RowGroupMeta& group, std::vector<SliceInfo>* out) const;
  // Statistics of `column` per slice (out->size() == number of slices); all-zero counts when
  // the column has no value in the group. Only slices [first, needed) are guaranteed: the others
  // hold whatever *out held, or empty or decoded statistics (a range that starts late or ends
  // early in the group need not read the rest). A cached group's statistics come from the cache;
  // an uncached one is decoded whole and cached when the budget allows.
  Status ReadSliceStats(const RowGroupMeta& group, size_t column, size_t num_slices,
                        std::vector<ColumnStats>* out, size_t needed = SIZE_MAX, size_t first = 0) const;
  // Asks the CPU to fetch the first bytes (header, code table, chunk directory) of the group's
  // time block and of the blocks of `columns` (segment column indexes; others ignored), and
  // their cached statistics of the slices in [min_time, max_time]. A scan over many series calls
  // it a series ahead: its ~10 block opens and statistics reads per series otherwise each wait
  // on memory. Blocks are fetched only from a memory-mapped file.
  void PrefetchGroup(const RowGroupMeta& group, const std::vector<int>& columns, int64_t min_time,
                     int64_t max_time) const;
  // The seek points of the column's values block (disabled when it has none: a read decodes it
  // from its start).
  encoding::ChunkLayout ChunkLayoutOf(const RowGroupMeta& group, size_t column) const;
  // Decodes column `column` of a row group into out (group.rows rows; nulls expanded).
  Status ReadColumn(const RowGroupMeta& group, size_t column, DecodedColumn* out) const;
  // Decodes only the rows in `ranges` (ascending, disjoint [begin, end) row offsets within the
  // group), concatenated into out. Chunked integer blocks decode just the chunks holding them;
  // other columns are decoded whole and cut.
  Status ReadColumnRows(const RowGroupMeta& group, size_t column,
                        const std::vector<std::pair<uint32_t, uint32_t>>& ranges, DecodedColumn* out) const;
  // ReadColumnRows for several columns (columns[i] into *outs[i]); chunked integer columns are
  // decoded side by side, which overlaps their decode chains.
  Status ReadColumnsRows(const RowGroupMeta& group, const std::vector<size_t>& columns,
                         const std::vector<std::pair<uint32_t, uint32_t>>& ranges,
                         const std::vector<DecodedColumn*>& outs) const;

 private:
  SegmentReader(std::string path, std::unique_ptr<port::RandomAccessFile> file)
      : path_(std::move(path)), file_(std::move(file)) {}
  Status Block(uint64_t offset, uint32_t length, uint32_t crc, std::string_view* out) const;
  // InvalidArgument unless each range lies inside the group; *total: rows they cover.
  Status CheckRowRanges(const RowGroupMeta& group, const std::vector<std::pair<uint32_t, uint32_t>>& ranges,
                        size_t* total) const;
  // Column `column` (-1: the times) of a packed group's whole pack, decoded, from this thread's
  // cache of decoded packs. *out is valid until this thread's next PackColumn call.
  Status PackColumn(const RowGroupMeta& group, int column, const DecodedColumn** out) const;

  std::string path_;
  std::unique_ptr<port::RandomAccessFile> file_;
  SegmentIndex index_;
  uint32_t version_ = 0;  // the file's format version
  std::unique_ptr<SliceStatsCache> slice_stats_cache_;  // nullptr: no budget, or no slice statistics
  uint64_t uid_ = 0;  // this reader in the per-thread pack cache
};

}  // namespace gnomon::storage
