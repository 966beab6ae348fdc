#include "tools/variant_option.h"

#include <vector>

namespace ataxx::cli {

CLI::Option* add_variant_option(CLI::App& cmd, std::string& variant) {
  std::vector<std::string> names;
  for (const std::string_view name : Games::all_names())
    if (!with_game(name, []<typename G>() { return G::kHasBoards; })) names.emplace_back(name);
  std::string listed;
  for (std::size_t i = 0; i < names.size(); ++i)
    listed += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return cmd.add_option("--variant", variant, "Play this variant, from its start or a FEN of its game: " + listed)
      ->check(CLI::IsMember(names));
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
