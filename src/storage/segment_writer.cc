#include "src/storage/segment_writer.h"

#include "src/storage/slice_stats_codec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "src/base/coding.h"
#include "src/base/crc32c.h"
#include "src/base/time_util.h"
#include "src/encoding/block_codec.h"
#include "src/storage/column_stats.h"
#include "src/storage/slice_stats_codec.h"

namespace gnomon::storage {
namespace {

constexpr uint32_t kMinChunkRows = 256;
constexpr uint32_t kDefaultChunkRows = 1024;
constexpr uint32_t kMaxChunkRows = 4096;

}  // namespace

encoding::ChunkLayout ChunkLayoutForSlices(const std::vector<SliceInfo>& slices, size_t rows) {
  if (rows < 2 * kMinChunkRows) return {};
  if (slices.size() >= 2) {
    uint32_t r = 0;  // the common length of the inner slices (or of the longer end slice)
    for (size_t i = 1; i + 1 < slices.size(); ++i) {
      if (r == 0) r = slices[i].rows;
      if (slices[i].rows != r) r = UINT32_MAX;
    }
    if (r == 0) r = std::max(slices.front().rows, slices.back().rows);
    if (r != UINT32_MAX && slices.front().rows <= r && slices.back().rows <= r) {
      // Halves of slices, where a half still holds kMinChunkRows / 2 rows: a range that starts or
      // ends inside an hour then decodes at most half an hour, from whichever side is shorter.
      // A TSBS hour (360 rows) pays ~3 bytes more per column (+0.006 bytes per metric).
      const uint32_t half = r / 2;
      if (r % 2 == 0 && half >= kMinChunkRows / 2 && half <= kMaxChunkRows) {
        return {slices.front().rows > half ? slices.front().rows - half : slices.front().rows, half};
      }
      const uint32_t per_chunk = r * ((kMinChunkRows + r - 1) / r);  // whole slices
      if (per_chunk <= kMaxChunkRows) return {slices.front().rows, per_chunk};
    }
  }
  return {kDefaultChunkRows, kDefaultChunkRows};
}

uint32_t SliceHeadRows(const encoding::ChunkLayout& layout, const SliceInfo& slice) {
  if (!layout.enabled() || slice.rows < 2) return 0;
  const uint64_t after = uint64_t{slice.first_row} + 1;  // the first row a point may start inside
  uint64_t point = layout.first;
  if (point < after) point += (after - point + layout.size - 1) / layout.size * layout.size;
  return point < uint64_t{slice.first_row} + slice.rows ? static_cast<uint32_t>(point - slice.first_row) : 0;
}

SegmentWriter::SegmentWriter(port::Env* env, std::string path, std::string table,
                             std::vector<SegmentColumn> columns)
    : env_(env), path_(std::move(path)) {
  index_.table = std::move(table);
  index_.columns = std::move(columns);
  index_.min_time = INT64_MAX;
  index_.max_time = INT64_MIN;
}

Status SegmentWriter::Open() {
  GNOMON_ASSIGN_OR_RETURN(file_, env_->NewWritableFile(path_));
  GNOMON_RETURN_IF_ERROR(file_->Append(std::string_view(kSegmentMagic, sizeof(kSegmentMagic))));
  offset_ = sizeof(kSegmentMagic);
  return Status::OK();
}

Status SegmentWriter::AppendBlock(const std::string& block, uint64_t* offset, uint32_t* length,
                                  uint32_t* crc) {
  *offset = offset_;
  *length = static_cast<uint32_t>(block.size());
  *crc = crc32c::Mask(crc32c::Value(block));
  GNOMON_RETURN_IF_ERROR(file_->Append(block));
  offset_ += block.size();
  return Status::OK();
}

Status SegmentWriter::WriteChunk(const ColumnBuffer& col, size_t begin, size_t rows,
                                 const encoding::ChunkLayout& layout, ColumnChunkMeta* meta) {
  meta->stats = ComputeStats(col, begin, rows);
  if (meta->stats.count == 0) {
    meta->presence = ColumnChunkMeta::kAbsent;
    return Status::OK();
  }
  const bool has_nulls = meta->stats.count < rows;
  meta->presence = has_nulls ? ColumnChunkMeta::kWithValidity : ColumnChunkMeta::kDense;
  auto valid = [&](size_t r) { return col.validity.empty() || col.validity[r] != 0; };

  scratch_.clear();
  switch (col.type) {
    case ValueType::kFloat64: {
      std::vector<double> v;
      v.reserve(meta->stats.count);
      for (size_t r = begin; r < begin + rows; ++r) {
        if (valid(r)) v.push_back(std::bit_cast<double>(col.bits[r]));
      }
      encoding::EncodeFloat64s(v, &scratch_);
      break;
    }
    case ValueType::kInt64: {
      std::vector<int64_t> v;
      v.reserve(meta->stats.count);
      for (size_t r = begin; r < begin + rows; ++r) {
        if (valid(r)) v.push_back(static_cast<int64_t>(col.bits[r]));
      }
      // Seek points only where value i is row i (no NULLs).
      encoding::EncodeInt64s(v, has_nulls ? encoding::ChunkLayout{} : layout, &scratch_);
      break;
    }
    case ValueType::kUInt64: {
      std::vector<uint64_t> v;
      v.reserve(meta->stats.count);
      for (size_t r = begin; r < begin + rows; ++r) {
        if (valid(r)) v.push_back(col.bits[r]);
      }
      encoding::EncodeUInt64s(v, has_nulls ? encoding::ChunkLayout{} : layout, &scratch_);
      break;
    }
    case ValueType::kBool: {
      std::vector<uint8_t> v;
      v.reserve(meta->stats.count);
      for (size_t r = begin; r < begin + rows; ++r) {
        if (valid(r)) v.push_back(static_cast<uint8_t>(col.bits[r] & 1));
      }
      encoding::EncodeBools(v, &scratch_);
      break;
    }
    case ValueType::kString: {
      std::vector<std::string_view> v;
      v.reserve(meta->stats.count);
      for (size_t r = begin; r < begin + rows; ++r) {
        if (valid(r)) v.push_back(col.strings[r]);
      }
      encoding::EncodeStrings(v, &scratch_);
      break;
    }
    default: return Status::Internal("segment writer: column without a type");
  }
  GNOMON_RETURN_IF_ERROR(AppendBlock(scratch_, &meta->offset, &meta->length, &meta->crc));
  if (has_nulls) {
    std::vector<uint8_t> validity(col.validity.begin() + begin, col.validity.begin() + begin + rows);
    scratch_.clear();
    encoding::EncodeBools(validity, &scratch_);
    GNOMON_RETURN_IF_ERROR(
        AppendBlock(scratch_, &meta->validity_offset, &meta->validity_length, &meta->validity_crc));
  }
  return Status::OK();
}

namespace {

// Appends rows [0, n) of `src` (nullptr: a column the series lacks, all null) to `dst`, which
// holds `have` rows; dst->type must be set.
void AppendColumnRows(const ColumnBuffer* src, size_t n, size_t have, ColumnBuffer* dst) {
  const bool is_string = dst->type == ValueType::kString;
  const bool src_has = src != nullptr && src->type != ValueType::kNull;
  const bool src_nulls = !src_has || !src->validity.empty();
  if (src_nulls && dst->validity.empty()) dst->validity.assign(have, 1);
  if (!src_has) {
    if (is_string) dst->strings.resize(have + n); else dst->bits.resize(have + n, 0);
    dst->validity.resize(have + n, 0);
    dst->null_count += n;
    return;
  }
  if (is_string) {
    dst->strings.insert(dst->strings.end(), src->strings.begin(), src->strings.begin() + n);
  } else {
    dst->bits.insert(dst->bits.end(), src->bits.begin(), src->bits.begin() + n);
  }
  if (!src->validity.empty()) {
    dst->validity.insert(dst->validity.end(), src->validity.begin(), src->validity.begin() + n);
    dst->null_count += src->null_count;
  } else if (!dst->validity.empty()) {
    dst->validity.resize(have + n, 1);
  }
}

}  // namespace

Status SegmentWriter::AddSeries(SeriesId id, const SortedSeries& data) {
  GNOMON_CHECK(!data.times.empty());
  GNOMON_CHECK(index_.series.empty() || index_.series.back().id < id);
  if (data.times.size() < pack_max_rows_) return AddToPack(id, data);
  return AddSeriesGroups(id, data);
}

Status SegmentWriter::AddToPack(SeriesId id, const SortedSeries& data) {
  const size_t n = data.times.size();
  if (pack_.times.size() + n > kRowsPerPack) GNOMON_RETURN_IF_ERROR(FlushPack());
  const size_t have = pack_.times.size();
  if (pack_.columns.size() != index_.columns.size()) {
    pack_.columns.assign(index_.columns.size(), ColumnBuffer{});
    for (size_t c = 0; c < index_.columns.size(); ++c) pack_.columns[c].type = index_.columns[c].type;
  }
  pack_.times.insert(pack_.times.end(), data.times.begin(), data.times.end());
  for (size_t c = 0; c < pack_.columns.size(); ++c) {
    AppendColumnRows(c < data.columns.size() ? &data.columns[c] : nullptr, n, have, &pack_.columns[c]);
  }
  SeriesMeta series;  // its blocks are the pack's, placed when the pack is written
  series.id = id;
  series.num_groups = 1;
  series.rows = static_cast<uint32_t>(n);
  series.min_time = data.times.front();
  series.max_time = data.times.back();
  series.pack = static_cast<uint32_t>(index_.packs.size());
  series.pack_first_row = static_cast<uint32_t>(have);
  index_.series.push_back(series);
  index_.rows += n;
  index_.min_time = std::min(index_.min_time, series.min_time);
  index_.max_time = std::max(index_.max_time, series.max_time);
  return Status::OK();
}

Status SegmentWriter::FlushPack() {
  const size_t rows = pack_.times.size();
  if (rows == 0) return Status::OK();
  PackMeta pack;
  pack.rows = static_cast<uint32_t>(rows);
  pack.first_column = static_cast<uint32_t>(index_.chunks.size());
  scratch_.clear();
  encoding::EncodeTimestamps(pack_.times, &scratch_);
  GNOMON_RETURN_IF_ERROR(AppendBlock(scratch_, &pack.time_offset, &pack.time_length, &pack.time_crc));
  for (size_t c = 0; c < index_.columns.size(); ++c) {
    ColumnChunkMeta meta;
    GNOMON_RETURN_IF_ERROR(WriteChunk(pack_.columns[c], 0, rows, encoding::ChunkLayout{}, &meta));
    index_.chunks.push_back(meta);
  }
  index_.packs.push_back(pack);
  pack_.times.clear();
  for (ColumnBuffer& c : pack_.columns) {
    c.bits.clear();
    c.strings.clear();
    c.validity.clear();
    c.null_count = 0;
  }
  return Status::OK();
}

Status SegmentWriter::AddSeriesGroups(SeriesId id, const SortedSeries& data) {
  const size_t n = data.times.size();
  SeriesMeta series;
  series.id = id;
  series.first_group = static_cast<uint32_t>(index_.groups.size());
  series.rows = static_cast<uint32_t>(n);
  series.min_time = data.times.front();
  series.max_time = data.times.back();

  for (size_t begin = 0; begin < n; begin += kRowsPerGroup) {
    const size_t rows = std::min<size_t>(kRowsPerGroup, n - begin);
    RowGroupMeta group;
    group.rows = static_cast<uint32_t>(rows);
    group.min_time = data.times[begin];
    group.max_time = data.times[begin + rows - 1];
    group.first_column = static_cast<uint32_t>(index_.chunks.size());
    scratch_.clear();
    encoding::EncodeTimestamps(std::span<const int64_t>(data.times.data() + begin, rows), &scratch_);
    GNOMON_RETURN_IF_ERROR(
        AppendBlock(scratch_, &group.time_offset, &group.time_length, &group.time_crc));
    // Hour slices of the group: (start, first row, rows), written when there are several.
    std::vector<SliceInfo> slices;
    // Times within an hour of the int64 limits have no representable hour start: no slices.
    const bool sliceable = data.times[begin] >= INT64_MIN + kSliceWidthNs &&
                           data.times[begin + rows - 1] <= INT64_MAX - kSliceWidthNs;
    for (size_t r = begin; sliceable && r < begin + rows; ++r) {
      int64_t start = FloorDiv(data.times[r], kSliceWidthNs) * kSliceWidthNs;
      if (slices.empty() || slices.back().start != start) {
        slices.push_back(SliceInfo{start, static_cast<uint32_t>(r - begin), 0});
      }
      ++slices.back().rows;
    }
    if (slices.size() > 1) {
      scratch_.clear();
      PutVarint64(&scratch_, slices.size());
      int64_t prev = 0;
      for (const SliceInfo& sl : slices) {
        PutVarsint64(&scratch_, (sl.start - prev) / kSliceWidthNs);
        prev = sl.start;
        PutVarint64(&scratch_, sl.rows);
      }
      GNOMON_RETURN_IF_ERROR(
          AppendBlock(scratch_, &group.slices_offset, &group.slices_length, &group.slices_crc));
    }
    const encoding::ChunkLayout layout = ChunkLayoutForSlices(slices, rows);
    for (size_t c = 0; c < index_.columns.size(); ++c) {
      ColumnChunkMeta meta;
      if (c < data.columns.size() && data.columns[c].type != ValueType::kNull) {
        GNOMON_RETURN_IF_ERROR(WriteChunk(data.columns[c], begin, rows, layout, &meta));
        if (slices.size() > 1 && meta.presence != ColumnChunkMeta::kAbsent) {
          std::vector<ColumnStats> slice_stats;
          slice_stats.reserve(slices.size());
          for (const SliceInfo& sl : slices) {
            ColumnStats stats = ComputeStats(data.columns[c], begin + sl.first_row, sl.rows);
            // A dense int64 slice with a seek point inside: the sum of its rows before it too, so
            // a range starting or ending past that point reads only the rows beyond it.
            const uint32_t head = SliceHeadRows(layout, sl);
            if (head > 0 && data.columns[c].type == ValueType::kInt64 && stats.isum_exact &&
                stats.count == sl.rows) {
              const ColumnStats head_stats = ComputeStats(data.columns[c], begin + sl.first_row, head);
              stats.has_head = head_stats.isum_exact;
              stats.head_isum = head_stats.isum;
            }
            slice_stats.push_back(stats);
          }
          scratch_.clear();
          EncodeSliceStats(data.columns[c].type, slice_stats, &scratch_);
          GNOMON_RETURN_IF_ERROR(AppendBlock(scratch_, &meta.slice_stats_offset,
                                             &meta.slice_stats_length, &meta.slice_stats_crc));
        }
      }
      index_.chunks.push_back(meta);
    }
    index_.groups.push_back(group);
    ++series.num_groups;
  }
  index_.series.push_back(series);
  index_.rows += n;
  index_.min_time = std::min(index_.min_time, series.min_time);
  index_.max_time = std::max(index_.max_time, series.max_time);
  return Status::OK();
}

Status SegmentWriter::Finish(SegmentIndex* index_out) {
  GNOMON_RETURN_IF_ERROR(FlushPack());
  std::string index_bytes;
  EncodeSegmentIndex(index_, &index_bytes);
  std::string footer;
  PutFixed64(&footer, offset_);
  PutFixed64(&footer, index_bytes.size());
  PutFixed32(&footer, crc32c::Mask(crc32c::Value(index_bytes)));
  PutFixed32(&footer, kSegmentVersion);
  PutFixed32(&footer, kSegmentFooterMagic);
  PutFixed32(&footer, crc32c::Mask(crc32c::Value(footer)));
  GNOMON_RETURN_IF_ERROR(file_->Append(index_bytes));
  GNOMON_RETURN_IF_ERROR(file_->Append(footer));
  offset_ += index_bytes.size() + footer.size();
  GNOMON_RETURN_IF_ERROR(file_->Sync());
  GNOMON_RETURN_IF_ERROR(file_->Close());
  if (index_out != nullptr) *index_out = std::move(index_);
  return Status::OK();
}

}  // namespace gnomon::storage
