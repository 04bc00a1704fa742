#include "src/wal/record_reader.h"

#include <algorithm>

#include "src/base/coding.h"
#include "src/base/crc32c.h"
#include "src/wal/wal_format.h"

namespace gnomon::wal {
namespace {

// Read 1 MiB at a time: few calls for big segments, bounded memory for any.
constexpr size_t kReadBlocks = 32;

struct FragmentHeader {
  uint32_t masked_crc;
  size_t length;
  uint8_t type;
};

FragmentHeader ParseHeader(const char* p) {
  FragmentHeader h;
  h.masked_crc = DecodeFixed32(p);
  h.length = static_cast<uint8_t>(p[4]) | (static_cast<size_t>(static_cast<uint8_t>(p[5])) << 8);
  h.type = static_cast<uint8_t>(p[6]);
  return h;
}

bool ChecksumMatches(const FragmentHeader& h, const char* header) {
  // CRC over the type byte and the payload.
  uint32_t crc =
      crc32c::Extend(crc32c::Value(header + 6, 1), header + kFragmentHeaderSize, h.length);
  return crc32c::Unmask(h.masked_crc) == crc;
}

}  // namespace

RecordReader::RecordReader(port::SequentialFile* file)
    : file_(file), buffer_(kReadBlocks * kBlockSize, '\0') {}

Status RecordReader::Refill() {
  buffer_offset_ += buffer_len_;
  buffer_len_ = 0;
  pos_ = 0;
  std::string_view got;
  GNOMON_RETURN_IF_ERROR(file_->Read(buffer_.size(), &got, buffer_.data()));
  if (got.data() != buffer_.data()) std::copy(got.begin(), got.end(), buffer_.data());
  buffer_len_ = got.size();
  if (buffer_len_ < buffer_.size()) eof_ = true;
  return Status::OK();
}

RecordReader::Outcome RecordReader::SetDamage(uint64_t offset, bool at_eof, std::string reason) {
  damage_.offset = offset;
  damage_.at_eof = at_eof;
  damage_.reason = std::move(reason);
  return Outcome::kDamaged;
}

Result<RecordReader::FragmentResult> RecordReader::ReadFragment(uint8_t* type,
                                                                std::string_view* data,
                                                                uint64_t* offset) {
  while (true) {
    if (pos_ >= buffer_len_) {
      if (eof_) return FragmentResult::kEnd;
      GNOMON_RETURN_IF_ERROR(Refill());
      continue;
    }
    size_t block_start = pos_ - pos_ % kBlockSize;
    bool full_block = block_start + kBlockSize <= buffer_len_;  // else the file ends inside it
    size_t block_limit = full_block ? block_start + kBlockSize : buffer_len_;
    size_t left = block_limit - pos_;
    *offset = buffer_offset_ + pos_;
    if (left < kFragmentHeaderSize) {
      if (full_block) {  // the zero trailer of a block
        pos_ = block_limit;
        continue;
      }
      SetDamage(*offset, true,
                "truncated fragment header (" + std::to_string(left) + " bytes at end of file)");
      return FragmentResult::kBad;
    }
    const char* p = buffer_.data() + pos_;
    FragmentHeader h = ParseHeader(p);
    if (h.type == 0 && h.length == 0 && h.masked_crc == 0) {
      SetDamage(*offset, false, "zero-filled bytes where a fragment should start");
      return FragmentResult::kBad;
    }
    if (kFragmentHeaderSize + h.length > left) {
      if (!full_block) {
        SetDamage(*offset, true,
                  "fragment of " + std::to_string(h.length) + " bytes extends past end of file");
      } else {
        SetDamage(*offset, false,
                  "fragment length " + std::to_string(h.length) + " overruns its block");
      }
      return FragmentResult::kBad;
    }
    if (!ChecksumMatches(h, p)) {
      resume_pos_ = pos_ + kFragmentHeaderSize + h.length;
      SetDamage(*offset, false, "checksum mismatch");
      return FragmentResult::kBad;
    }
    if (h.type == 0 || h.type > kMaxFragmentType) {
      SetDamage(*offset, false, "unknown fragment type " + std::to_string(h.type));
      return FragmentResult::kBad;
    }
    *type = h.type;
    *data = std::string_view(p + kFragmentHeaderSize, h.length);
    pos_ += kFragmentHeaderSize + h.length;
    return FragmentResult::kFragment;
  }
}

Result<RecordReader::Outcome> RecordReader::Next(std::string_view* record, bool* is_header) {
  bool in_record = false;
  uint64_t record_start = 0;
  scratch_.clear();
  while (true) {
    uint8_t type = 0;
    std::string_view data;
    uint64_t offset = 0;
    GNOMON_ASSIGN_OR_RETURN(FragmentResult r, ReadFragment(&type, &data, &offset));
    if (r == FragmentResult::kBad) return Outcome::kDamaged;
    if (r == FragmentResult::kEnd) {
      if (in_record) {
        return SetDamage(record_start, true,
                         "record starting here has no last fragment before end of file");
      }
      return Outcome::kEof;
    }
    uint64_t end = offset + kFragmentHeaderSize + data.size();
    switch (static_cast<FragmentType>(type)) {
      case FragmentType::kFull:
      case FragmentType::kSegmentHeader:
        if (in_record) {
          valid_fragment_after_damage_ = true;
          return SetDamage(record_start, false, "record starting here has no last fragment");
        }
        *record = data;
        *is_header = static_cast<FragmentType>(type) == FragmentType::kSegmentHeader;
        valid_end_ = end;
        return Outcome::kRecord;
      case FragmentType::kFirst:
        if (in_record) {
          valid_fragment_after_damage_ = true;
          return SetDamage(record_start, false, "record starting here has no last fragment");
        }
        in_record = true;
        record_start = offset;
        scratch_.assign(data);
        break;
      case FragmentType::kMiddle:
      case FragmentType::kLast:
        if (!in_record) {
          valid_fragment_after_damage_ = true;
          return SetDamage(offset, false, "continuation fragment without a first fragment");
        }
        if (scratch_.size() + data.size() > kMaxRecordSize) {
          return SetDamage(record_start, false, "record exceeds the maximum record size");
        }
        scratch_.append(data);
        if (static_cast<FragmentType>(type) == FragmentType::kLast) {
          *record = scratch_;
          *is_header = false;
          valid_end_ = end;
          return Outcome::kRecord;
        }
        break;
      case FragmentType::kZero:
        break;  // unreachable: ReadFragment rejects type 0
    }
  }
}

bool RecordReader::ValidFragmentAt(size_t pos, size_t left) const {
  if (left < kFragmentHeaderSize) return false;
  const char* p = buffer_.data() + pos;
  FragmentHeader h = ParseHeader(p);
  if (h.type == 0 || h.type > kMaxFragmentType) return false;
  if (kFragmentHeaderSize + h.length > left) return false;
  return ChecksumMatches(h, p);
}

Result<bool> RecordReader::ScanPastDamage() {
  if (valid_fragment_after_damage_) return true;
  if (resume_pos_ > 0 && resume_pos_ < buffer_len_) {
    size_t block_limit = std::min(buffer_len_, resume_pos_ - resume_pos_ % kBlockSize + kBlockSize);
    if (ValidFragmentAt(resume_pos_, block_limit - resume_pos_)) return true;
  }
  // Fragments start at every block start (a record's continuation included), so checking those
  // finds surviving data after any damage without resynchronising inside blocks.
  if (pos_ < buffer_len_) pos_ = pos_ - pos_ % kBlockSize + kBlockSize;
  while (true) {
    if (pos_ >= buffer_len_) {
      if (eof_) return false;
      GNOMON_RETURN_IF_ERROR(Refill());
      continue;
    }
    size_t left = std::min(buffer_len_, pos_ + kBlockSize) - pos_;
    if (ValidFragmentAt(pos_, left)) return true;
    pos_ += kBlockSize;
  }
}

}  // namespace gnomon::wal
