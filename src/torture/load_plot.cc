#include <algorithm>
#include <cstdio>
#include <functional>

#include "src/torture/load_torture.h"

namespace gnomon::torture {
namespace {

constexpr double kWidth = 720, kHeight = 200, kLeft = 60, kRight = 20, kTop = 24, kBottom = 30;

struct Series {
  const char* name;
  const char* colour;
  std::function<double(const LoadInterval&)> value;
};

// One panel: the series against time, scaled to the largest value, with its axis labels.
std::string Panel(const LoadTortureReport& r, const std::string& title, const std::string& unit,
                  const std::vector<Series>& series, double y0) {
  const double end = r.intervals.empty() ? 1 : std::max(1.0, r.intervals.back().end_s);
  double top = 0;
  for (const Series& s : series) {
    for (const LoadInterval& in : r.intervals) top = std::max(top, s.value(in));
  }
  if (top <= 0) top = 1;
  const double w = kWidth - kLeft - kRight, h = kHeight - kTop - kBottom;
  char buf[256];
  std::string out;
  std::snprintf(buf, sizeof(buf), "<g transform=\"translate(0,%.0f)\">\n", y0);
  out += buf;
  std::snprintf(buf, sizeof(buf), "<text x=\"%.0f\" y=\"16\" font-size=\"13\">%s</text>\n", kLeft, title.c_str());
  out += buf;
  std::snprintf(buf, sizeof(buf),
                "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#888\"/>"
                "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#888\"/>\n",
                kLeft, kTop, kLeft, kTop + h, kLeft, kTop + h, kLeft + w, kTop + h);
  out += buf;
  std::snprintf(buf, sizeof(buf),
                "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"end\">%.0f %s</text>"
                "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"end\">0</text>"
                "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"end\">%.0f s</text>\n",
                kLeft - 4, kTop + 10, top, unit.c_str(), kLeft - 4, kTop + h, kLeft + w, kTop + h + 16, end);
  out += buf;
  double legend_x = kLeft + 200;
  for (const Series& s : series) {
    std::string points;
    for (const LoadInterval& in : r.intervals) {
      std::snprintf(buf, sizeof(buf), "%.1f,%.1f ", kLeft + w * in.end_s / end, kTop + h - h * s.value(in) / top);
      points += buf;
    }
    out += "<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"" + std::string(s.colour) + "\" points=\"" +
           points + "\"/>\n";
    std::snprintf(buf, sizeof(buf), "<text x=\"%.0f\" y=\"16\" font-size=\"11\" fill=\"%s\">%s</text>\n", legend_x,
                  s.colour, s.name);
    out += buf;
    legend_x += 110;
  }
  return out + "</g>\n";
}

}  // namespace

std::string LoadReportSvg(const LoadTortureReport& r) {
  auto per_s = [](const LoadInterval& in, double n) { return n / std::max(1e-9, in.seconds); };
  std::string out;
  char head[256];
  std::snprintf(head, sizeof(head),
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\">\n",
                kWidth, 4 * kHeight);
  out += head;
  out += Panel(r, "write latency", "ms",
               {{"p50", "#1f77b4", [](const LoadInterval& in) { return in.writes.p50; }},
                {"p99", "#d62728", [](const LoadInterval& in) { return in.writes.p99; }},
                {"max", "#999999", [](const LoadInterval& in) { return in.writes.max; }}},
               0);
  out += Panel(r, "query latency", "ms",
               {{"p50", "#1f77b4", [](const LoadInterval& in) { return in.queries.p50; }},
                {"p99", "#d62728", [](const LoadInterval& in) { return in.queries.p99; }},
                {"max", "#999999", [](const LoadInterval& in) { return in.queries.max; }}},
               kHeight);
  out += Panel(r, "throughput", "/s",
               {{"rows/s", "#2ca02c", [=](const LoadInterval& in) { return per_s(in, static_cast<double>(in.rows_written)); }},
                {"queries/s x1000", "#9467bd",
                 [=](const LoadInterval& in) { return 1000 * per_s(in, static_cast<double>(in.queries.count)); }}},
               2 * kHeight);
  out += Panel(r, "server RSS", "MiB", {{"RSS", "#ff7f0e", [](const LoadInterval& in) { return in.rss_bytes / 1048576.0; }}},
               3 * kHeight);
  return out + "</svg>\n";
}

}  // namespace gnomon::torture
