// GzipDecoder: inflates gzip request bodies (Content-Encoding: gzip) with libdeflate, under a limit
// on the decompressed size so that a small "gzip bomb" cannot exhaust memory.
// Not thread-safe: one per connection; its output buffer is reused across requests.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "src/base/result.h"

struct libdeflate_decompressor;

namespace gnomon::server::http {

class GzipDecoder {
 public:
  GzipDecoder();
  ~GzipDecoder();
  GzipDecoder(const GzipDecoder&) = delete;
  GzipDecoder& operator=(const GzipDecoder&) = delete;

  // Inflates every gzip member of `compressed` (concatenated members are one stream, RFC 1952).
  // Returns a view of the output, valid until the next call or Trim().
  // Errors: ResourceExhausted when the output would exceed `max_bytes`; Corruption when the data
  // is not valid gzip (bad header, bad deflate stream, CRC or length mismatch, trailing garbage).
  Result<std::string_view> Decompress(std::string_view compressed, size_t max_bytes);

  // Frees the output buffer when it grew past `keep_bytes` (after an unusually large request).
  void Trim(size_t keep_bytes);

  size_t capacity() const { return capacity_; }

 private:
  // Grows the buffer to at least `size` bytes, keeping the first `keep` bytes.
  void Reserve(size_t size, size_t keep);

  libdeflate_decompressor* decompressor_;
  std::unique_ptr<char[]> buffer_;  // uninitialised on purpose: libdeflate overwrites it
  size_t capacity_ = 0;
};

}  // namespace gnomon::server::http
