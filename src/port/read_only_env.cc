#include "src/port/read_only_env.h"

namespace gnomon::port {

// Counts the bytes a caller meant to write and records them once, when the file goes away.
class DroppingWritableFile final : public WritableFile {
 public:
  DroppingWritableFile(ReadOnlyEnv* env, std::string path, uint64_t size)
      : env_(env), path_(std::move(path)), size_(size) {}
  ~DroppingWritableFile() override { (void)Close(); }

  Status Append(std::string_view data) override {
    size_ += data.size();
    appended_ += data.size();
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override {
    if (appended_ > 0) (void)env_->Record("write " + std::to_string(appended_) + " bytes to " + path_);
    appended_ = 0;
    return Status::OK();
  }
  uint64_t Size() const override { return size_; }

 private:
  ReadOnlyEnv* env_;
  std::string path_;
  uint64_t size_;
  uint64_t appended_ = 0;
};

Result<std::unique_ptr<WritableFile>> ReadOnlyEnv::NewWritableFile(const std::string& path) {
  if (base_->FileExists(path)) {
    (void)Record("replace " + path);
  } else {
    (void)Record("create " + path);
  }
  return std::unique_ptr<WritableFile>(new DroppingWritableFile(this, path, 0));
}

Result<std::unique_ptr<WritableFile>> ReadOnlyEnv::NewAppendableFile(const std::string& path) {
  uint64_t size = 0;
  if (base_->FileExists(path)) {
    GNOMON_ASSIGN_OR_RETURN(size, base_->GetFileSize(path));
  } else {
    (void)Record("create " + path);
  }
  return std::unique_ptr<WritableFile>(new DroppingWritableFile(this, path, size));
}

Status ReadOnlyEnv::CreateDirs(const std::string& dir) {
  if (base_->FileExists(dir)) return Status::OK();
  return Record("create directory " + dir);
}

Status ReadOnlyEnv::Record(std::string change) {
  std::lock_guard<std::mutex> lock(mu_);
  changes_.push_back(std::move(change));
  return Status::OK();
}

std::vector<std::string> ReadOnlyEnv::Changes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return changes_;
}

}  // namespace gnomon::port
