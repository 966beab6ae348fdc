// The page's files, compiled into the binary (server/CMakeLists.txt embeds server/page/ and the
// charting library from node_modules/): the view works offline and needs no file beside it.
#pragma once

#include <string_view>

namespace ataxx::server {

struct Asset {
  std::string_view path;  // "/index.html", "/vendor/uPlot.iife.min.js"
  std::string_view content_type;
  std::string_view body;
};

// The asset at a request's path ("/" is "/index.html"); nullptr for none.
const Asset* find_asset(std::string_view path);

}  // namespace ataxx::server
