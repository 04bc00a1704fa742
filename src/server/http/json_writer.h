// JsonWriter: a minimal streaming JSON emitter for response bodies (errors, /query results, health).
// Commas are inserted automatically; the caller keeps objects and arrays balanced.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gnomon::server::http {

// Appends `text` as a JSON string literal (quoted, escaped; invalid UTF-8 bytes become U+FFFD so the
// output is always valid JSON).
void AppendJsonString(std::string* out, std::string_view text);

class JsonWriter {
 public:
  JsonWriter() = default;

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  // Inside an object: the next value's key.
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  // A string known to need no escaping (printable ASCII without '"' or '\\': a formatted time).
  JsonWriter& PlainString(std::string_view ascii);
  JsonWriter& Int(int64_t value);
  JsonWriter& UInt(uint64_t value);
  // The shortest text that reads back as `value` (58, 0.5, 1e+21); null for NaN and infinities.
  JsonWriter& Double(double value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();
  // A value already rendered as JSON by another writer.
  JsonWriter& Raw(std::string_view json);

  const std::string& str() const { return out_; }
  // The text written so far, for a caller that sends it in pieces: clearing it keeps the
  // writer's place (open containers, commas) for what follows.
  std::string& mutable_str() { return out_; }
  std::string Release() { return std::move(out_); }

 private:
  void BeforeValue();

  std::string out_;
  // One entry per open container: true once it holds an element (the next one needs a comma).
  std::vector<bool> has_element_;
  bool after_key_ = false;
};

}  // namespace gnomon::server::http
