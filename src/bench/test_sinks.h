// Test-only WritableFile sinks for generator tests.
#pragma once

#include <openssl/evp.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "src/port/env.h"

namespace gnomon::bench::testing {

// Keeps everything in memory.
class StringFile final : public port::WritableFile {
 public:
  Status Append(std::string_view data) override {
    data_.append(data);
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  uint64_t Size() const override { return data_.size(); }
  const std::string& data() const { return data_; }

 private:
  std::string data_;
};

// Streams: SHA-256 of all bytes, line count per measurement, and the first `keep_lines` lines.
class DigestFile final : public port::WritableFile {
 public:
  explicit DigestFile(size_t keep_lines) : keep_lines_(keep_lines), sha_(EVP_MD_CTX_new()) {
    EVP_DigestInit_ex(sha_, EVP_sha256(), nullptr);
  }
  ~DigestFile() override { EVP_MD_CTX_free(sha_); }

  Status Append(std::string_view data) override {
    EVP_DigestUpdate(sha_, data.data(), data.size());
    size_ += data.size();
    size_t start = 0;
    while (start < data.size()) {
      size_t nl = data.find('\n', start);
      if (nl == std::string_view::npos) {
        partial_.append(data.substr(start));
        break;
      }
      partial_.append(data.substr(start, nl - start));
      EndLine();
      start = nl + 1;
    }
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  uint64_t Size() const override { return size_; }

  std::string HexDigest() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(sha_, md, &len);
    std::string hex;
    char b[3];
    for (unsigned int i = 0; i < len; ++i) {
      std::snprintf(b, sizeof(b), "%02x", md[i]);
      hex += b;
    }
    return hex;
  }
  const std::map<std::string, uint64_t>& counts() const { return counts_; }
  const std::vector<std::string>& first_lines() const { return first_lines_; }
  uint64_t lines() const { return lines_; }

 private:
  void EndLine() {
    ++lines_;
    size_t end = partial_.find_first_of(", ");
    ++counts_[partial_.substr(0, end)];
    if (first_lines_.size() < keep_lines_) first_lines_.push_back(partial_);
    partial_.clear();
  }

  size_t keep_lines_;
  EVP_MD_CTX* sha_;
  uint64_t size_ = 0;
  uint64_t lines_ = 0;
  std::string partial_;
  std::map<std::string, uint64_t> counts_;
  std::vector<std::string> first_lines_;
};

}  // namespace gnomon::bench::testing
