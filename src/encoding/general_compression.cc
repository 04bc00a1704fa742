#include "src/encoding/general_compression.h"

#include <lz4.h>
#include <zstd.h>

#include <memory>

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/encoding/huffman.h"

namespace gnomon::encoding {
namespace {

constexpr int kZstdLevel = 3;
// Matches shorter than 7 bytes in numeric payloads are mostly coincidences of a small alphabet; each one
// costs more than the literals it replaces. Raising the minimum match length leaves those bytes to the
// Huffman literal coder (measured on TSBS cpu-only deltas: 0.365 -> 0.313 bytes/value at level 3).
constexpr int kZstdMinMatch = 7;
constexpr size_t kMinTryBytes = 32;

struct CCtxDeleter {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxDeleter {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

// Context reuse is a per-thread allocation cache only: it never changes what is produced.
ZSTD_CCtx* ThreadCCtx() {
  thread_local std::unique_ptr<ZSTD_CCtx, CCtxDeleter> ctx = [] {
    std::unique_ptr<ZSTD_CCtx, CCtxDeleter> c(ZSTD_createCCtx());
    GNOMON_CHECK(c != nullptr);
    ZSTD_CCtx_setParameter(c.get(), ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(c.get(), ZSTD_c_minMatch, kZstdMinMatch);
    ZSTD_CCtx_setParameter(c.get(), ZSTD_c_contentSizeFlag, 1);
    ZSTD_CCtx_setParameter(c.get(), ZSTD_c_checksumFlag, 0);
    return c;
  }();
  return ctx.get();
}

ZSTD_DCtx* ThreadDCtx() {
  thread_local std::unique_ptr<ZSTD_DCtx, DCtxDeleter> ctx(ZSTD_createDCtx());
  GNOMON_CHECK(ctx != nullptr);
  return ctx.get();
}

bool SavesATenth(size_t stored, size_t raw) { return stored * 10 <= raw * 9; }

// Saves >= 10%, and stays within the expansion bound the decoder enforces on the frame alone (the stored
// form's length prefix is at most 10 bytes).
bool Pays(size_t stored, size_t raw) {
  return SavesATenth(stored, raw) && raw + 10 * kMaxExpansion <= stored * kMaxExpansion;
}

// Appends [raw length][frame] to *stored; false if the library reports an error.
bool CompressInto(Compression compression, std::string_view payload, std::string* stored) {
  PutVarint64(stored, payload.size());
  const size_t header = stored->size();
  if (compression == Compression::kZstd) {
    stored->resize(header + ZSTD_compressBound(payload.size()));
    ZSTD_CCtx* cctx = ThreadCCtx();
    const size_t n = ZSTD_compress2(cctx, stored->data() + header, stored->size() - header, payload.data(),
                                    payload.size());
    ZSTD_CCtx_reset(cctx, ZSTD_reset_session_only);  // parameters are kept for the next call
    if (ZSTD_isError(n)) return false;
    stored->resize(header + n);
    return true;
  }
  if (compression == Compression::kHuffman) {
    if (payload.empty()) return false;
    HuffmanCompress(payload, stored);
    return true;
  }
  stored->resize(header + LZ4_compressBound(static_cast<int>(payload.size())));
  const int n = LZ4_compress_default(payload.data(), stored->data() + header, static_cast<int>(payload.size()),
                                     static_cast<int>(stored->size() - header));
  if (n <= 0) return false;
  stored->resize(header + n);
  return true;
}

}  // namespace

std::string CompressWith(Compression compression, std::string_view payload) {
  GNOMON_CHECK(compression != Compression::kNone && payload.size() <= static_cast<size_t>(LZ4_MAX_INPUT_SIZE));
  std::string stored;
  GNOMON_CHECK(CompressInto(compression, payload, &stored));
  return stored;
}

namespace {
thread_local CompressionEffort thread_effort = CompressionEffort::kFull;
}  // namespace

CompressionEffort ThreadCompressionEffort() { return thread_effort; }

ScopedCompressionEffort::ScopedCompressionEffort(CompressionEffort effort) : previous_(thread_effort) {
  thread_effort = effort;
}

ScopedCompressionEffort::~ScopedCompressionEffort() { thread_effort = previous_; }

Compression CompressPayload(std::string_view payload, std::string* stored) {
  if (payload.size() < kMinTryBytes || payload.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) {
    return Compression::kNone;
  }
  struct Try {
    Compression compression;
    std::string stored;
    bool pays;
  };
  Try tries[] = {{Compression::kZstd, {}, false}, {Compression::kHuffman, {}, false}, {Compression::kLz4, {}, false}};
  Try* best = nullptr;
  const bool fast = thread_effort == CompressionEffort::kFast;
  for (Try& t : tries) {
    if (fast && t.compression == Compression::kZstd) continue;
    // Bit-packed payloads are near-random bytes that Huffman cannot shrink by 10%: when even the
    // entropy bound saves less, the code is not built (the choice is the same; flushes made this
    // trial for every column block, 8% of the server's CPU during a load).
    if (t.compression == Compression::kHuffman &&
        !SavesATenth(VarintLength(payload.size()) + HuffmanCompressedSizeLowerBound(payload), payload.size())) {
      continue;
    }
    t.pays = CompressInto(t.compression, payload, &t.stored) && Pays(t.stored.size(), payload.size());
    if (t.pays && (best == nullptr || t.stored.size() < best->stored.size())) best = &t;
  }
  if (best == nullptr) return Compression::kNone;
  Try& lz4 = tries[2];
  if (lz4.pays && lz4.stored.size() <= best->stored.size() + best->stored.size() / 8) best = &lz4;
  *stored = std::move(best->stored);
  return best->compression;
}

Status DecompressPayload(Compression compression, std::string_view stored, std::string* raw) {
  uint64_t raw_len;
  if (!GetVarint64(&stored, &raw_len)) {
    return Status::Corruption("compressed payload: truncated length at offset 0");
  }
  if (raw_len > stored.size() * kMaxExpansion) {
    return Status::Corruption("compressed payload: declared size " + std::to_string(raw_len) +
                              " implausible for " + std::to_string(stored.size()) + " stored bytes");
  }
  raw->resize(raw_len);
  if (compression == Compression::kZstd) {
    const unsigned long long frame_size = ZSTD_getFrameContentSize(stored.data(), stored.size());
    if (frame_size != raw_len) {
      return Status::Corruption("compressed payload: zstd frame size disagrees with declared " +
                                std::to_string(raw_len));
    }
    // The frame must span the stored bytes exactly, so truncation and trailing garbage are both caught.
    if (ZSTD_findFrameCompressedSize(stored.data(), stored.size()) != stored.size()) {
      return Status::Corruption("compressed payload: zstd frame does not span the stored bytes");
    }
    size_t n = ZSTD_decompressDCtx(ThreadDCtx(), raw->data(), raw->size(), stored.data(), stored.size());
    if (ZSTD_isError(n) || n != raw_len) {
      return Status::Corruption(std::string("compressed payload: zstd: ") +
                                (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short output"));
    }
    return Status::OK();
  }
  if (compression == Compression::kLz4) {
    if (raw_len > static_cast<uint64_t>(LZ4_MAX_INPUT_SIZE) || stored.size() > INT32_MAX) {
      return Status::Corruption("compressed payload: lz4 size out of range");
    }
    int n = LZ4_decompress_safe(stored.data(), raw->data(), static_cast<int>(stored.size()),
                                static_cast<int>(raw_len));
    if (n < 0 || static_cast<uint64_t>(n) != raw_len) {
      return Status::Corruption("compressed payload: lz4 block is malformed or truncated");
    }
    return Status::OK();
  }
  if (compression == Compression::kHuffman) {
    return HuffmanDecompress(stored, raw_len, raw->data()).WithContext("compressed payload");
  }
  return Status::Corruption("compressed payload: unknown compression");
}

}  // namespace gnomon::encoding
