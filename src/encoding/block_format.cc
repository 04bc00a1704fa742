#include "src/encoding/block_format.h"

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/encoding/general_compression.h"

namespace gnomon::encoding {

Status OpenBlock(std::string_view block, std::string* scratch, BlockView* view) {
  if (block.empty()) return Status::Corruption("block: empty, expected a codec tag at offset 0");
  const uint8_t tag = static_cast<uint8_t>(block[0]);
  if (!IsValidTag(tag)) {
    return Status::Corruption("block: unknown codec tag " + std::to_string(tag) + " at offset 0");
  }
  std::string_view rest = block.substr(1);
  uint32_t count;
  if (!GetVarint32(&rest, &count)) return Status::Corruption("block: truncated value count at offset 1");
  if (count > kMaxBlockValues) {
    return Status::Corruption("block: value count " + std::to_string(count) + " exceeds limit at offset 1");
  }
  view->codec = static_cast<Codec>(TagCodecId(tag));
  view->compression = static_cast<Compression>(TagCompressionId(tag));
  view->count = count;
  if (view->compression == Compression::kNone) {
    view->payload = rest;
    return Status::OK();
  }
  Status s = DecompressPayload(view->compression, rest, scratch);
  if (!s.ok()) return s.WithContext("block at offset " + std::to_string(block.size() - rest.size()));
  view->payload = *scratch;
  return Status::OK();
}

void AppendBlock(Codec codec, Compression compression, uint32_t count, std::string_view stored,
                 std::string* out) {
  GNOMON_CHECK(count <= kMaxBlockValues);
  out->push_back(static_cast<char>(MakeTag(codec, compression)));
  PutVarint32(out, count);
  out->append(stored);
}

void AppendMaybeCompressed(Codec codec, uint32_t count, std::string_view payload, bool try_compress,
                           std::string* out) {
  std::string stored;
  const Compression c = try_compress ? CompressPayload(payload, &stored) : Compression::kNone;
  AppendBlock(codec, c, count, c == Compression::kNone ? payload : std::string_view(stored), out);
}

Status PayloadCorruption(Codec codec, std::string_view what, std::string_view payload, std::string_view rest) {
  return Status::Corruption(std::string(CodecName(static_cast<uint8_t>(codec))) + ": " + std::string(what) +
                            " at payload offset " + std::to_string(payload.size() - rest.size()));
}

}  // namespace gnomon::encoding
