#include "tools/variant_option.h"

#include <stdexcept>
#include <vector>

#include "games/schataxx/position.h"

namespace ataxx::cli {

CLI::Option* add_variant_option(CLI::App& cmd, std::string& variant, const std::string& description) {
  std::vector<std::string> names;
  for (const auto v : {schataxx::Variant::kStandard, schataxx::Variant::kBalanced, schataxx::Variant::kUnlimited})
    names.emplace_back(schataxx::variant_name(v));
  return cmd.add_option("--variant", variant, description)->check(CLI::IsMember(names));
}

bool settle_schataxx_fen(std::string& fen, bool fen_given, bool variant_given) {
  if (variant_given && !fen_given) fen = schataxx::Position::kStartFen;
  const bool schataxx = fen.find('[') != std::string::npos;
  if (variant_given && !schataxx)
    throw std::runtime_error("--variant plays Schataxx, but the FEN '" + fen +
                             "' is an Ataxx position (a Schataxx FEN ends its board with the stocks in brackets)");
  return schataxx;
}

}  // namespace ataxx::cli
