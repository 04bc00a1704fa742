#include "src/server/http/gzip_decoder.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstring>

#include "src/base/check.h"
#include "src/base/coding.h"

namespace gnomon::server::http {
namespace {

constexpr size_t kGzipMinMemberBytes = 18;  // 10-byte header + empty deflate block + 8-byte trailer
constexpr size_t kInitialBytes = 64 << 10;

}  // namespace

GzipDecoder::GzipDecoder() : decompressor_(libdeflate_alloc_decompressor()) {
  GNOMON_CHECK(decompressor_ != nullptr);
}

GzipDecoder::~GzipDecoder() { libdeflate_free_decompressor(decompressor_); }

void GzipDecoder::Reserve(size_t size, size_t keep) {
  if (size <= capacity_) return;
  std::unique_ptr<char[]> bigger(new char[size]);
  if (keep > 0) std::memcpy(bigger.get(), buffer_.get(), keep);
  buffer_ = std::move(bigger);
  capacity_ = size;
}

void GzipDecoder::Trim(size_t keep_bytes) {
  if (capacity_ > keep_bytes) {
    buffer_.reset();
    capacity_ = 0;
  }
}

Result<std::string_view> GzipDecoder::Decompress(std::string_view compressed, size_t max_bytes) {
  if (compressed.size() < kGzipMinMemberBytes) {
    return Status::Corruption("gzip body too short (" + std::to_string(compressed.size()) +
                              " bytes)");
  }
  if (static_cast<uint8_t>(compressed[0]) != 0x1f || static_cast<uint8_t>(compressed[1]) != 0x8b) {
    return Status::Corruption("body is not gzip (bad magic bytes)");
  }
  // The trailer's ISIZE (uncompressed length mod 2^32) of the last member sizes the first buffer.
  // It is only a hint, since the sender controls it: the limit is enforced while inflating.
  uint32_t size_hint = DecodeFixed32(compressed.data() + compressed.size() - 4);
  size_t want = std::max<size_t>({size_hint, kInitialBytes, compressed.size() * 4});
  Reserve(std::max<size_t>(1, std::min(want, max_bytes)), 0);

  size_t written = 0;
  const char* in = compressed.data();
  size_t in_left = compressed.size();
  while (in_left > 0) {
    size_t avail = std::min(capacity_, max_bytes) - written;
    size_t in_used = 0, out_used = 0;
    libdeflate_result r = libdeflate_gzip_decompress_ex(
        decompressor_, in, in_left, buffer_.get() + written, avail, &in_used, &out_used);
    if (r == LIBDEFLATE_SUCCESS) {
      written += out_used;
      in += in_used;
      in_left -= in_used;
      continue;
    }
    if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
      if (capacity_ >= max_bytes) {
        return Status::ResourceExhausted("gzip body inflates to more than the limit of " +
                                         std::to_string(max_bytes) + " bytes");
      }
      Reserve(std::min(capacity_ * 2, max_bytes), written);  // retry this member from its start
      continue;
    }
    if (written > 0 && std::all_of(in, in + in_left, [](char c) { return c == 0; })) {
      break;  // zero padding after the last member (some writers pad to a block size)
    }
    return Status::Corruption(
        "invalid gzip body at compressed offset " + std::to_string(in - compressed.data()) +
        (r == LIBDEFLATE_BAD_DATA ? ": bad data" : ": truncated or malformed stream"));
  }
  return std::string_view(buffer_.get(), written);
}

}  // namespace gnomon::server::http
