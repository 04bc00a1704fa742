#include "src/encoding/string_codec.h"

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/encoding/block_format.h"
#include "src/encoding/dictionary.h"
#include "src/encoding/int_codec.h"

namespace gnomon::encoding {
namespace {

void EncodePlain(std::span<const std::string_view> v, std::string* out) {
  std::vector<int64_t> lengths(v.size());
  size_t total = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    lengths[i] = static_cast<int64_t>(v[i].size());
    total += v[i].size();
  }
  std::string nested;
  EncodeIntBlock(lengths, &nested);
  PutLengthPrefixed(out, nested);
  out->reserve(out->size() + total);
  for (std::string_view s : v) out->append(s);
}

Status DecodePlain(std::string_view payload, size_t n, std::vector<std::string_view>* out, std::string* arena) {
  std::string_view in = payload;
  std::string_view nested_block;
  if (!GetLengthPrefixed(&in, &nested_block)) {
    return PayloadCorruption(Codec::kPlainStrings, "truncated lengths block", payload, in);
  }
  std::vector<int64_t> lengths;
  Status s = DecodeIntBlock(nested_block, &lengths);
  if (s.ok() && lengths.size() != n) s = Status::Corruption("nested count " + std::to_string(lengths.size()) + " != " + std::to_string(n));
  if (!s.ok()) return s.WithContext("plain_strings: lengths block at payload offset 0");
  size_t total = 0;
  for (int64_t len : lengths) {
    if (len < 0 || static_cast<uint64_t>(len) > in.size() - total) {
      return PayloadCorruption(Codec::kPlainStrings, "string lengths exceed the bytes present", payload, in);
    }
    total += static_cast<size_t>(len);
  }
  if (total != in.size()) return PayloadCorruption(Codec::kPlainStrings, "trailing bytes", payload, in.substr(total));
  arena->assign(in);
  out->resize(n);
  size_t offset = 0;
  for (size_t i = 0; i < n; ++i) {
    (*out)[i] = std::string_view(arena->data() + offset, static_cast<size_t>(lengths[i]));
    offset += static_cast<size_t>(lengths[i]);
  }
  return Status::OK();
}

Status DecodeConstantString(std::string_view payload, size_t n, std::vector<std::string_view>* out,
                            std::string* arena) {
  std::string_view in = payload;
  arena->clear();
  out->clear();
  if (n == 0) return ExpectConsumed(Codec::kConstant, payload, in);
  std::string_view s;
  if (!GetLengthPrefixed(&in, &s)) return PayloadCorruption(Codec::kConstant, "truncated value", payload, in);
  GNOMON_RETURN_IF_ERROR(ExpectConsumed(Codec::kConstant, payload, in));
  arena->assign(s);
  out->assign(n, std::string_view(*arena));
  return Status::OK();
}

}  // namespace

void EncodeStringBlock(std::span<const std::string_view> v, std::string* out) {
  const uint32_t n = static_cast<uint32_t>(v.size());
  GNOMON_CHECK(v.size() <= kMaxBlockValues);
  std::string payload;
  std::vector<std::string_view> distinct;
  std::vector<int64_t> codes;
  // A dictionary pays when values repeat; cap it at half the values so the check stays cheap on
  // mostly-unique columns.
  if (BuildDictionary(v, std::max<size_t>(1, n / 2), &distinct, &codes)) {
    if (distinct.size() <= 1) {
      if (n > 0) PutLengthPrefixed(&payload, v[0]);
      AppendMaybeCompressed(Codec::kConstant, n, payload, /*try_compress=*/false, out);
      return;
    }
    EncodeDictionary(distinct, codes, &payload);
    AppendMaybeCompressed(Codec::kDictionary, n, payload, /*try_compress=*/true, out);
    return;
  }
  EncodePlain(v, &payload);
  AppendMaybeCompressed(Codec::kPlainStrings, n, payload, /*try_compress=*/true, out);
}

Status DecodeStringBlock(std::string_view block, std::vector<std::string_view>* out, std::string* arena) {
  std::string scratch;
  BlockView view;
  GNOMON_RETURN_IF_ERROR(OpenBlock(block, &scratch, &view));
  Status s;
  switch (view.codec) {
    case Codec::kConstant: s = DecodeConstantString(view.payload, view.count, out, arena); break;
    case Codec::kDictionary: s = DecodeDictionary(view.payload, view.count, out, arena); break;
    case Codec::kPlainStrings: s = DecodePlain(view.payload, view.count, out, arena); break;
    default:
      s = Status::Corruption("block: codec " + std::string(CodecName(static_cast<uint8_t>(view.codec))) +
                             " is not a string codec");
  }
  if (!s.ok()) out->clear();
  return s;
}

}  // namespace gnomon::encoding
