// The three renderings of a /query answer, against what InfluxDB 1.6.7 answered to the same
// statements over the same points (recorded with curl; the data and statements are in the
// comments).
#include "src/server/api/influxql_answer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace gnomon::server::api {
namespace {

const std::string kCpu = "cpu";
const std::vector<std::string> kHostKey = {"host"};
const std::vector<std::string> kTimeV = {"time", "v"};

// `SELECT v FROM cpu GROUP BY host` over cpu,host=a v=1 1s; v=2.5 2s; cpu,host=b v=3 3s; 4 4s; 5 5s.
void TwoHosts(InfluxAnswer& a, size_t id) {
  a.BeginStatement(id);
  const std::vector<std::string> ha = {"a"}, hb = {"b"};
  a.BeginSeries(&kCpu, kHostKey, ha, kTimeV);
  for (auto [t, v] : std::vector<std::pair<int64_t, double>>{{1, 1}, {2, 2.5}}) {
    a.BeginRow();
    a.Time(t * 1'000'000'000);
    a.Double(v);
    a.EndRow();
  }
  a.EndSeries();
  a.BeginSeries(&kCpu, kHostKey, hb, kTimeV);
  for (int64_t t : {3, 4, 5}) {
    a.BeginRow();
    a.Time(t * 1'000'000'000);
    a.Double(static_cast<double>(t));
    a.EndRow();
  }
  a.EndSeries();
  a.EndStatement();
}

void Databases(InfluxAnswer& a, size_t id) {
  a.BeginStatement(id);
  const std::string name = "databases";
  const std::vector<std::string> columns = {"name"};
  a.BeginSeries(&name, {}, {}, columns);
  a.BeginRow();
  a.String("db");
  a.EndRow();
  a.EndSeries();
  a.EndStatement();
}

void Empty(InfluxAnswer& a, size_t id) {
  a.BeginStatement(id);
  a.EndStatement();
}

void Failed(InfluxAnswer& a, size_t id, const char* message) {
  a.BeginStatement(id);
  a.Error(message);
  a.EndStatement();
}

std::string Render(InfluxAnswerOptions options, const std::function<void(InfluxAnswer&)>& statements) {
  auto a = InfluxAnswer::Make(options);
  statements(*a);
  a->Finish();
  return a->bytes();
}

TEST(InfluxAnswerTest, JsonIsOneDocument) {
  std::string out = Render({}, [](InfluxAnswer& a) {
    TwoHosts(a, 0);
    Empty(a, 1);
    Failed(a, 2, "undefined function bad()");
  });
  EXPECT_EQ(out,
            R"({"results":[{"statement_id":0,"series":[)"
            R"({"name":"cpu","tags":{"host":"a"},"columns":["time","v"],"values":[["1970-01-01T00:00:01Z",1],["1970-01-01T00:00:02Z",2.5]]},)"
            R"({"name":"cpu","tags":{"host":"b"},"columns":["time","v"],"values":[["1970-01-01T00:00:03Z",3],["1970-01-01T00:00:04Z",4],["1970-01-01T00:00:05Z",5]]}]},)"
            R"j({"statement_id":1},{"statement_id":2,"error":"undefined function bad()"}]})j");
}

// chunked=true&chunk_size=2, then chunk_size=10: InfluxDB 1.6.7's lines.
TEST(InfluxAnswerTest, ChunkedJsonSplitsSeriesIntoPiecesAndMarksWhatGoesOn) {
  InfluxAnswerOptions options;
  options.format = InfluxAnswerFormat::kChunkedJson;
  options.chunk_size = 2;
  EXPECT_EQ(Render(options, [](InfluxAnswer& a) { TwoHosts(a, 0); }),
            R"({"results":[{"statement_id":0,"series":[{"name":"cpu","tags":{"host":"a"},"columns":["time","v"],"values":[["1970-01-01T00:00:01Z",1],["1970-01-01T00:00:02Z",2.5]]}],"partial":true}]})"
            "\n"
            R"({"results":[{"statement_id":0,"series":[{"name":"cpu","tags":{"host":"b"},"columns":["time","v"],"values":[["1970-01-01T00:00:03Z",3],["1970-01-01T00:00:04Z",4]],"partial":true}],"partial":true}]})"
            "\n"
            R"({"results":[{"statement_id":0,"series":[{"name":"cpu","tags":{"host":"b"},"columns":["time","v"],"values":[["1970-01-01T00:00:05Z",5]]}]}]})"
            "\n");
  options.chunk_size = 10;
  EXPECT_EQ(Render(options, [](InfluxAnswer& a) {
              TwoHosts(a, 0);
              Empty(a, 1);
              Databases(a, 2);
              Failed(a, 3, "database not found: nodb");
            }),
            R"({"results":[{"statement_id":0,"series":[{"name":"cpu","tags":{"host":"a"},"columns":["time","v"],"values":[["1970-01-01T00:00:01Z",1],["1970-01-01T00:00:02Z",2.5]]}],"partial":true}]})"
            "\n"
            R"({"results":[{"statement_id":0,"series":[{"name":"cpu","tags":{"host":"b"},"columns":["time","v"],"values":[["1970-01-01T00:00:03Z",3],["1970-01-01T00:00:04Z",4],["1970-01-01T00:00:05Z",5]]}]}]})"
            "\n"
            R"({"results":[{"statement_id":1}]})"
            "\n"
            R"({"results":[{"statement_id":2,"series":[{"name":"databases","columns":["name"],"values":[["db"]]}]}]})"
            "\n"
            R"({"results":[{"statement_id":3,"error":"database not found: nodb"}]})"
            "\n");
}

TEST(InfluxAnswerTest, ChunkedJsonShowsASeriesWithoutRowsAndClosesOneAQueryLeftOpen) {
  InfluxAnswerOptions options;
  options.format = InfluxAnswerFormat::kChunkedJson;
  std::string out = Render(options, [](InfluxAnswer& a) {
    a.BeginStatement(0);
    const std::string name = "databases";
    const std::vector<std::string> columns = {"name"};
    a.BeginSeries(&name, {}, {}, columns);
    a.EndSeries();
    a.EndStatement();
    a.BeginStatement(1);
    a.BeginSeries(&kCpu, {}, {}, kTimeV);
    a.BeginRow();
    a.Time(0);
    a.Null();
    a.EndRow();
    a.Error("query memory limit");  // the query failed with its series open
    a.EndStatement();
  });
  EXPECT_EQ(out,
            R"({"results":[{"statement_id":0,"series":[{"name":"databases","columns":["name"]}]}]})"
            "\n"
            R"({"results":[{"statement_id":1,"series":[{"name":"cpu","columns":["time","v"],"values":[["1970-01-01T00:00:00Z",null]]}],"partial":true}]})"
            "\n"
            R"({"results":[{"statement_id":1,"error":"query memory limit"}]})"
            "\n");
}

TEST(InfluxAnswerTest, JsonClosesASeriesAFailedQueryLeftOpen) {
  std::string out = Render({}, [](InfluxAnswer& a) {
    a.BeginStatement(0);
    a.BeginSeries(&kCpu, {}, {}, kTimeV);
    a.BeginRow();
    a.Time(0);
    a.Int(1);
    a.EndRow();
    a.Error("stopped");
    a.EndStatement();
  });
  EXPECT_EQ(out, R"({"results":[{"statement_id":0,"series":[{"name":"cpu","columns":["time","v"],"values":[["1970-01-01T00:00:00Z",1]]}],"error":"stopped"}]})");
}

// Accept: application/csv, `SELECT v FROM cpu GROUP BY host; SHOW DATABASES; SELECT v FROM cpu
// GROUP BY host` with epoch=s.
TEST(InfluxAnswerTest, CsvHasAHeaderPerStatementAndSeriesKeysAsTags) {
  InfluxAnswerOptions options;
  options.format = InfluxAnswerFormat::kCsv;
  options.epoch_divisor = 1'000'000'000;
  EXPECT_EQ(Render(options, [](InfluxAnswer& a) {
              TwoHosts(a, 0);
              Empty(a, 1);
              Databases(a, 2);
              TwoHosts(a, 3);
            }),
            "name,tags,time,v\n"
            "cpu,host=a,1,1\n"
            "cpu,host=a,2,2.5\n"
            "cpu,host=b,3,3\n"
            "cpu,host=b,4,4\n"
            "cpu,host=b,5,5\n"
            "\n"
            "name,tags,name\n"
            "databases,,db\n"
            "\n"
            "name,tags,time,v\n"
            "cpu,host=a,1,1\n"
            "cpu,host=a,2,2.5\n"
            "cpu,host=b,3,3\n"
            "cpu,host=b,4,4\n"
            "cpu,host=b,5,5\n");
}

// tg,host=a\,b,k\ y=z\=q v=1e21,w=1e-7,x=-0.0,n=-5i,s=" lead" 1000000000 with GROUP BY *.
TEST(InfluxAnswerTest, CsvQuotesEscapesAndWritesNumbersAsInfluxDbDoes) {
  InfluxAnswerOptions options;
  options.format = InfluxAnswerFormat::kCsv;
  std::string out = Render(options, [](InfluxAnswer& a) {
    a.BeginStatement(0);
    const std::string name = "tg";
    const std::vector<std::string> keys = {"k y", "host"}, values = {"z=q", "a,b"};
    const std::vector<std::string> columns = {"time", "n", "s", "v", "w", "x", "q", "b", "u"};
    a.BeginSeries(&name, keys, values, columns);
    a.BeginRow();
    a.Time(1'000'000'000);
    a.Int(-5);
    a.String(" lead");
    a.Double(1e21);
    a.Double(1e-7);
    a.Double(-0.0);
    a.String("q\"uote\nx");
    a.Bool(true);
    a.UInt(18446744073709551615u);
    a.EndRow();
    a.EndSeries();
    a.EndStatement();
  });
  EXPECT_EQ(out,
            "name,tags,time,n,s,v,w,x,q,b,u\n"
            "tg,\"host=a\\,b,k\\ y=z\\=q\",1000000000,-5,\" lead\",1000000000000000000000,0.0000001,-0,"
            "\"q\"\"uote\nx\",true,18446744073709551615\n");
}

TEST(InfluxAnswerTest, CsvShowsAFailedStatementAsAnError) {
  InfluxAnswerOptions options;
  options.format = InfluxAnswerFormat::kCsv;
  EXPECT_EQ(Render(options, [](InfluxAnswer& a) {
              Databases(a, 0);
              Failed(a, 1, "undefined function bad(), at x");
              Databases(a, 2);
            }),
            "name,tags,name\ndatabases,,db\n\nerror\n\"undefined function bad(), at x\"\n\nname,tags,name\ndatabases,,db\n");
}

// A chunk's rows handed over whole render exactly as the same cells one by one: every type,
// NULLs, non-finite floats, strings needing escapes (and invalid UTF-8), times before 1970 in
// RFC 3339 and in every epoch (Go's division, toward zero), in one series and across two.
TEST(InfluxAnswerTest, RowsRenderAsTheirCellsDo) {
  query::ResultChunk chunk;
  chunk.columns.resize(7);
  const ValueType types[] = {ValueType::kString, ValueType::kTimestamp, ValueType::kFloat64, ValueType::kInt64,
                             ValueType::kUInt64, ValueType::kBool, ValueType::kString};
  for (size_t c = 0; c < 7; ++c) chunk.columns[c].type = types[c];
  const int64_t times[] = {0, -1'500'000'001, 1'686'441'600'123'456'789, -86'400'000'000'000, 7};
  const double floats[] = {1.5, std::nan(""), -std::numeric_limits<double>::infinity(), 1e-300, 0.1};
  const char* strings[] = {"plain", "quote\"back\\slash", "tab\tnl\n", "caf\xc3\xa9 \xff", ""};
  for (size_t r = 0; r < 5; ++r) {
    chunk.columns[0].str.push_back(r < 3 ? "a" : "b");  // the series' tag, not rendered
    chunk.columns[1].i64.push_back(times[r]);
    chunk.columns[2].f64.push_back(floats[r]);
    chunk.columns[3].i64.push_back(static_cast<int64_t>(r) * -1'000'000'007);
    chunk.columns[4].u64.push_back(std::numeric_limits<uint64_t>::max() - r);
    chunk.columns[5].b.push_back(r % 2);
    chunk.columns[6].str.push_back(strings[r]);
  }
  chunk.columns[3].validity = {1, 0, 1, 1, 0};
  chunk.columns[6].validity = {1, 1, 1, 1, 0};
  chunk.rows = 5;
  const std::vector<std::string> columns = {"time", "f", "i", "u", "b", "s"};
  for (int64_t divisor : {int64_t{0}, int64_t{1}, int64_t{1000}, int64_t{1'000'000'000}, int64_t{3'600'000'000'000}}) {
    InfluxAnswerOptions options;
    options.epoch_divisor = divisor;
    auto whole = InfluxAnswer::Make(options), cells = InfluxAnswer::Make(options);
    for (InfluxAnswer* a : {whole.get(), cells.get()}) {
      a->BeginStatement(0);
      const std::vector<std::string> host_a = {"a"}, host_b = {"b"};
      a->BeginSeries(&kCpu, kHostKey, host_a, columns);
      if (a == whole.get()) {
        a->Rows(chunk, 1, 0, 1);
        a->Rows(chunk, 1, 1, 3);
      } else {
        a->InfluxAnswer::Rows(chunk, 1, 0, 3);  // the cell-by-cell rendering
      }
      a->EndSeries();
      a->BeginSeries(&kCpu, kHostKey, host_b, columns);
      if (a == whole.get()) {
        a->Rows(chunk, 1, 3, 5);
      } else {
        a->InfluxAnswer::Rows(chunk, 1, 3, 5);
      }
      a->EndSeries();
      a->EndStatement();
      a->Finish();
    }
    EXPECT_EQ(whole->bytes(), cells->bytes()) << "epoch divisor " << divisor;
  }
}

}  // namespace
}  // namespace gnomon::server::api
