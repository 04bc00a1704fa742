// The frame every block shares: [tag: u8][count: varint32][payload], where a compressed payload is
// stored as general_compression.h describes. Internal to src/encoding.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/base/status.h"
#include "src/encoding/codec_tag.h"

namespace gnomon::encoding {

// The most values one block may hold; decoders reject larger counts before allocating.
inline constexpr uint32_t kMaxBlockValues = 1u << 20;

struct BlockView {
  Codec codec;
  Compression compression;
  uint32_t count;
  std::string_view payload;  // decompressed; valid while the block and the scratch buffer are
};

// Parses the header and, for a compressed block, decompresses the payload into *scratch.
Status OpenBlock(std::string_view block, std::string* scratch, BlockView* view);

// Appends [tag][count][stored payload].
void AppendBlock(Codec codec, Compression compression, uint32_t count, std::string_view stored,
                 std::string* out);

// Appends the block, compressing the payload when that pays and `try_compress` is set.
void AppendMaybeCompressed(Codec codec, uint32_t count, std::string_view payload, bool try_compress,
                           std::string* out);

// Corruption naming the codec, what went wrong, and the payload offset where it did
// (`rest` is the unread suffix of `payload`).
Status PayloadCorruption(Codec codec, std::string_view what, std::string_view payload, std::string_view rest);

// Corruption unless the payload was consumed exactly.
inline Status ExpectConsumed(Codec codec, std::string_view payload, std::string_view rest) {
  if (rest.empty()) return Status::OK();
  return PayloadCorruption(codec, "trailing bytes", payload, rest);
}

}  // namespace gnomon::encoding
