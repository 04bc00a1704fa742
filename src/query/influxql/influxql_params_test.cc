#include "src/query/influxql/influxql_params.h"

#include <gtest/gtest.h>

#include "src/query/influxql/influxql_parser.h"

namespace gnomon::query::influxql {
namespace {

// The statement as the parser read it, with the parameters bound.
std::string Bound(std::string_view query, std::string_view params_json) {
  auto params = ParseBoundParams(params_json);
  EXPECT_TRUE(params.ok()) << params.status().message();
  if (!params.ok()) return "";
  auto r = ParseQuery(query, &*params);
  if (!r.ok()) return "error: " + r.status().message();
  return r->at(0).select->condition ? r->at(0).select->condition->ToString() : "";
}

TEST(InfluxqlParams, UntypedValuesBindAsInfluxDbBindsThem) {
  EXPECT_EQ(Bound("SELECT v FROM cpu WHERE host = $h AND v > $x", R"({"h":"b","x":3})"),
            "host = 'b' AND v > 3");
  EXPECT_EQ(Bound("SELECT v FROM cpu WHERE v > $x", R"({"x":3.5})"), "v > 3.5");
  EXPECT_EQ(Bound("SELECT v FROM cpu WHERE v > $x", R"({"x":-3})"), "v > -3");
  EXPECT_EQ(Bound("SELECT v FROM cpu WHERE ok = $b", R"({"b":true})"), "ok = true");
  EXPECT_EQ(Bound("SELECT v FROM cpu WHERE time > $t", R"({"t":"1970-01-01T00:00:03Z"})"),
            "time > '1970-01-01T00:00:03Z'");
}

TEST(InfluxqlParams, TypedValues) {
  auto params = ParseBoundParams(
      R"({"m":{"identifier":"cpu"},"d":{"duration":"2s"},"n":{"duration":1000},"r":{"regex":"^b"},)"
      R"("i":{"integer":4},"f":{"number":4},"s":{"string":"x"},"t":{"boolean":false}})");
  ASSERT_TRUE(params.ok()) << params.status().message();
  auto r = ParseQuery("SELECT max(v) FROM $m WHERE host =~ $r AND a = $i AND b = $f AND c = $s AND d = $t "
                      "GROUP BY time($d, $n)",
                      &*params);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const SelectStatement& s = *r->at(0).select;
  EXPECT_EQ(s.sources.at(0).measurement, "cpu");
  EXPECT_EQ(s.condition->ToString(), "host =~ /^b/ AND a = 4 AND b = 4 AND c = 'x' AND d = false");
  ASSERT_EQ(s.dimensions.size(), 1u);
  EXPECT_EQ(s.dimensions[0].interval, 2'000'000'000);
  EXPECT_EQ(s.dimensions[0].offset, 1'000);
}

TEST(InfluxqlParams, AStringIsNotADuration) {
  EXPECT_NE(Bound("SELECT max(v) FROM cpu GROUP BY time($d)", R"({"d":"2s"})").find("error: "), std::string::npos);
}

TEST(InfluxqlParams, MissingAndEmptyParametersAreErrors) {
  EXPECT_EQ(Bound("SELECT v FROM cpu WHERE v > $x", R"({"h":"b"})"), "error: missing parameter: x at line 1, char 29");
  EXPECT_EQ(Bound("SELECT v FROM cpu WHERE v > $", R"({})"), "error: empty bound parameter at line 1, char 29");
  auto none = ParseQuery("SELECT v FROM cpu WHERE v > $x");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(), "missing parameter: x at line 1, char 29");
}

TEST(InfluxqlParams, BadParameterDocumentsAreRefused) {
  for (const char* bad : {R"({"h":"b",})", "[1]", R"({"h":[4]})", R"({"h":null})", R"({"h":{"integer":4.5}})",
                          R"({"h":{"duration":"soon"}})", R"({"h":{"colour":"red"}})", R"({"h":{"a":1,"b":2}})",
                          R"({"h":{"boolean":"yes"}})", R"({"h":1e999})"}) {
    auto p = ParseBoundParams(bad);
    ASSERT_FALSE(p.ok()) << bad;
    EXPECT_EQ(p.status().message().rfind("error parsing query parameters: ", 0), 0u) << p.status().message();
  }
}

}  // namespace
}  // namespace gnomon::query::influxql
