#pragma once
// A case's matrix (report/matrix.hpp) as a grid of text for the table renderer: rows and columns
// named, values in the table's number format, "-" where a cell was not measured.
#include <ostream>

#include "core/matrix.hpp"

namespace xb {

void render_matrix_text(const Matrix& m, std::ostream& out);

}  // namespace xb
