#include "src/storage/write_batch_codec.h"

#include <algorithm>
#include <cstring>

#include "src/base/check.h"
#include "src/base/coding.h"

namespace gnomon::storage {
namespace {

Status Malformed(std::string_view what) {
  return Status::Corruption("malformed write batch record: " + std::string(what));
}

// Appends to a string through a raw pointer: the row loop below writes every varint of a row
// after one capacity check instead of one append (and its checks) per byte run. The string is
// grown ahead (doubling) and cut back to what was written by Finish().
class RecordWriter {
 public:
  explicit RecordWriter(std::string* out) : out_(out), size_(out->size()) {}
  // Room for `n` more bytes at the returned position; write, then Commit the end.
  char* Reserve(size_t n) {
    if (out_->size() < size_ + n) out_->resize(std::max(size_ + n, 2 * out_->size()));
    return out_->data() + size_;
  }
  void Commit(char* end) { size_ = static_cast<size_t>(end - out_->data()); }
  void Finish() { out_->resize(size_); }

 private:
  std::string* out_;
  size_t size_;
};

// Most bytes a value other than a string takes: a field index varint and a value (varint, or
// fixed 8 bytes for floats). A row header is four varints.
constexpr size_t kMaxValueBytes = 2 * kMaxVarint64Bytes;
constexpr size_t kMaxRowHeaderBytes = 4 * kMaxVarint64Bytes;

// The row count, then the rows but those `rejected` marks (empty: none).
void EncodeRows(const TableBatch& table, std::span<const uint8_t> rejected, RecordWriter* w) {
  std::vector<ValueType> types(table.fields().size());
  for (size_t f = 0; f < types.size(); ++f) types[f] = table.fields()[f].type;
  size_t kept = table.rows().size();
  if (!rejected.empty()) kept -= static_cast<size_t>(std::count(rejected.begin(), rejected.end(), 1));
  w->Commit(EncodeVarint64(w->Reserve(kMaxVarint64Bytes), kept));
  int64_t prev_time = 0;
  for (size_t r = 0; r < table.rows().size(); ++r) {
    if (!rejected.empty() && rejected[r]) continue;
    const Row& row = table.rows()[r];
    char* p = w->Reserve(kMaxRowHeaderBytes + row.value_count * kMaxValueBytes);
    p = EncodeVarint64(p, row.series);
    // Rows of a batch are mostly near in time. The difference wraps modulo 2^64 (computed
    // unsigned: times at both ends of int64 would overflow a signed subtraction), and the
    // decoder's wrapping sum undoes it exactly.
    p = EncodeVarint64(p, ZigZagEncode(static_cast<int64_t>(static_cast<uint64_t>(row.time) -
                                                            static_cast<uint64_t>(prev_time))));
    prev_time = row.time;
    p = EncodeVarint64(p, row.line);
    p = EncodeVarint64(p, row.value_count);
    const FieldValue* values = table.values().data() + row.value_begin;
    for (uint32_t i = 0; i < row.value_count; ++i) {
      const FieldValue& v = values[i];
      p = EncodeVarint64(p, v.field);
      switch (types[v.field]) {
        case ValueType::kFloat64: {
          uint64_t bits;
          std::memcpy(&bits, &v.f64, 8);
          EncodeFixed64(p, bits);
          p += 8;
          break;
        }
        case ValueType::kInt64: p = EncodeVarint64(p, ZigZagEncode(v.i64)); break;
        case ValueType::kUInt64: p = EncodeVarint64(p, v.u64); break;
        case ValueType::kBool: *p++ = v.b ? 1 : 0; break;
        case ValueType::kString: {
          // Strings are unbounded: make room for this one and the row's remaining values.
          std::string_view s = table.StringValue(v);
          w->Commit(p);
          p = w->Reserve(kMaxVarint64Bytes + s.size() + (row.value_count - i - 1) * kMaxValueBytes);
          p = EncodeVarint64(p, s.size());
          std::memcpy(p, s.data(), s.size());
          p += s.size();
          break;
        }
        default: break;
      }
    }
    w->Commit(p);
  }
}

void EncodeFieldDefs(const TableBatch& table, std::string* out) {
  PutVarint64(out, table.fields().size());
  for (const FieldDef& f : table.fields()) {
    PutLengthPrefixed(out, f.name);
    out->push_back(static_cast<char>(f.type));
  }
}

}  // namespace

void EncodeWriteBatch(const WriteBatch& batch, std::string* out) {
  out->push_back(static_cast<char>(WalRecordType::kWriteBatch));
  PutLengthPrefixed(out, batch.database());
  PutVarint64(out, batch.tables().size());
  for (const auto& table : batch.tables()) {
    PutLengthPrefixed(out, table->name());
    EncodeFieldDefs(*table, out);
    PutVarint64(out, table->series().size());
    for (const TagSet& tags : table->series()) {
      PutVarint64(out, tags.size());
      for (const Tag& t : tags) {
        PutLengthPrefixed(out, t.key);
        PutLengthPrefixed(out, t.value);
      }
    }
    RecordWriter w(out);
    EncodeRows(*table, {}, &w);
    w.Finish();
  }
}

void EncodeWriteBatchById(const WriteBatch& batch, std::span<const ResolvedTable> tables,
                          std::string* out) {
  GNOMON_CHECK(tables.size() == batch.tables().size());
  out->push_back(static_cast<char>(WalRecordType::kWriteBatchById));
  PutLengthPrefixed(out, batch.database());
  PutVarint64(out, batch.tables().size());
  for (size_t i = 0; i < tables.size(); ++i) {
    const TableBatch& table = *batch.tables()[i];
    GNOMON_CHECK(tables[i].series_ids.size() == table.series().size());
    PutLengthPrefixed(out, table.name());
    PutLengthPrefixed(out, tables[i].instance);
    EncodeFieldDefs(table, out);
    RecordWriter w(out);
    char* p = w.Reserve(kMaxVarint64Bytes * (1 + table.series().size()));
    p = EncodeVarint64(p, table.series().size());
    for (SeriesId id : tables[i].series_ids) p = EncodeVarint64(p, id);
    w.Commit(p);
    EncodeRows(table, tables[i].row_rejected, &w);
    w.Finish();
  }
}

Status DecodeWriteBatch(std::string_view in, WriteBatch* batch) {
  if (in.empty()) return Malformed("not a write batch");
  const auto type = static_cast<WalRecordType>(in[0]);
  if (type != WalRecordType::kWriteBatch && type != WalRecordType::kWriteBatchById) {
    return Malformed("not a write batch");
  }
  const bool by_id = type == WalRecordType::kWriteBatchById;
  in.remove_prefix(1);
  std::string_view db;
  if (!GetLengthPrefixed(&in, &db)) return Malformed("database");
  batch->set_database(std::string(db));
  uint64_t num_tables;
  if (!GetVarint64(&in, &num_tables)) return Malformed("table count");
  for (uint64_t t = 0; t < num_tables; ++t) {
    std::string_view name;
    if (!GetLengthPrefixed(&in, &name)) return Malformed("table name");
    TableBatch* table = batch->Table(name);
    if (by_id) {
      std::string_view instance;
      if (!GetLengthPrefixed(&in, &instance)) return Malformed("table instance");
      table->set_table_instance(std::string(instance));
    }
    // Field indexes in the record are positions in the record's field list; map them to the
    // batch's own (which equal them unless the same table appears twice, which encoders never do).
    uint64_t num_fields;
    if (!GetVarint64(&in, &num_fields) || num_fields > in.size()) return Malformed("field count");
    std::vector<uint32_t> field_map(num_fields);
    std::vector<ValueType> field_types(num_fields);
    for (uint64_t f = 0; f < num_fields; ++f) {
      std::string_view fname;
      if (!GetLengthPrefixed(&in, &fname) || in.empty()) return Malformed("field");
      auto type = static_cast<uint8_t>(in[0]);
      in.remove_prefix(1);
      if (!IsValidFieldType(type)) return Malformed("field type");
      field_types[f] = static_cast<ValueType>(type);
      if (!table->FindOrAddField(fname, field_types[f], &field_map[f])) {
        return Malformed("field type conflict");
      }
    }
    uint64_t num_series;
    if (!GetVarint64(&in, &num_series) || num_series > in.size()) return Malformed("series count");
    uint32_t series_base = static_cast<uint32_t>(table->series().size());
    for (uint64_t s = 0; s < num_series; ++s) {
      if (by_id) {  // a registry id
        uint32_t id;
        if (!GetVarint32(&in, &id) || id == kUnresolvedSeries) return Malformed("series id");
        table->AddResolvedSeries(id);
        continue;
      }
      uint64_t num_tags;  // a tag set
      if (!GetVarint64(&in, &num_tags) || num_tags > in.size()) return Malformed("tag count");
      TagSet tags(num_tags);
      for (auto& tag : tags) {
        std::string_view k, v;
        if (!GetLengthPrefixed(&in, &k) || !GetLengthPrefixed(&in, &v)) return Malformed("tag");
        tag.key = std::string(k);
        tag.value = std::string(v);
      }
      table->AddSeries(std::move(tags));
    }
    uint64_t num_rows;
    if (!GetVarint64(&in, &num_rows) || num_rows > in.size()) return Malformed("row count");
    int64_t time = 0;
    for (uint64_t r = 0; r < num_rows; ++r) {
      uint64_t series, line, count;
      int64_t delta;
      if (!GetVarint64(&in, &series) || !GetVarsint64(&in, &delta) || !GetVarint64(&in, &line) ||
          !GetVarint64(&in, &count)) {
        return Malformed("row header");
      }
      if (series >= num_series || count > num_fields) return Malformed("row references");
      time = static_cast<int64_t>(static_cast<uint64_t>(time) + static_cast<uint64_t>(delta));
      table->BeginRow(series_base + static_cast<uint32_t>(series), time, static_cast<uint32_t>(line));
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t f;
        if (!GetVarint64(&in, &f) || f >= num_fields) return Malformed("value field");
        uint32_t field = field_map[f];
        switch (field_types[f]) {
          case ValueType::kFloat64: {
            uint64_t bits;
            if (!GetFixed64(&in, &bits)) return Malformed("float value");
            double d;
            std::memcpy(&d, &bits, 8);
            table->AddFloat(field, d);
            break;
          }
          case ValueType::kInt64: {
            int64_t v;
            if (!GetVarsint64(&in, &v)) return Malformed("int value");
            table->AddInt(field, v);
            break;
          }
          case ValueType::kUInt64: {
            uint64_t v;
            if (!GetVarint64(&in, &v)) return Malformed("uint value");
            table->AddUInt(field, v);
            break;
          }
          case ValueType::kBool: {
            if (in.empty()) return Malformed("bool value");
            table->AddBool(field, in[0] != 0);
            in.remove_prefix(1);
            break;
          }
          case ValueType::kString: {
            std::string_view s;
            if (!GetLengthPrefixed(&in, &s)) return Malformed("string value");
            table->AddString(field, s);
            break;
          }
          default: return Malformed("value type");
        }
      }
    }
  }
  if (!in.empty()) return Malformed("trailing bytes");
  return Status::OK();
}

