// The integer block codec: picks among constant, constant-delta, RLE, FOR, delta-FOR,
// delta-of-delta-FOR, varint and delta-varint from one cheap analysis of the block, then offers the
// winner (and the byte-aligned delta stream when deltas are small) to the general-purpose stage.
// Shared by int64, uint64 (bit-reinterpreted), timestamps and the nested blocks of other codecs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/status.h"
#include "src/encoding/block_format.h"
#include "src/encoding/chunked_delta.h"

namespace gnomon::encoding {

// Appends one self-describing integer block. REQUIRES: v.size() <= kMaxBlockValues.
// With a chunk layout, a block that would be delta_varint+huffman is written as chunked_delta
// instead (the same coding, seekable at the layout's chunk starts).
void EncodeIntBlock(std::span<const int64_t> v, std::string* out, const ChunkLayout& layout = {});

// Decodes an opened block's payload into out[0..view.count). Corruption for a non-integer codec.
Status DecodeIntPayload(const BlockView& view, int64_t* out);

// A run of values [begin, end) of a block.
using ValueRange = std::pair<uint32_t, uint32_t>;

// Decodes the values of `ranges` of an opened block, concatenated, into out. REQUIRES: each range
// begin <= end <= view.count. chunked_delta decodes only the chunks holding them (parsing its
// header once); constant blocks just fill; the others decode the whole block into *scratch first.
Status DecodeIntPayloadRanges(const BlockView& view, std::span<const ValueRange> ranges, int64_t* out,
                              std::vector<int64_t>* scratch);

// Opens and decodes a whole integer block into *out (replacing its contents).
Status DecodeIntBlock(std::string_view block, std::vector<int64_t>* out);

}  // namespace gnomon::encoding
