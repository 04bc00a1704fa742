#include "src/encoding/dictionary.h"

#include <unordered_map>

#include "src/base/coding.h"
#include "src/encoding/block_format.h"
#include "src/encoding/int_codec.h"

namespace gnomon::encoding {

bool BuildDictionary(std::span<const std::string_view> v, size_t max_distinct,
                     std::vector<std::string_view>* distinct, std::vector<int64_t>* codes) {
  std::unordered_map<std::string_view, int64_t> index;
  distinct->clear();
  codes->resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    auto [it, inserted] = index.try_emplace(v[i], static_cast<int64_t>(distinct->size()));
    if (inserted) {
      if (distinct->size() == max_distinct) return false;
      distinct->push_back(v[i]);
    }
    (*codes)[i] = it->second;
  }
  return true;
}

void EncodeDictionary(std::span<const std::string_view> distinct, std::span<const int64_t> codes,
                      std::string* out) {
  PutVarint64(out, distinct.size());
  for (std::string_view s : distinct) PutLengthPrefixed(out, s);
  EncodeIntBlock(codes, out);
}

Status DecodeDictionary(std::string_view payload, size_t n, std::vector<std::string_view>* out,
                        std::string* arena) {
  std::string_view in = payload;
  uint64_t distinct;
  if (!GetVarint64(&in, &distinct) || distinct > n || (n > 0 && distinct == 0)) {
    return PayloadCorruption(Codec::kDictionary, "missing or impossible dictionary size", payload, in);
  }
  // First pass: validate entries and size the arena, so views taken below stay valid.
  std::vector<std::pair<size_t, size_t>> spans(distinct);  // (arena offset, length)
  std::string_view entries = in;
  size_t total = 0;
  for (uint64_t k = 0; k < distinct; ++k) {
    std::string_view s;
    if (!GetLengthPrefixed(&in, &s)) return PayloadCorruption(Codec::kDictionary, "truncated entry", payload, in);
    spans[k] = {total, s.size()};
    total += s.size();
  }
  arena->clear();
  arena->reserve(total);
  for (uint64_t k = 0; k < distinct; ++k) {
    std::string_view s;
    GetLengthPrefixed(&entries, &s);  // validated above
    arena->append(s);
  }

  std::string scratch;
  BlockView nested;
  std::vector<int64_t> codes(n);
  Status s = OpenBlock(in, &scratch, &nested);
  if (s.ok() && nested.count != n) s = Status::Corruption("nested count " + std::to_string(nested.count) + " != " + std::to_string(n));
  if (s.ok()) s = DecodeIntPayload(nested, codes.data());
  if (!s.ok()) {
    return s.WithContext("dictionary: codes block at payload offset " + std::to_string(payload.size() - in.size()));
  }
  out->resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<uint64_t>(codes[i]) >= distinct) {
      out->clear();
      return Status::Corruption("dictionary: code " + std::to_string(codes[i]) + " out of range at value " +
                                std::to_string(i));
    }
    const auto& [offset, length] = spans[codes[i]];
    (*out)[i] = std::string_view(arena->data() + offset, length);
  }
  return Status::OK();
}

}  // namespace gnomon::encoding