void EncodeControlRecord(const ControlRecord& record, std::string* out) {
  out->push_back(static_cast<char>(record.type));
  PutLengthPrefixed(out, record.database);
  if (record.type != WalRecordType::kDropDatabase) PutLengthPrefixed(out, record.table);
  if (record.type == WalRecordType::kDeleteRows) {
    out->push_back(record.all_series ? 1 : 0);
    PutVarint64(out, record.series.size());
    for (uint32_t id : record.series) PutVarint64(out, id);
    PutVarsint64(out, record.min_time);
    PutVarsint64(out, record.max_time);
  }
  if (!record.instance.empty()) PutLengthPrefixed(out, record.instance);
}

Status DecodeControlRecord(std::string_view in, ControlRecord* record) {
  if (in.empty()) return Malformed("empty control record");
  auto type = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  if (type < 2 || type > 4) return Malformed("control record type");
  record->type = static_cast<WalRecordType>(type);
  std::string_view db, table;
  if (!GetLengthPrefixed(&in, &db)) return Malformed("database");
  record->database = std::string(db);
  if (record->type != WalRecordType::kDropDatabase) {
    if (!GetLengthPrefixed(&in, &table)) return Malformed("table");
    record->table = std::string(table);
  }
  if (record->type == WalRecordType::kDeleteRows) {
    uint64_t n;
    if (in.empty()) return Malformed("delete flags");
    record->all_series = in[0] != 0;
    in.remove_prefix(1);
    if (!GetVarint64(&in, &n) || n > in.size()) return Malformed("delete series count");
    record->series.resize(n);
    for (auto& id : record->series) {
      if (!GetVarint32(&in, &id)) return Malformed("delete series");
    }
    if (!GetVarsint64(&in, &record->min_time) || !GetVarsint64(&in, &record->max_time)) {
      return Malformed("delete range");
    }
  }
  if (!in.empty()) {
    std::string_view instance;
    if (!GetLengthPrefixed(&in, &instance) || instance.empty()) return Malformed("instance");
    record->instance = std::string(instance);
  }
  if (!in.empty()) return Malformed("trailing bytes");
  return Status::OK();
}

}  // namespace gnomon::storage
