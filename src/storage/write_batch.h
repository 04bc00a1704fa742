// WriteBatch: the unit of ingest. One request's rows, grouped by table, with each table's distinct
// series and field columns listed once. Built by the ingest layer (line protocol), logged to the
// WAL as one record, applied to memtables atomically.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "src/base/hash.h"
#include "src/base/value_type.h"
#include "src/index/raw_key_hash.h"

namespace gnomon::storage {

struct Tag {
  std::string key;
  std::string value;
  friend bool operator==(const Tag&, const Tag&) = default;
};

// A series' identity inside its table: tags sorted by key, keys unique, values non-empty.
using TagSet = std::vector<Tag>;

// Identifies a series within its table; dense, assigned in first-write order, persistent (the
// table's registry id, index::SeriesId).
using SeriesId = uint32_t;
inline constexpr SeriesId kUnresolvedSeries = UINT32_MAX;

struct FieldDef {
  std::string name;
  ValueType type;  // kFloat64, kInt64, kUInt64, kBool or kString
};

// One field value of one row. Strings live in TableBatch::strings.
struct FieldValue {
  uint32_t field;  // index into TableBatch::fields
  union {
    double f64;
    int64_t i64;
    uint64_t u64;
    bool b;
    struct {
      uint32_t offset;
      uint32_t length;
    } str;
  };
};

// The 8-byte pattern of a numeric or bool value of type `type`, as memtables and caches store
// values (a float's bits, an int's two's complement, a bool as 0/1; 0 for other types).
inline uint64_t FieldValueBits(const FieldValue& v, ValueType type) {
  switch (type) {
    case ValueType::kFloat64: return std::bit_cast<uint64_t>(v.f64);
    case ValueType::kInt64: return static_cast<uint64_t>(v.i64);
    case ValueType::kUInt64: return v.u64;
    case ValueType::kBool: return v.b ? 1 : 0;
    default: return 0;
  }
}

struct Row {
  uint32_t series;       // index into TableBatch::series
  int64_t time;          // nanoseconds since the Unix epoch, UTC
  uint32_t value_begin;  // values[value_begin, value_begin + value_count)
  uint32_t value_count;
  uint32_t line;         // 1-based source line, for error reports (0 when unknown)
};

class TableBatch {
 public:
  explicit TableBatch(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  const std::vector<FieldDef>& fields() const { return fields_; }
  // One entry per series of the batch; empty for a series given by id (see resolved_id).
  const std::vector<TagSet>& series() const { return series_; }
  // The registry id of series `s` when the ingest layer resolved it (AddResolvedSeries), else
  // kUnresolvedSeries: the engine then finds or creates it from its tags.
  SeriesId resolved_id(uint32_t s) const {
    return s < resolved_.size() ? resolved_[s] : kUnresolvedSeries;
  }
  bool has_resolved_series() const { return !resolved_.empty(); }
  // The table instance the resolved ids belong to (Table::dir_name(): a table dropped and
  // created again under the same name is another instance, with other ids).
  const std::string& table_instance() const { return table_instance_; }
  void set_table_instance(std::string instance) { table_instance_ = std::move(instance); }
  const std::vector<Row>& rows() const { return rows_; }
  const std::vector<FieldValue>& values() const { return values_; }
  std::string_view StringValue(const FieldValue& v) const {
    return std::string_view(strings_).substr(v.str.offset, v.str.length);
  }

  // Index of a series; `tags` must already be canonical (sorted by key, unique keys).
  uint32_t AddSeries(TagSet tags);
  // Index of a series named by its registry id in table_instance(); the caller dedupes.
  uint32_t AddResolvedSeries(SeriesId id);
  // How a client spelt the key of series `s` (added by AddSeries): once the engine has found or
  // created the series, it remembers the spelling (index::RawKeyCache), so that the next request
  // spelling it so is resolved without parsing its tags. An in-memory hint: not logged.
  struct Spelling {
    uint32_t series;
    index::RawKeyHash hash;
  };
  void AddSpelling(uint32_t s, const index::RawKeyHash& hash) { spellings_.push_back(Spelling{s, hash}); }
  const std::vector<Spelling>& spellings() const { return spellings_; }
  // Index of field `name`. Returns false (and leaves *index) if it was added with another type.
  bool FindOrAddField(std::string_view name, ValueType type, uint32_t* index);

  // Row building: BeginRow, then Add*Value for each field, then nothing more (rows are contiguous).
  // Inline: the line-protocol parser calls these for every value it reads.
  void BeginRow(uint32_t series, int64_t time, uint32_t line) {
    rows_.push_back(Row{series, time, static_cast<uint32_t>(values_.size()), 0, line});
  }
  void AddFloat(uint32_t field, double v) { Push(field).f64 = v; }
  void AddInt(uint32_t field, int64_t v) { Push(field).i64 = v; }
  void AddUInt(uint32_t field, uint64_t v) { Push(field).u64 = v; }
  void AddBool(uint32_t field, bool v) { Push(field).b = v; }
  void AddString(uint32_t field, std::string_view v);
  // Appends a complete row whose `count` values are already built (one capacity check and one copy
  // instead of one per value; the line-protocol builder's path). String values must come from
  // MakeStringValue on this table.
  void AddRow(uint32_t series, int64_t time, uint32_t line, const FieldValue* values, size_t count) {
    rows_.push_back(Row{series, time, static_cast<uint32_t>(values_.size()),
                        static_cast<uint32_t>(count), line});
    values_.insert(values_.end(), values, values + count);
  }
  // Stores the bytes of a string value and returns the value to pass to AddRow. Bytes of a row
  // that is never added stay unreferenced in the string arena (harmless, counted by
  // ApproximateBytes).
  FieldValue MakeStringValue(uint32_t field, std::string_view v) {
    FieldValue fv;
    fv.field = field;
    fv.str.offset = static_cast<uint32_t>(strings_.size());
    fv.str.length = static_cast<uint32_t>(v.size());
    strings_.append(v);
    return fv;
  }
  // Drops the last row (and its values); used when a line turns out to be bad halfway through.
  void DropLastRow();
  // Reserves room for `rows` rows and `values` values (avoids regrowth while parsing).
  void Reserve(size_t rows, size_t values) {
    rows_.reserve(rows);
    values_.reserve(values);
  }

  size_t ApproximateBytes() const;

 private:
  FieldValue& Push(uint32_t field) {
    FieldValue& fv = values_.emplace_back();
    fv.field = field;
    rows_.back().value_count++;
    return fv;
  }

  std::string name_;
  std::vector<FieldDef> fields_;
  std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> field_index_;
  std::vector<TagSet> series_;
  std::vector<SeriesId> resolved_;  // parallel to series_ once any series is resolved
  std::vector<Spelling> spellings_;  // in increasing order of series
  std::string table_instance_;
  std::vector<Row> rows_;
  std::vector<FieldValue> values_;
  std::string strings_;
};

class WriteBatch {
 public:
  WriteBatch() = default;
  explicit WriteBatch(std::string database) : database_(std::move(database)) {}

  const std::string& database() const { return database_; }
  void set_database(std::string db) { database_ = std::move(db); }

  // The batch for `table`, created on first use. Pointers stay valid while the batch lives.
  TableBatch* Table(std::string_view table);
  const std::vector<std::unique_ptr<TableBatch>>& tables() const { return tables_; }
  size_t RowCount() const;
  bool empty() const { return RowCount() == 0; }

 private:
  std::string database_;
  std::vector<std::unique_ptr<TableBatch>> tables_;
  std::unordered_map<std::string, TableBatch*, StringHash, std::equal_to<>> by_name_;
};

}  // namespace gnomon::storage
