// Constants and metadata structures of segment files. The byte layout is in docs/format/segment.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/time_util.h"
#include "src/base/value_type.h"
#include "src/storage/scan.h"
#include "src/storage/series_table.h"

namespace gnomon::storage {

constexpr char kSegmentMagic[8] = {'G', 'N', 'O', 'M', 'S', 'E', 'G', '1'};
constexpr uint32_t kSegmentFooterMagic = 0x47534547;  // "GESG" little-endian
// Version 3: integer column blocks may be chunked_delta, cut at the group's hour slices (see
// ChunkLayoutForSlices). Version 4: slice statistics of int64 columns may carry the sum of the
// rows before the slice's inner seek point (ColumnStats::head_isum). Version 5: short series are
// packed, many to a row group ("packs"), so a series of a few rows costs about its rows.
// Version 6: slice statistics blocks start with a form byte and may store each statistic as a
// column (an integer or float block over the slices) instead of one record per slice. Version 7:
// a series' row groups hold up to kRowsPerGroup = 16,384 rows (8,192 before), so a day written
// every 10 s is one group. Versions 2 (no chunked blocks) to 6 still read.
constexpr uint32_t kSegmentVersion = 7;
constexpr uint32_t kOldestReadableSegmentVersion = 2;
// Row groups that span several hours also keep statistics per hour ("slices", aligned to the
// epoch): an aggregate over hourly (or coarser) buckets reads them instead of decoding a large
// group that crosses bucket boundaries.
constexpr int64_t kSliceWidthNs = 3600LL * 1000000000;
// The hour slice of `t`, as an index (a slice start would overflow for the earliest times).
inline int64_t SliceOf(int64_t t) { return FloorDiv(t, kSliceWidthNs); }
// Rows per row group of a series: every column of a series is cut at the same row boundaries, so
// one group's statistics describe the same rows for all columns. Integer columns have seek points
// at the group's hour slices, so a larger group costs partial reads little; each group costs a
// block, a code table and index entries per column (a day at 10 s in 8,192 + 448 rows took
// 0.009 bytes per metric more than in one group).
constexpr uint32_t kRowsPerGroup = 16384;
// Rows per pack (below): a reader decodes a pack's column whole to read one short series.
constexpr uint32_t kRowsPerPack = 8192;
// A series with fewer rows than this in a segment is packed with its neighbours (by id) into a
// shared row group of up to kRowsPerPack rows: alone it would cost a block per column, an index
// entry per column and statistics nobody reads (decoding a few dozen rows is cheaper).
constexpr uint32_t kPackedSeriesMaxRows = 64;
// Footer: index_offset u64 | index_length u64 | index_crc u32 | version u32 | magic u32 | crc u32.
constexpr size_t kSegmentFooterSize = 32;

// Where a column's data for one row group lives, with its statistics.
struct ColumnChunkMeta {
  enum Presence : uint8_t { kAbsent = 0, kDense = 1, kWithValidity = 2 };
  Presence presence = kAbsent;
  uint64_t offset = 0;  // values block (only the non-null values)
  uint32_t length = 0;
  uint32_t crc = 0;     // masked CRC32C of the block bytes
  uint64_t validity_offset = 0;  // bools block, one per row (kWithValidity only)
  uint32_t validity_length = 0;
  uint32_t validity_crc = 0;
  ColumnStats stats;
  // Statistics per slice of the group (only when the group spans more than one slice).
  uint64_t slice_stats_offset = 0;
  uint32_t slice_stats_length = 0;
  uint32_t slice_stats_crc = 0;
};

// A pack: the rows of several short series, concatenated in id order, each series' rows sorted
// by time. Its blocks hold all of them; its chunks' statistics cover all of them.
struct PackMeta {
  uint32_t rows = 0;
  uint64_t time_offset = 0;
  uint32_t time_length = 0;
  uint32_t time_crc = 0;
  uint32_t first_column = 0;  // index into SegmentIndex::chunks; num_columns consecutive entries
};

// A series' row group. A packed series has exactly one, a view of its rows inside a pack: the
// time block and chunks are the pack's (so the chunks' statistics and presence describe the
// whole pack, not the series), and rows [pack_first_row, pack_first_row + rows) of the pack's
// blocks are its rows.
struct RowGroupMeta {
  uint32_t rows = 0;
  int64_t min_time = 0;
  int64_t max_time = 0;
  uint64_t time_offset = 0;
  uint32_t time_length = 0;
  uint32_t time_crc = 0;
  uint32_t first_column = 0;  // index into SegmentIndex::columns; num_columns consecutive entries
  // The group's slices (start and row count of each); length 0 when it lies in one slice.
  uint64_t slices_offset = 0;
  uint32_t slices_length = 0;
  uint32_t slices_crc = 0;
  uint32_t pack = kNoPack;      // index into SegmentIndex::packs, for a packed series
  uint32_t pack_first_row = 0;

  bool packed() const { return pack != kNoPack; }
};

// One slice of a row group: rows [first_row, first_row + rows) have times in
// [start, start + kSliceWidthNs).
struct SliceInfo {
  int64_t start = 0;
  uint32_t first_row = 0;
  uint32_t rows = 0;
};

struct SegmentColumn {
  std::string name;
  ValueType type;
};

// The decoded index of a segment: small, held in memory while the segment is open.
struct SegmentIndex {
  std::string table;
  int64_t min_time = 0;
  int64_t max_time = 0;
  uint64_t rows = 0;
  std::vector<SegmentColumn> columns;  // the segment's own column list (its schema at write time)
  SeriesTable series;                  // ascending id
  std::vector<RowGroupMeta> groups;
  std::vector<PackMeta> packs;
  // columns.size() per unpacked group and per pack (packed groups share their pack's).
  std::vector<ColumnChunkMeta> chunks;

  // Heap bytes held.
  size_t MemoryUsage() const;
};

// Group `k` (< meta.num_groups) of series `meta` of `index`; for a packed series, a view of its
// rows in its pack (time block and chunks are the pack's).
RowGroupMeta SeriesGroup(const SegmentIndex& index, const SeriesMeta& meta, uint32_t k);
// A whole pack as an ordinary (unpacked) group: its rows, time block and chunks.
RowGroupMeta PackGroup(const PackMeta& pack);

}  // namespace gnomon::storage
