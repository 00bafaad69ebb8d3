#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "report/columns.hpp"
#include "report/matrix_text.hpp"
#include "report/renderer.hpp"

namespace xb {
namespace {

void print_block(const std::vector<std::vector<Column>>& rows, std::size_t label_count, std::ostream& out) {
  const auto& first = rows.front();
  std::vector<std::size_t> width(first.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    width[i] = first[i].header.size();
    for (const auto& r : rows) width[i] = std::max(width[i], r[i].value.size());
  }
  out << ' ';
  for (std::size_t i = 0; i < first.size(); ++i) out << fmt::format(" {:<{}}", first[i].header, width[i]);
  out << '\n';
  for (const auto& r : rows) {
    out << ' ';
    // Labels read left to right; figures line up on the right.
    for (std::size_t i = 0; i < r.size(); ++i) {
      out << (i < label_count ? fmt::format(" {:<{}}", r[i].value, width[i]) : fmt::format(" {:>{}}", r[i].value, width[i]));
    }
    out << '\n';
  }
}

}  // namespace

void render_table(const ResultDocument& doc, std::ostream& out) {
  std::vector<std::vector<Column>> block;
  std::vector<std::string> titles;  // the block's cases' titles: its heading when they agree
  std::string block_job;
  std::size_t label_count = 0;
  auto flush = [&] {
    if (!block.empty()) {
      // A sweep's cases differ by size and so by title: a heading naming one of them would be wrong.
      const bool one_title = std::all_of(titles.begin(), titles.end(), [&](const auto& t) { return t == titles.front(); });
      out << (one_title ? fmt::format("[[ {} ]] {}\n", block_job, titles.front())
                        : fmt::format("[[ {} ]] {} cases, a row each (the first: {})\n", block_job, titles.size(),
                                      titles.front()));
      print_block(block, label_count, out);
    }
    block.clear();
    titles.clear();
  };
  for (const auto& c : doc.cases) {
    if (c.status != CaseStatus::ok) {
      flush();
      out << fmt::format("[[ {} ]] {}: {}\n", c.name, to_string(c.status), c.status_reason);
      continue;
    }
    auto cols = case_columns(c);
    const bool same = !block.empty() && block_job == c.job && block.front().size() == cols.size() &&
                      std::equal(cols.begin(), cols.end(), block.front().begin(),
                                 [](const Column& a, const Column& b) { return a.header == b.header; });
    if (!same) {
      flush();
      block_job = c.job;
      label_count = c.labels.size();
    }
    block.push_back(std::move(cols));
    titles.push_back(c.title);
    // A case that carries a matrix (p2p all pairs, fleet) shows it as a grid under its row.
    std::optional<Matrix> matrix;
    try {
      matrix = case_matrix(c);
    } catch (const std::invalid_argument& e) {
      flush();
      out << fmt::format("  matrix not shown: {}\n", e.what());
    }
    if (matrix) {
      flush();
      render_matrix_text(*matrix, out);
    }
  }
  flush();
  if (!doc.partial.empty()) {
    out << fmt::format("PARTIAL: the run ended early ({}): {} case{} complete, shown above\n", doc.partial,
                       doc.cases.size(), doc.cases.size() == 1 ? "" : "s");
  }
}

}  // namespace xb
