// Fuzz target over the registry's decoders. The first input byte picks one: 0 the log reader,
// 1 the snapshot framing + body, 2 the snapshot body alone (which the CRC otherwise shields).
// They must return a Status for any bytes and never crash; what they accept must be consistent.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/base/check.h"
#include "src/index/series_index.h"
#include "src/index/series_log.h"
#include "src/index/series_snapshot.h"

using namespace gnomon;          // NOLINT
using namespace gnomon::index;   // NOLINT

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: {
      LogReadResult result;
      SeriesId next = 0;
      Status s = ReadSeriesLog(in, "fuzz.log", [&](uint64_t, SeriesId id, std::span<const TagRef> tags) {
        GNOMON_CHECK(ValidateCanonicalTags(tags).ok());
        next = id + 1;
        return Status::OK();
      }, &result);
      if (s.ok()) {
        GNOMON_CHECK(result.valid_bytes <= in.size());
        GNOMON_CHECK(result.records == 0 || next == result.base_id + result.records);
      }
      break;
    }
    case 1: {
      auto body = UnframeSnapshot(in, "fuzz.snap");
      if (body.ok()) {
        SeriesIndex index;
        (void)index.DecodeSnapshotBody(*body);
      }
      break;
    }
    default: {
      SeriesIndex index;
      if (index.DecodeSnapshotBody(in).ok()) {
        // Whatever loaded must re-encode and load again to the same series.
        std::string again;
        index.EncodeSnapshotBody(index.series_count(), index.ValueCounts(), &again);
        SeriesIndex copy;
        GNOMON_CHECK(copy.DecodeSnapshotBody(again).ok());
        GNOMON_CHECK(copy.series_count() == index.series_count());
        for (SeriesId id = 0; id < index.series_count(); ++id) {
          GNOMON_CHECK(copy.Tags(id).ToVector() == index.Tags(id).ToVector());
        }
      }
      break;
    }
  }
  return 0;
}
