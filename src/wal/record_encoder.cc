#include "src/wal/record_encoder.h"

#include <algorithm>
#include <array>

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/base/crc32c.h"

namespace gnomon::wal {
namespace {

// CRC32C of each one-byte type, so a fragment's CRC extends it instead of hashing the type again.
const std::array<uint32_t, kMaxFragmentType + 1>& TypeCrcs() {
  static const auto table = [] {
    std::array<uint32_t, kMaxFragmentType + 1> t{};
    for (uint8_t i = 0; i <= kMaxFragmentType; ++i) {
      char c = static_cast<char>(i);
      t[i] = crc32c::Value(&c, 1);
    }
    return t;
  }();
  return table;
}

}  // namespace

uint64_t RecordEncoder::AddRecord(std::string_view payload, std::string* out) {
  GNOMON_CHECK_MSG(payload.size() <= kMaxRecordSize, "WAL record over kMaxRecordSize");
  AddFragments(payload, /*header=*/false, out);
  return offset_;
}

uint64_t RecordEncoder::AddSegmentHeader(uint64_t number, std::string* out) {
  char payload[kSegmentHeaderPayloadSize];
  EncodeFixed32(payload, kSegmentMagic);
  EncodeFixed32(payload + 4, kFormatVersion);
  EncodeFixed64(payload + 8, number);
  AddFragments(std::string_view(payload, sizeof(payload)), /*header=*/true, out);
  return offset_;
}

void RecordEncoder::AddFragments(std::string_view payload, bool header, std::string* out) {
  out->reserve(out->size() + (EndOffset(offset_, payload.size()) - offset_));
  const char* p = payload.data();
  size_t left = payload.size();
  bool begin = true;
  do {
    size_t leftover = kBlockSize - offset_ % kBlockSize;
    if (leftover < kFragmentHeaderSize) {
      // Too small for a header: zero-fill the block's trailer.
      out->append(leftover, '\0');
      offset_ += leftover;
      leftover = kBlockSize;
    }
    size_t avail = leftover - kFragmentHeaderSize;
    size_t n = std::min(left, avail);
    bool end = n == left;
    FragmentType type;
    if (header) {
      GNOMON_CHECK_MSG(begin && end, "segment header must fit one fragment");
      type = FragmentType::kSegmentHeader;
    } else if (begin && end) {
      type = FragmentType::kFull;
    } else if (begin) {
      type = FragmentType::kFirst;
    } else if (end) {
      type = FragmentType::kLast;
    } else {
      type = FragmentType::kMiddle;
    }
    EmitFragment(type, p, n, out);
    p += n;
    left -= n;
    begin = false;
  } while (left > 0);
}

void RecordEncoder::EmitFragment(FragmentType type, const char* data, size_t n, std::string* out) {
  auto t = static_cast<uint8_t>(type);
  char header[kFragmentHeaderSize];
  EncodeFixed32(header, crc32c::Mask(crc32c::Extend(TypeCrcs()[t], data, n)));
  header[4] = static_cast<char>(n & 0xff);
  header[5] = static_cast<char>(n >> 8);
  header[6] = static_cast<char>(t);
  out->append(header, kFragmentHeaderSize);
  out->append(data, n);
  offset_ += kFragmentHeaderSize + n;
}

uint64_t RecordEncoder::EndOffset(uint64_t offset, uint64_t n) {
  // Mirrors AddFragments. Whole blocks are counted at once so huge records cost O(1).
  constexpr uint64_t kPerBlock = kBlockSize - kFragmentHeaderSize;
  uint64_t leftover = kBlockSize - offset % kBlockSize;
  if (leftover < kFragmentHeaderSize) {
    offset += leftover;
    leftover = kBlockSize;
  }
  uint64_t avail = leftover - kFragmentHeaderSize;
  if (n <= avail) return offset + kFragmentHeaderSize + n;
  // The first fragment fills this block; the rest go kPerBlock to a fresh block.
  offset += leftover;
  n -= avail;
  uint64_t full_blocks = (n - 1) / kPerBlock;  // blocks filled completely before the last one
  offset += full_blocks * kBlockSize;
  n -= full_blocks * kPerBlock;
  return offset + kFragmentHeaderSize + n;
}

}  // namespace gnomon::wal
