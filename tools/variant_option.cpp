#include "tools/variant_option.h"

#include <vector>

namespace ataxx::cli {

CLI::Option* add_variant_option(CLI::App& cmd, std::string& variant, const std::string& what) {
  std::vector<std::string> names;
  for (const std::string_view name : Games::all_names())
    if (!with_game(name, []<typename G>() { return G::kHasBoards; })) names.emplace_back(name);
  const std::vector<std::string_view> views(names.begin(), names.end());
  return cmd.add_option("--variant", variant, what + ": " + Games::listed(views))->check(CLI::IsMember(names));
}

std::string fen_help() {
  std::string examples;
  Games::for_each([&]<typename G>() {
    examples += (examples.empty() ? "" : ", ") + std::string(G::kTitle) + "'s start " + G::start().fen();
  });
  return "Start position in the FEN of any game (" + examples + "); default: " + std::string(Games::First::kTitle) +
         "'s start";
}

std::string position_of(std::string_view title) {
  const bool vowel = !title.empty() && std::string_view("AEIOU").find(title.front()) != std::string_view::npos;
  return (vowel ? "an " : "a ") + std::string(title) + " position";
}

}  // namespace ataxx::cli
