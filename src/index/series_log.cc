#include "src/index/series_log.h"

#include <algorithm>
#include <vector>

#include "src/base/coding.h"
#include "src/base/crc32c.h"

namespace gnomon::index {

namespace {

uint32_t RecordCrc(const char* length_field, std::string_view payload) {
  uint32_t crc = crc32c::Value(length_field, 4);
  return crc32c::Mask(crc32c::Extend(crc, payload.data(), payload.size()));
}

bool AllZero(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == 0; });
}

}  // namespace

std::string EncodeLogHeader(uint32_t base_id) {
  std::string out(kLogMagic);
  PutFixed32(&out, kLogVersion);
  PutFixed32(&out, base_id);
  PutFixed32(&out, crc32c::Mask(crc32c::Value(out)));
  return out;
}

void AppendLogRecord(SeriesId id, std::span<const TagRef> tags, std::string* dst) {
  size_t start = dst->size();
  dst->append(kLogRecordHeaderSize, '\0');
  dst->push_back(static_cast<char>(kLogRecordSeries));
  PutVarint32(dst, id);
  PutVarint32(dst, static_cast<uint32_t>(tags.size()));
  AppendSeriesKey(tags, dst);
  size_t payload_len = dst->size() - start - kLogRecordHeaderSize;
  char* header = dst->data() + start;
  EncodeFixed32(header + 4, static_cast<uint32_t>(payload_len));
  std::string_view payload(header + kLogRecordHeaderSize, payload_len);
  EncodeFixed32(header, RecordCrc(header + 4, payload));
}

Status ReadSeriesLog(std::string_view contents, std::string_view name, const LogRecordFn& fn,
                     LogReadResult* result) {
  *result = LogReadResult();
  auto corrupt = [&](uint64_t offset, const std::string& what) {
    return Status::Corruption(std::string(name) + ": " + what + " at offset " + std::to_string(offset));
  };
  // The header is written whole (temporary file + rename), so any damage to it is corruption.
  if (contents.size() < kLogHeaderSize) return corrupt(0, "truncated log header");
  if (contents.substr(0, kLogMagic.size()) != kLogMagic) return corrupt(0, "bad log magic");
  if (crc32c::Unmask(DecodeFixed32(contents.data() + 16)) != crc32c::Value(contents.data(), 16)) {
    return corrupt(16, "log header checksum mismatch");
  }
  uint32_t version = DecodeFixed32(contents.data() + 8);
  if (version != kLogVersion) {
    return Status::Unsupported(std::string(name) + ": log version " + std::to_string(version));
  }
  result->base_id = DecodeFixed32(contents.data() + 12);
  uint64_t pos = kLogHeaderSize;
  result->valid_bytes = pos;

  std::vector<TagRef> tags;
  while (pos < contents.size()) {
    std::string_view rest = contents.substr(pos);
    bool bad = rest.size() < kLogRecordHeaderSize;
    uint64_t length = bad ? 0 : DecodeFixed32(rest.data() + 4);
    bool reaches_end = bad || length >= rest.size() - kLogRecordHeaderSize;
    if (!bad) {
      bad = reaches_end && length != rest.size() - kLogRecordHeaderSize;
      if (!bad) {
        std::string_view payload = rest.substr(kLogRecordHeaderSize, length);
        bad = RecordCrc(rest.data() + 4, payload) != DecodeFixed32(rest.data());
      }
    }
    if (bad) {
      if (reaches_end || AllZero(rest)) {
        result->torn_tail = true;
        return Status::OK();
      }
      return corrupt(pos, "record checksum mismatch (" + std::to_string(rest.size()) +
                              " bytes follow)");
    }
    // A record that passed its CRC but does not parse was written that way: corruption.
    std::string_view payload = rest.substr(kLogRecordHeaderSize, length);
    uint32_t id, count;
    if (payload.empty() || static_cast<uint8_t>(payload[0]) != kLogRecordSeries) {
      return corrupt(pos, "unknown record type");
    }
    payload.remove_prefix(1);
    if (!GetVarint32(&payload, &id) || !GetVarint32(&payload, &count) || count > kMaxTagsPerSeries) {
      return corrupt(pos, "bad record header");
    }
    uint64_t expected_id = uint64_t{result->base_id} + result->records;
    if (id != expected_id) {
      return corrupt(pos, "series id " + std::to_string(id) + " where " + std::to_string(expected_id) +
                              " was expected");
    }
    tags.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
      if (!GetLengthPrefixed(&payload, &tags[i].key) || !GetLengthPrefixed(&payload, &tags[i].value)) {
        return corrupt(pos, "truncated tag in record");
      }
    }
    if (!payload.empty()) return corrupt(pos, "trailing bytes in record");
    Status s = ValidateCanonicalTags(tags);
    if (!s.ok()) return corrupt(pos, "record of series " + std::to_string(id) + ": " + s.message());
    GNOMON_RETURN_IF_ERROR(fn(pos, id, tags));
    pos += kLogRecordHeaderSize + length;
    ++result->records;
    result->valid_bytes = pos;
  }
  return Status::OK();
}

}  // namespace gnomon::index
