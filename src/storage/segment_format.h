// Constants and metadata structures of segment files. The byte layout is in docs/format/segment.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/value_type.h"
#include "src/storage/scan.h"

namespace gnomon::storage {

constexpr char kSegmentMagic[8] = {'G', 'N', 'O', 'M', 'S', 'E', 'G', '1'};
constexpr uint32_t kSegmentFooterMagic = 0x47534547;  // "GESG" little-endian
// Version 3: integer column blocks may be chunked_delta, cut at the group's hour slices (see
// ChunkLayoutForSlices). Version 4: slice statistics of int64 columns may carry the sum of the
// rows before the slice's inner seek point (ColumnStats::head_isum). Versions 2 (no chunked
// blocks) and 3 still read.
constexpr uint32_t kSegmentVersion = 4;
constexpr uint32_t kOldestReadableSegmentVersion = 2;
// Row groups that span several hours also keep statistics per hour ("slices", aligned to the
// epoch): an aggregate over hourly (or coarser) buckets reads them instead of decoding a large
// group that crosses bucket boundaries.
constexpr int64_t kSliceWidthNs = 3600LL * 1000000000;
// Rows per row group: every column of a series is cut at the same row boundaries, so one group's
// statistics describe the same rows for all columns.
constexpr uint32_t kRowsPerGroup = 8192;
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
};

// One slice of a row group: rows [first_row, first_row + rows) have times in
// [start, start + kSliceWidthNs).
struct SliceInfo {
  int64_t start = 0;
  uint32_t first_row = 0;
  uint32_t rows = 0;
};

struct SeriesMeta {
  SeriesId id = 0;
  uint32_t first_group = 0;  // index into SegmentIndex::groups
  uint32_t num_groups = 0;
  uint32_t rows = 0;
  int64_t min_time = 0;
  int64_t max_time = 0;
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
  std::vector<SeriesMeta> series;      // ascending id
  std::vector<RowGroupMeta> groups;
  std::vector<ColumnChunkMeta> chunks;  // groups.size() * columns.size()
};

}  // namespace gnomon::storage
