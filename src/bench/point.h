// One simulated reading: measurement, tags, fields, timestamp. The model of TSBS's data.Point that the
// simulators fill and the serializers print. Keys and string values are views into storage owned by
// the simulator (static tables or per-host strings that live as long as the simulator), so a Point is
// a plain value: the IoT simulator copies and defers them freely.
#pragma once

#include <cstdint>
#include <string_view>

#include "src/base/check.h"

namespace gnomon::bench {

// A tag value: a string, a float32 (IoT's capacity "tags", printed as Influx fields) or null
// (cleared by the IoT simulator: the tag is omitted).
struct TagValue {
  enum class Kind : uint8_t { kNull, kString, kFloat32 };
  Kind kind = Kind::kNull;
  float f32 = 0;
  std::string_view str;
};

// A field value: int64 (Influx "i" suffix), float64, or null (omitted).
struct FieldValue {
  enum class Kind : uint8_t { kNull, kInt64, kFloat64 };
  Kind kind = Kind::kNull;
  union {
    int64_t i64;
    double f64;
  };
  FieldValue() : i64(0) {}
};

class Point {
 public:
  static constexpr int kMaxTags = 16;
  static constexpr int kMaxFields = 40;

  void Reset() {
    measurement_ = {};
    num_tags_ = 0;
    num_fields_ = 0;
    timestamp_ = 0;
  }

  void SetMeasurement(std::string_view name) { measurement_ = name; }
  void SetTimestamp(int64_t nanos) { timestamp_ = nanos; }

  void AppendTag(std::string_view key, std::string_view value) {
    TagValue& v = NewTag(key);
    v.kind = TagValue::Kind::kString;
    v.str = value;
  }
  void AppendFloat32Tag(std::string_view key, float value) {
    TagValue& v = NewTag(key);
    v.kind = TagValue::Kind::kFloat32;
    v.f32 = value;
  }
  void AppendInt(std::string_view key, int64_t value) {
    FieldValue& v = NewField(key);
    v.kind = FieldValue::Kind::kInt64;
    v.i64 = value;
  }
  void AppendFloat(std::string_view key, double value) {
    FieldValue& v = NewField(key);
    v.kind = FieldValue::Kind::kFloat64;
    v.f64 = value;
  }
  // TSBS ClearTagValue / ClearFieldValue by position.
  void ClearTag(int i) { tag_values_[i].kind = TagValue::Kind::kNull; }
  void ClearField(int i) { field_values_[i].kind = FieldValue::Kind::kNull; }

  std::string_view measurement() const { return measurement_; }
  int64_t timestamp() const { return timestamp_; }
  int num_tags() const { return num_tags_; }
  int num_fields() const { return num_fields_; }
  std::string_view tag_key(int i) const { return tag_keys_[i]; }
  const TagValue& tag_value(int i) const { return tag_values_[i]; }
  std::string_view field_key(int i) const { return field_keys_[i]; }
  const FieldValue& field_value(int i) const { return field_values_[i]; }

 private:
  TagValue& NewTag(std::string_view key) {
    GNOMON_CHECK(num_tags_ < kMaxTags);
    tag_keys_[num_tags_] = key;
    return tag_values_[num_tags_++];
  }
  FieldValue& NewField(std::string_view key) {
    GNOMON_CHECK(num_fields_ < kMaxFields);
    field_keys_[num_fields_] = key;
    return field_values_[num_fields_++];
  }

  std::string_view measurement_;
  int64_t timestamp_ = 0;
  int num_tags_ = 0;
  int num_fields_ = 0;
  std::string_view tag_keys_[kMaxTags];
  TagValue tag_values_[kMaxTags];
  std::string_view field_keys_[kMaxFields];
  FieldValue field_values_[kMaxFields];
};

}  // namespace gnomon::bench
