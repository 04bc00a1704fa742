// The general-purpose stage: zstd, lz4 or an order-0 Huffman code over a codec's payload, kept only
// where it pays.
//
// Stored form of a compressed payload: [raw length: varint][zstd frame | lz4 block | huffman.h stream].
// The codec kernels leave byte-aligned, skewed streams (e.g. small zigzag deltas one per byte) for the
// entropy coders; bit-packed payloads rarely shrink further and stay uncompressed.
#pragma once

#include <string>
#include <string_view>

#include "src/base/status.h"
#include "src/encoding/codec_tag.h"

namespace gnomon::encoding {

// A compressed payload never expands more than this when decompressed; the encoder refuses better
// ratios (the codecs handle such data: constant, RLE, dictionary) so the decoder can bound the buffer it
// allocates for a hostile size.
inline constexpr size_t kMaxExpansion = 1024;

// How hard CompressPayload tries, per thread. kFast leaves zstd out (Huffman and lz4 are tried):
// for segments that are rewritten soon, such as a flush's, which compaction merges.
enum class CompressionEffort : uint8_t { kFull, kFast };
CompressionEffort ThreadCompressionEffort();
// Sets this thread's effort while in scope.
class ScopedCompressionEffort {
 public:
  explicit ScopedCompressionEffort(CompressionEffort effort);
  ~ScopedCompressionEffort();
  ScopedCompressionEffort(const ScopedCompressionEffort&) = delete;
  ScopedCompressionEffort& operator=(const ScopedCompressionEffort&) = delete;

 private:
  CompressionEffort previous_;
};

// Compresses `payload` with zstd (not at kFast effort), lz4 and Huffman; returns the one kept (the smallest, except lz4 when
// within 12.5% of it, as lz4 decodes fastest) and its stored form in *stored, or kNone (stored
// untouched) when none saves >= 10%.
// Payloads under 32 bytes are not tried.
Compression CompressPayload(std::string_view payload, std::string* stored);

// The stored form of `payload` under `compression` (not kNone), whether or not it pays. For tests and
// tools that need a particular form; encoders use CompressPayload.
std::string CompressWith(Compression compression, std::string_view payload);

// Replaces *raw with the decompressed payload. Corruption when the stored form is truncated, declares an
// implausible size, fails to decompress, or decompresses to a different size than declared.
Status DecompressPayload(Compression compression, std::string_view stored, std::string* raw);

}  // namespace gnomon::encoding
