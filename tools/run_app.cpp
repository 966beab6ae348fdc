#include <charconv>
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>

#include "nn/built_in_nets.h"
#include "tools/commands.h"
#include "util/version.h"

namespace ataxx::cli {
namespace {

// always_capture_default writes an empty list's default as "[]"; --help says nothing for it.
void drop_empty_list_defaults(CLI::App& app) {
  for (CLI::Option* option : app.get_options())
    if (option->get_default_str() == "[]") option->default_str("");
  for (CLI::App* command : app.get_subcommands({})) drop_empty_list_defaults(*command);
}

// The innermost command given (the program itself where none is).
const CLI::App& innermost_command(const CLI::App& app) {
  const CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  return *at;
}

// CLI11 says only "A subcommand is required" for a misspelt command or an option before one.
std::string missing_command(const CLI::App& app, const CLI::App& parent, int argc, char** argv) {
  std::string commands;
  for (const CLI::App* command : parent.get_subcommands({}))
    commands += (commands.empty() ? "" : ", ") + command->get_name();
  int next = 1;  // the word after the parent's name
  if (&parent != &app)
    while (next < argc && argv[next - 1] != parent.get_name()) ++next;
  const std::string word = next < argc ? argv[next] : "";
  const std::string of = &parent == &app ? "" : " of " + parent.get_name();
  const std::string what = word.empty()     ? "no command" + of + " given"
                           : word[0] == '-' ? "'" + word + "' is not an option here: a command's options come after it"
                                            : "'" + word + "' is not a command" + of;
  return what + ": the" + (&parent == &app ? "" : " " + parent.get_name()) + " commands are " + commands;
}

}  // namespace

CLI::Validator seed_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t seed = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
        if (text.empty() || error != std::errc() || end != text.data() + text.size())
          return "a seed is a whole number from 0 to 18446744073709551615, not '" + text + "'";
        return {};
      },
      "SEED");
}

CLI::Validator non_empty(const std::string& name) {
  return CLI::Validator([](std::string& text) { return text.empty() ? std::string("empty") : std::string(); }, name);
}

CLI::Validator number_range(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        double value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || error != std::errc() || end != text.data() + text.size() || !(value >= min && value <= max))
          return "'" + text + "' is not a number from " + CLI::detail::to_string(min) + " to " +
                 CLI::detail::to_string(max);
        return {};
      },
      "FLOAT in [" + CLI::detail::to_string(min) + " - " + CLI::detail::to_string(max) + "]");
}

CLI::Validator model_file_check() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        if (!path.starts_with(kBuiltInPrefix)) return CLI::ExistingFile(path);
        try {
          built_in_net(path);
          return {};
        } catch (const std::exception& e) {
          return e.what();
        }
      },
      "FILE");
}

int run_app(CLI::App& app, int argc, char** argv) {
  add_shipped_nets();
  app.set_version_flag("--version", app.get_name() + " " + version_text());
  app.set_help_all_flag("--help-all", "Print the help of every command, then exit");
  drop_empty_list_defaults(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const CLI::App& parent = innermost_command(app);
    const bool no_command = dynamic_cast<const CLI::RequiredError*>(&e) && !parent.get_subcommands({}).empty();
    std::cerr << app.get_name() << ": " << (no_command ? missing_command(app, parent, argc, argv) : e.what())
              << " (see --help)\n";
    return e.get_exit_code() ? e.get_exit_code() : 2;
  } catch (const std::exception& e) {
    std::cerr << app.get_name() << ": error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace ataxx::cli
