// The integer block codec: picks among constant, constant-delta, RLE, FOR, delta-FOR,
// delta-of-delta-FOR, varint and delta-varint from one cheap analysis of the block, then offers the
// winner (and the byte-aligned delta stream when deltas are small) to the general-purpose stage.
// Shared by int64, uint64 (bit-reinterpreted), timestamps and the nested blocks of other codecs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/status.h"
#include "src/encoding/block_format.h"

namespace gnomon::encoding {

// Appends one self-describing integer block. REQUIRES: v.size() <= kMaxBlockValues.
void EncodeIntBlock(std::span<const int64_t> v, std::string* out);

// Decodes an opened block's payload into out[0..view.count). Corruption for a non-integer codec.
Status DecodeIntPayload(const BlockView& view, int64_t* out);

// Opens and decodes a whole integer block into *out (replacing its contents).
Status DecodeIntBlock(std::string_view block, std::vector<int64_t>* out);

}  // namespace gnomon::encoding
