// SegmentWriter: writes one immutable segment file (one table, one time partition), series by
// series in ascending id order. Not thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/base/status.h"
#include "src/encoding/chunked_delta.h"
#include "src/port/env.h"
#include "src/storage/memtable.h"
#include "src/storage/segment_format.h"

namespace gnomon::storage {

class SegmentWriter {
 public:
  // `columns` is the table's field list at write time; SortedSeries::columns index into it.
  SegmentWriter(port::Env* env, std::string path, std::string table,
                std::vector<SegmentColumn> columns);

  Status Open();
  // Series of fewer rows than this are packed (default kPackedSeriesMaxRows; 0: none is). Call
  // before the first AddSeries.
  void set_pack_max_rows(uint32_t rows) { pack_max_rows_ = rows; }
  // REQUIRES: ids ascending across calls; data.times strictly increasing; non-empty. A series of
  // fewer than set_pack_max_rows() rows is packed (segment_format.h): held until its pack fills.
  Status AddSeries(SeriesId id, const SortedSeries& data);
  // Writes the index and footer, syncs and closes. The index describes what was written.
  Status Finish(SegmentIndex* index_out);
  // Bytes written so far.
  uint64_t FileSize() const { return offset_; }

 private:
  Status AppendBlock(const std::string& block, uint64_t* offset, uint32_t* length, uint32_t* crc);
  Status WriteChunk(const ColumnBuffer& col, size_t begin, size_t rows, const encoding::ChunkLayout& layout,
                    ColumnChunkMeta* meta);
  Status AddSeriesGroups(SeriesId id, const SortedSeries& data);
  // Adds a short series' rows to the open pack (writing the pack first when they do not fit).
  Status AddToPack(SeriesId id, const SortedSeries& data);
  // Writes the open pack's blocks and completes its series' groups; no-op when it is empty.
  Status FlushPack();

  port::Env* env_;
  std::string path_;
  std::unique_ptr<port::WritableFile> file_;
  uint64_t offset_ = 0;
  SegmentIndex index_;
  std::string scratch_;
  // The open pack: its rows so far (columns as the segment's) and the groups of its series.
  uint32_t pack_max_rows_ = kPackedSeriesMaxRows;
  SortedSeries pack_;
};

// Where integer blocks of a group of `rows` rows get seek points: at the group's hour-slice starts
// and half-slices when the slices are regular (all but the first and last of equal length; a
// half holding >= kMinChunkRows / 2 rows; else short slices grouped so that a chunk holds
// >= kMinChunkRows), else every kDefaultChunkRows rows; none for groups too small to need them.
// A scan then decodes a partial hour from its slice start or middle, not the group's start.
// Part of the segment format since version 4: readers recompute a slice's head (SliceHeadRows)
// from it, so a change to it needs a new format version.
encoding::ChunkLayout ChunkLayoutForSlices(const std::vector<SliceInfo>& slices, size_t rows);

// Rows of `slice` before the first seek point of `layout` strictly inside it (0: none). Slice
// statistics of dense int64 columns carry the sum of these rows (ColumnStats::head_isum).
uint32_t SliceHeadRows(const encoding::ChunkLayout& layout, const SliceInfo& slice);

// One column's statistics in the index and slice-statistics encoding (docs/format/segment.md).
void EncodeColumnStats(ValueType type, const ColumnStats& stats, std::string* out);
bool DecodeColumnStats(ValueType type, std::string_view* in, ColumnStats* stats);

// Serialises / parses the index section (shared by writer and reader; exposed for tests). The
// writer writes kSegmentVersion; `version` is the file's (packs exist since version 5).
void EncodeSegmentIndex(const SegmentIndex& index, std::string* out);
Status DecodeSegmentIndex(std::string_view in, SegmentIndex* index, uint32_t version = kSegmentVersion);

}  // namespace gnomon::storage
