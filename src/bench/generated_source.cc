#include "src/bench/generated_source.h"

#include <cstring>
#include <string>
#include <thread>

#include "src/bench/bounded_queue.h"

namespace gnomon::bench {
namespace {

constexpr size_t kChunkBytes = 1 << 20;
constexpr size_t kChunksAhead = 4;

// The generator's destination: cuts the stream into chunks and hands them to the reader.
class ChunkPipe final : public port::WritableFile {
 public:
  explicit ChunkPipe(BoundedQueue<std::string>* queue) : queue_(queue) {}

  Status Append(std::string_view data) override {
    size_ += data.size();
    while (!data.empty()) {
      size_t take = std::min(data.size(), kChunkBytes - chunk_.size());
      chunk_.append(data.substr(0, take));
      data.remove_prefix(take);
      if (chunk_.size() == kChunkBytes) GNOMON_RETURN_IF_ERROR(Flush());
    }
    return Status::OK();
  }
  Status Flush() override {
    if (chunk_.empty()) return Status::OK();
    if (!queue_->Push(std::move(chunk_))) return Status::Aborted("generated source closed");
    chunk_ = std::string();
    chunk_.reserve(kChunkBytes);
    return Status::OK();
  }
  Status Sync() override { return Flush(); }
  Status Close() override { return Flush(); }
  uint64_t Size() const override { return size_; }

 private:
  BoundedQueue<std::string>* const queue_;
  std::string chunk_;
  uint64_t size_ = 0;
};

class GeneratedByteSource final : public ByteSource {
 public:
  explicit GeneratedByteSource(DataGenConfig config) : queue_(kChunksAhead) {
    producer_ = std::thread([this, config = std::move(config)] {
      ChunkPipe pipe(&queue_);
      Status s = GenerateData(config, &pipe).status();
      if (s.ok()) s = pipe.Close();
      status_ = s;  // published to Close() by the join
      queue_.Finish();
    });
  }
  ~GeneratedByteSource() override { Stop(); }

  Result<size_t> Read(char* buf, size_t n) override {
    size_t copied = 0;
    while (copied < n) {
      if (pos_ == chunk_.size()) {
        std::optional<std::string> next = queue_.Pop();
        if (!next) break;
        chunk_ = std::move(*next);
        pos_ = 0;
        continue;
      }
      size_t take = std::min(n - copied, chunk_.size() - pos_);
      std::memcpy(buf + copied, chunk_.data() + pos_, take);
      pos_ += take;
      copied += take;
    }
    read_ += copied;
    return copied;
  }
  uint64_t PositionOnDisk() const override { return read_; }
  uint64_t SizeOnDisk() const override { return 0; }
  Status Close() override {
    Stop();
    // A generator stopped by this Close reports Aborted: not an error of the source.
    return status_.code() == Status::Code::kAborted ? Status::OK() : status_;
  }

 private:
  void Stop() {
    if (!producer_.joinable()) return;
    queue_.Abort();
    producer_.join();
  }

  BoundedQueue<std::string> queue_;
  std::thread producer_;
  Status status_;
  std::string chunk_;
  size_t pos_ = 0;
  uint64_t read_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> NewGeneratedByteSource(DataGenConfig config) {
  return std::make_unique<GeneratedByteSource>(std::move(config));
}

}  // namespace gnomon::bench
