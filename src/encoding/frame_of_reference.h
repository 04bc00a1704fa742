// Frame-of-reference (FOR) bit-packing of int64 streams in groups of kForGroupSize values
// (Lemire & Boytsov, "Decoding billions of integers per second through vectorization", 2015).
//
// Each group: [width: u8][base: zigzag varint][PackedBytes(group_size, width) bytes], where base is the
// group's minimum and every value is stored as (value - base) mod 2^64 in `width` bits. Group sizes are
// implied by the total count the caller knows. Arithmetic wraps, so any int64 stream round-trips.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gnomon::encoding {

inline constexpr size_t kForGroupSize = 128;

// Exactly the number of bytes ForEncode would append (a cheap pass for the codec chooser).
size_t ForEncodedSize(std::span<const int64_t> values);
void ForEncode(std::span<const int64_t> values, std::string* out);

// Decodes n values from the front of *in, consuming them. Returns false (leaving *in at the bad group)
// when the input is truncated or a width exceeds 64.
bool ForDecode(std::string_view* in, size_t n, int64_t* out);

// Like ForDecode over a stream of deltas, writing their running sum seeded with `start`:
// out[i] = start + d[0] + ... + d[i] (mod 2^64). Fuses the prefix sum into the unpack pass.
bool ForDecodeDelta(std::string_view* in, size_t n, int64_t start, int64_t* out);

}  // namespace gnomon::encoding
