#include "util/read_file.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace ataxx {

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  std::string bytes(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) throw std::runtime_error("cannot read '" + path + "'");
  return bytes;
}

}  // namespace ataxx
