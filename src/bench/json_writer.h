// A minimal JSON text writer for the benchmark's result files (TSBS-style results, reports).
// The caller is responsible for well-formed nesting; commas are inserted automatically.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace gnomon::bench {

class JsonWriter {
 public:
  JsonWriter& BeginObject() { Separate(); out_ += '{'; first_.push_back(true); return *this; }
  JsonWriter& EndObject() { out_ += '}'; first_.pop_back(); return *this; }
  JsonWriter& BeginArray() { Separate(); out_ += '['; first_.push_back(true); return *this; }
  JsonWriter& EndArray() { out_ += ']'; first_.pop_back(); return *this; }
  JsonWriter& Key(std::string_view key) {
    Separate();
    AppendQuoted(key);
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  JsonWriter& String(std::string_view value) { Separate(); AppendQuoted(value); return *this; }
  JsonWriter& Int(int64_t value) { Separate(); out_ += std::to_string(value); return *this; }
  JsonWriter& Uint(uint64_t value) { Separate(); out_ += std::to_string(value); return *this; }
  JsonWriter& Bool(bool value) { Separate(); out_ += value ? "true" : "false"; return *this; }
  JsonWriter& Null() { Separate(); out_ += "null"; return *this; }
  // Non-finite values have no JSON spelling; they are written as null.
  JsonWriter& Double(double value) {
    Separate();
    if (!std::isfinite(value)) {
      out_ += "null";
    } else {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%.17g", value);
      out_ += buf;
    }
    return *this;
  }

  const std::string& str() const { return out_; }

 private:
  void Separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) out_ += ',';
      first_.back() = false;
    }
  }
  void AppendQuoted(std::string_view s) {
    out_ += '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            out_ += buf;
          } else {
            out_ += static_cast<char>(c);
          }
      }
    }
    out_ += '"';
  }

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace gnomon::bench
