#include "src/bench/output_file.h"

#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <string>
#include <vector>

namespace gnomon::bench {
namespace {

class FdWritableFile final : public port::WritableFile {
 public:
  explicit FdWritableFile(int fd) : fd_(fd) {}

  Status Append(std::string_view data) override {
    while (!data.empty()) {
      ssize_t n = ::write(fd_, data.data(), data.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::FromErrno("write fd " + std::to_string(fd_), errno);
      }
      data.remove_prefix(static_cast<size_t>(n));
      size_ += static_cast<uint64_t>(n);
    }
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  uint64_t Size() const override { return size_; }

 private:
  int fd_;
  uint64_t size_ = 0;
};

class GzipWritableFile final : public port::WritableFile {
 public:
  GzipWritableFile(std::unique_ptr<port::WritableFile> dest, int level) : dest_(std::move(dest)) {
    // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
    init_status_ = deflateInit2(&zs_, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    out_.resize(1 << 18);
  }
  ~GzipWritableFile() override {
    if (init_status_ == Z_OK) deflateEnd(&zs_);
  }

  Status Append(std::string_view data) override {
    size_ += data.size();
    return Deflate(data, Z_NO_FLUSH);
  }
  Status Flush() override { return dest_->Flush(); }
  Status Sync() override { return dest_->Sync(); }
  Status Close() override {
    if (closed_) return Status::OK();
    closed_ = true;
    GNOMON_RETURN_IF_ERROR(Deflate({}, Z_FINISH));
    return dest_->Close();
  }
  uint64_t Size() const override { return size_; }

 private:
  Status Deflate(std::string_view data, int flush) {
    if (init_status_ != Z_OK) return Status::Internal("deflateInit2 failed");
    zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs_.avail_in = static_cast<uInt>(data.size());
    for (;;) {
      zs_.next_out = reinterpret_cast<Bytef*>(out_.data());
      zs_.avail_out = static_cast<uInt>(out_.size());
      int rc = deflate(&zs_, flush);
      if (rc == Z_STREAM_ERROR) return Status::Internal("deflate failed");
      size_t produced = out_.size() - zs_.avail_out;
      if (produced > 0) GNOMON_RETURN_IF_ERROR(dest_->Append({out_.data(), produced}));
      if (flush == Z_FINISH ? rc == Z_STREAM_END : (zs_.avail_in == 0 && zs_.avail_out != 0)) break;
    }
    return Status::OK();
  }

  std::unique_ptr<port::WritableFile> dest_;
  z_stream zs_{};
  int init_status_;
  std::vector<char> out_;
  uint64_t size_ = 0;
  bool closed_ = false;
};

}  // namespace

std::unique_ptr<port::WritableFile> NewFdWritableFile(int fd) { return std::make_unique<FdWritableFile>(fd); }

std::unique_ptr<port::WritableFile> NewGzipWritableFile(std::unique_ptr<port::WritableFile> dest, int level) {
  return std::make_unique<GzipWritableFile>(std::move(dest), level);
}

}  // namespace gnomon::bench
