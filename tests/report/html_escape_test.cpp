// Every string from a result file is text in the page, never markup.
#include "report/html_escape.hpp"

#include <gtest/gtest.h>

namespace xb {
namespace {

TEST(HtmlEscape, MarkupCharactersBecomeReferences) {
  EXPECT_EQ(html_escape("</script><b>"), "&lt;/script&gt;&lt;b&gt;");
  EXPECT_EQ(html_escape("a & b"), "a &amp; b");
  EXPECT_EQ(html_escape("\"x\" 'y'"), "&quot;x&quot; &#39;y&#39;");
  EXPECT_EQ(html_escape("&lt;"), "&amp;lt;");  // already-escaped text stays text
}

TEST(HtmlEscape, PlainTextAndUtf8PassThrough) {
  EXPECT_EQ(html_escape("cpu::device::3 4K GiB/s"), "cpu::device::3 4K GiB/s");
  EXPECT_EQ(html_escape("µs → 带宽"), "µs → 带宽");
  EXPECT_EQ(html_escape("a\tb\nc\r"), "a\tb\nc\r");
}

TEST(HtmlEscape, ForbiddenControlCharactersAreReplaced) {
  const std::string in{'a', '\0', 'b', '\x1b', 'c', '\x7f'};
  EXPECT_EQ(html_escape(in), "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\xEF\xBF\xBD");
}

}  // namespace
}  // namespace xb
