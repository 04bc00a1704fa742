// Fuzz target: any bytes as a segment file must open to a Status, never a crash, and a segment
// that opens must read back whole (every series, group, column, slice and statistic) to Status
// values. The index and footer checksums are recomputed first, so that mutations of the index
// reach DecodeSegmentIndex and the reads instead of stopping at a checksum (that a checksum
// mismatch is caught is segment_corruption_test's job; block checksums still guard the data
// blocks, whose decoders block_decoder_fuzz covers).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/base/crc32c.h"
#include "src/port/mem_env.h"
#include "src/storage/segment_format.h"
#include "src/storage/segment_reader.h"

using namespace gnomon;           // NOLINT
using namespace gnomon::storage;  // NOLINT

namespace {

// Rewrites the footer's index CRC and its own CRC where the footer locates an index in bounds.
void Reseal(std::string* file) {
  if (file->size() < 4 + kSegmentFooterSize) return;
  char* footer = file->data() + file->size() - kSegmentFooterSize;
  const uint64_t index_offset = DecodeFixed64(footer);
  const uint64_t index_length = DecodeFixed64(footer + 8);
  const uint64_t data_end = file->size() - kSegmentFooterSize;
  if (index_offset <= data_end && index_length <= data_end - index_offset) {
    EncodeFixed32(footer + 16, crc32c::Mask(crc32c::Value(file->data() + index_offset, index_length)));
  }
  EncodeFixed32(footer + 28, crc32c::Mask(crc32c::Value(footer, 28)));
}

Status ReadEverything(const SegmentReader& reader) {
  std::vector<int64_t> times;
  std::vector<SliceInfo> slices;
  std::vector<ColumnStats> stats;
  DecodedColumn decoded;
  const size_t num_columns = reader.index().columns.size();
  for (const SeriesMeta& meta : reader.index().series) {
    GNOMON_CHECK(reader.FindSeries(meta.id).has_value());
    for (uint32_t g = 0; g < meta.num_groups; ++g) {
      const RowGroupMeta group = reader.group(meta, g);
      GNOMON_RETURN_IF_ERROR(reader.ReadTimes(group, &times));
      GNOMON_CHECK(times.size() == group.rows);
      int64_t first = 0, step = 0;
      if (reader.EvenTimes(group, &first, &step)) GNOMON_CHECK(step > 0);
      GNOMON_RETURN_IF_ERROR(reader.ReadSlices(group, &slices));
      for (size_t c = 0; c < num_columns; ++c) {
        GNOMON_RETURN_IF_ERROR(reader.ReadColumn(group, c, &decoded));
        GNOMON_RETURN_IF_ERROR(reader.ReadSliceStats(group, c, slices.size(), &stats));
        if (group.rows >= 2) {
          // Two disjoint ranges: the first row, and the last half.
          std::vector<std::pair<uint32_t, uint32_t>> ranges = {{0, 1}, {group.rows / 2 + 1, group.rows}};
          if (ranges[1].first >= ranges[1].second) ranges.pop_back();
          GNOMON_RETURN_IF_ERROR(reader.ReadColumnRows(group, c, ranges, &decoded));
        }
      }
    }
  }
  return Status::OK();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string file(reinterpret_cast<const char*>(data), size);
  Reseal(&file);
  port::MemEnv env;
  GNOMON_CHECK(env.CreateDirs("/seg").ok());
  GNOMON_CHECK(port::WriteFileAtomic(&env, "/seg/000001.seg", file).ok());
  auto reader = SegmentReader::Open(&env, "/seg/000001.seg");
  if (!reader.ok()) {
    GNOMON_CHECK(!reader.status().message().empty());
    return 0;
  }
  (void)ReadEverything(**reader);
  return 0;
}
