// Public entry points of the codec layer: one self-describing block per call.
//
// Block layout (docs/format/encoding.md): [codec tag: u8][value count: varint32][payload]. The encoder
// picks the codec per block from a cheap analysis of the data's shape, keeps the smallest candidate and
// then applies zstd or lz4 over the payload where that pays (marked in the tag's top bits).
// Kernels are pure functions over spans: no I/O, no shared state, caller-owned output; safe to call
// from any number of threads.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/status.h"
#include "src/encoding/chunked_delta.h"
#include "src/encoding/codec_tag.h"

namespace gnomon::encoding {

// Each Encode* appends ONE block to *out. REQUIRES: values.size() <= 1 << 20.
void EncodeTimestamps(std::span<const int64_t> values, std::string* out);  // usually ascending, often constant step
void EncodeInt64s(std::span<const int64_t> values, std::string* out);
void EncodeUInt64s(std::span<const uint64_t> values, std::string* out);
// As above, asking for seek points at the layout's chunk starts (used when the block's winner is
// the Huffman-coded delta stream; see DecodeInt64Range).
void EncodeInt64s(std::span<const int64_t> values, const ChunkLayout& layout, std::string* out);
void EncodeUInt64s(std::span<const uint64_t> values, const ChunkLayout& layout, std::string* out);
// Round-trips bit-exactly: NaN payloads, ±Inf, -0.0 and denormals included.
void EncodeFloat64s(std::span<const double> values, std::string* out);
// Each 0 or 1 (any other value is stored as 1).
void EncodeBools(std::span<const uint8_t> values, std::string* out);
void EncodeStrings(std::span<const std::string_view> values, std::string* out);

// Decoders replace *out's contents with the block's values. `block` must be exactly one block (no trailing
// bytes). Malformed input (truncated, wrong tag, counts that don't fit, overflow) returns
// Status::Corruption with the reason and offset, leaving *out empty; decoders never read outside `block`.
Status DecodeTimestamps(std::string_view block, std::vector<int64_t>* out);
Status DecodeInt64s(std::string_view block, std::vector<int64_t>* out);
Status DecodeUInt64s(std::string_view block, std::vector<uint64_t>* out);
Status DecodeFloat64s(std::string_view block, std::vector<double>* out);
Status DecodeBools(std::string_view block, std::vector<uint8_t>* out);
// Strings decode into views over *arena (which the decoder fills); views stay valid while *arena is unchanged.
Status DecodeStrings(std::string_view block, std::vector<std::string_view>* out, std::string* arena);

// Decode values [begin, end) only (out holds end - begin values). A chunked block decodes just the
// chunks holding the range; other codecs may decode the whole block. InvalidArgument when the range
// is not inside the block; Corruption as above.
Status DecodeInt64Range(std::string_view block, uint32_t begin, uint32_t end, std::vector<int64_t>* out);

// The same ranges of several integer blocks (e.g. the columns of one row group), block i into
// *outs[i]; chunked blocks are decoded side by side (see DecodeChunkedTogether).
Status DecodeInt64RangesMany(std::span<const std::string_view> blocks,
                             std::span<const std::pair<uint32_t, uint32_t>> ranges,
                             std::span<std::vector<int64_t>* const> outs);

// True when `block` is an arithmetic progression (constant_delta): then *first and *step describe
// it and value i is first + i * step (mod 2^64). Reads only the header and two varints.
bool PeekConstantStep(std::string_view block, int64_t* first, int64_t* step);

// True when `block` is an uncompressed chunked_delta block: then *layout holds its seek points (a
// decode of rows [b, e) starts at the chunk holding b). Reads only the header and two varints.
bool PeekChunkLayout(std::string_view block, ChunkLayout* layout);

// Reads only the header: codec tag and value count.
Status PeekBlockHeader(std::string_view block, uint8_t* codec, uint32_t* count);

}  // namespace gnomon::encoding
