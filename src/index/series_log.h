// The series registry's append-only log (docs/format/series-registry.md): a header naming the id
// of its first record, then one CRC-framed record per created series, ids consecutive.
//
// Recovery rule: the only bytes that can be damaged by a crash are the final, unsynced append, so
// a bad record is a torn tail (cut, not an error) when it runs to or past the end of the file or
// everything from it to the end is zero bytes (unwritten pages). A bad record followed by other
// bytes is Corruption, reported with the file and offset: cutting it would silently renumber or
// drop series that were synced.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "src/base/status.h"
#include "src/index/series_key.h"

namespace gnomon::index {

inline constexpr std::string_view kLogMagic = "GNMSRLOG";
constexpr uint32_t kLogVersion = 1;
constexpr size_t kLogHeaderSize = 20;
constexpr size_t kLogRecordHeaderSize = 8;  // masked crc32c, length
constexpr uint8_t kLogRecordSeries = 1;

// The 20-byte header of a log whose first record will have id `base_id`.
std::string EncodeLogHeader(uint32_t base_id);

// Appends one framed record: series `id` has the canonical `tags`.
void AppendLogRecord(SeriesId id, std::span<const TagRef> tags, std::string* dst);

struct LogReadResult {
  uint32_t base_id = 0;
  uint32_t records = 0;       // complete records read
  uint64_t valid_bytes = 0;   // offset just past the last complete record
  bool torn_tail = false;     // bytes after valid_bytes are a torn final append, to be cut
};

// Called for each complete record in order; `tags` views `contents`. A non-ok Status stops the
// read and is returned.
using LogRecordFn = std::function<Status(uint64_t offset, SeriesId id, std::span<const TagRef> tags)>;

// Parses a whole log image. `name` prefixes error messages (the file's path).
Status ReadSeriesLog(std::string_view contents, std::string_view name, const LogRecordFn& fn,
                     LogReadResult* result);

}  // namespace gnomon::index
