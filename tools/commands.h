// The subcommands of ataxx-zero and ataxx-engine. Each file under tools/ adds one subcommand to the root app; its
// callback parses nothing itself and calls library code. Failures are thrown as exceptions and
// reported by main() as one line with a non-zero exit status.
#pragma once

#include <CLI/CLI.hpp>

#include <atomic>
#include <string>
#include <string_view>

namespace ataxx::cli {

void add_perft_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_match_command(CLI::App& app);
void add_ratings_command(CLI::App& app);
void add_openings_command(CLI::App& app);
void add_train_command(CLI::App& app);
void add_selfplay_command(CLI::App& app);
void add_pack_command(CLI::App& app);
void add_export_command(CLI::App& app);
void add_uai_command(CLI::App& app);
void add_analysis_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_serve_command(CLI::App& app);  // with ATAXX_SERVER

// Parses the command line and runs its command; a failure is one line on stderr and a non-zero status.
int run_app(CLI::App& app, int argc, char** argv);

// Checks a --seed: a whole number from 0 to 2^64 - 1 (CLI11 alone took -1 as 2^64 - 1, and a
// longer number as the largest).
CLI::Validator seed_check();

// Checks a number from min to max (CLI11's Range took NaN, which no comparison refuses).
CLI::Validator number_range(double min, double max);

// Checks text that must not be empty (a path, a spec): '' had been taken as the option left out.
CLI::Validator non_empty(const std::string& name);

// Checks a --model: a file, or a net this program carries (built-in:NAME, nn/built_in_nets.h).
CLI::Validator model_file_check();

// Makes SIGINT and SIGTERM set the returned flag instead of ending the process, so that a long
// command (train, selfplay, match) stops cleanly: its files whole, its child engines ended.
const std::atomic<bool>& install_stop_handlers();

// The folder of shipped nets that comes before those built in (players/net_shelf.h picks the one
// that plays a position): what `uai`, `play` and `serve` search with when no model or player is
// given. The first that exists of `nets/` beside the program and `../share/ataxx-zero/nets/` from it
// (an installed one, `cmake --install`); "" for none.
std::string shipped_nets_dir();
// Where the --model options' help says the shipped nets are found, as shipped_nets_dir looks.
#define ATAXX_SHIPPED_NETS_WHERE "a nets/ folder beside the program, then the built-in ones (built-in:FILE names one: built-in:ataxx-7x7.net)"
// How to call `name` (this program, or one built beside it) from the working folder: its bare name
// where PATH finds this very file, else its path ("./build/tools/ataxx-engine" from a checkout).
std::string program_command(const std::string& name);
// Adds the nets built into the program, "built-in:ataxx-7x7.net" and so on (run_app, at its start).
void add_shipped_nets();

}  // namespace ataxx::cli
