#include "src/bench/input_source.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gnomon::bench {
namespace {

bool EndsWith(const std::string& s, const char* suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

class FdSource : public ByteSource {
 public:
  FdSource(std::string name, int fd, bool owned, uint64_t size, pid_t child = -1)
      : name_(std::move(name)), fd_(fd), owned_(owned), size_(size), child_(child) {}
  ~FdSource() override { (void)Close(); }

  Result<size_t> Read(char* buf, size_t n) override {
    while (true) {
      ssize_t r = ::read(fd_, buf, n);
      if (r >= 0) {
        position_ += static_cast<uint64_t>(r);
        return static_cast<size_t>(r);
      }
      if (errno != EINTR) return Status::FromErrno("read " + name_, errno);
    }
  }
  uint64_t PositionOnDisk() const override { return child_ >= 0 ? 0 : position_; }
  uint64_t SizeOnDisk() const override { return size_; }

  // Maps the whole file (a regular, non-empty one) for Contents(); without a mapping the source
  // still reads.
  void Map() {
    if (size_ == 0) return;
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
    if (p == MAP_FAILED) return;
    ::madvise(p, size_, MADV_SEQUENTIAL);
    map_ = static_cast<const char*>(p);
  }
  std::string_view Contents() const override {
    return map_ == nullptr ? std::string_view() : std::string_view(map_, size_);
  }
  void Release(uint64_t end) override {
    const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    end = std::min(end, size_) / page * page;
    if (map_ == nullptr || end <= released_) return;
    ::madvise(const_cast<char*>(map_) + released_, end - released_, MADV_DONTNEED);
    ::posix_fadvise(fd_, static_cast<off_t>(released_), static_cast<off_t>(end - released_), POSIX_FADV_DONTNEED);
    released_ = end;
  }

  Status Close() override {
    Status s;
    if (map_ != nullptr) ::munmap(const_cast<char*>(map_), size_);
    map_ = nullptr;
    if (fd_ >= 0 && owned_) ::close(fd_);
    fd_ = -1;
    if (child_ >= 0) {
      int wstatus = 0;
      while (::waitpid(child_, &wstatus, 0) < 0 && errno == EINTR) {
      }
      child_ = -1;
      if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
        s = Status::IOError("xz -dc " + name_ + " failed (exit status " +
                            std::to_string(WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1) + ")");
      }
    }
    return s;
  }

 private:
  std::string name_;
  int fd_;
  bool owned_;
  uint64_t size_;
  pid_t child_;
  uint64_t position_ = 0;
  const char* map_ = nullptr;
  uint64_t released_ = 0;  // Contents() before this was given back (page-aligned)
};

class GzipSource : public ByteSource {
 public:
  GzipSource(std::string name, gzFile file, int raw_fd, uint64_t size)
      : name_(std::move(name)), file_(file), raw_fd_(raw_fd), size_(size) {}
  ~GzipSource() override { (void)Close(); }

  Result<size_t> Read(char* buf, size_t n) override {
    int r = gzread(file_, buf, static_cast<unsigned>(std::min<size_t>(n, 1u << 30)));
    if (r < 0) {
      int errnum = 0;
      const char* msg = gzerror(file_, &errnum);
      return Status::Corruption("gzip " + name_ + ": " + (msg ? msg : "read error"));
    }
    return static_cast<size_t>(r);
  }
  uint64_t PositionOnDisk() const override {
    off_t pos = ::lseek(raw_fd_, 0, SEEK_CUR);  // the compressed bytes zlib consumed so far
    return pos < 0 ? 0 : static_cast<uint64_t>(pos);
  }
  uint64_t SizeOnDisk() const override { return size_; }
  Status Close() override {
    if (file_ != nullptr) gzclose(file_);  // closes raw_fd_
    file_ = nullptr;
    return Status::OK();
  }

 private:
  std::string name_;
  gzFile file_;
  int raw_fd_;
  uint64_t size_;
};

class StringSource : public ByteSource {
 public:
  explicit StringSource(std::string data) : data_(std::move(data)) {}
  Result<size_t> Read(char* buf, size_t n) override {
    size_t k = std::min(n, data_.size() - pos_);
    std::memcpy(buf, data_.data() + pos_, k);
    pos_ += k;
    return k;
  }
  uint64_t PositionOnDisk() const override { return pos_; }
  uint64_t SizeOnDisk() const override { return data_.size(); }
  Status Close() override { return Status::OK(); }

 private:
  std::string data_;
  size_t pos_ = 0;
};

Result<std::unique_ptr<ByteSource>> OpenXz(const std::string& path) {
  if (::access(path.c_str(), R_OK) != 0) return Status::FromErrno("open " + path, errno);
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) return Status::FromErrno("pipe", errno);
  pid_t pid = ::fork();
  if (pid < 0) {
    int err = errno;
    ::close(pipefd[0]);
    ::close(pipefd[1]);
    return Status::FromErrno("fork", err);
  }
  if (pid == 0) {
    ::dup2(pipefd[1], STDOUT_FILENO);
    ::execlp("xz", "xz", "-dc", "--", path.c_str(), static_cast<char*>(nullptr));
    _exit(127);  // xz not installed
  }
  ::close(pipefd[1]);
  return std::unique_ptr<ByteSource>(
      std::make_unique<FdSource>(path, pipefd[0], /*owned=*/true, /*size=*/0, pid));
}

}  // namespace

Result<std::unique_ptr<ByteSource>> OpenByteSource(const std::string& path) {
  if (path == "-") {
    return std::unique_ptr<ByteSource>(std::make_unique<FdSource>("stdin", 0, false, 0));
  }
  if (EndsWith(path, ".xz")) return OpenXz(path);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno("open " + path, errno);
  struct stat st;
  uint64_t size = (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) ? st.st_size : 0;
  if (EndsWith(path, ".gz")) {
    gzFile file = gzdopen(fd, "rb");
    if (file == nullptr) {
      ::close(fd);
      return Status::IOError("gzdopen " + path);
    }
    gzbuffer(file, 1 << 20);
    return std::unique_ptr<ByteSource>(std::make_unique<GzipSource>(path, file, fd, size));
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  auto source = std::make_unique<FdSource>(path, fd, true, size);
  source->Map();
  return std::unique_ptr<ByteSource>(std::move(source));
}

std::unique_ptr<ByteSource> NewStringByteSource(std::string data) {
  return std::make_unique<StringSource>(std::move(data));
}

}  // namespace gnomon::bench
