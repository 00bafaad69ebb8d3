#pragma once
// Renderers over the one result model: table (for people), JSON (everything), CSV (for spreadsheets).
// A renderer never measures and never changes the document.
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace xb {

enum class OutputFormat { table, json, csv };

std::optional<OutputFormat> output_format_from(std::string_view name);

void render_table(const ResultDocument& doc, std::ostream& out);
void render_json(const ResultDocument& doc, std::ostream& out);
void render_csv(const ResultDocument& doc, std::ostream& out);
void render(const ResultDocument& doc, OutputFormat format, std::ostream& out);

// A number as tables print it: 3 significant decimals for small values, none for large.
std::string format_number(double value);

}  // namespace xb
