#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "nn/model_info.h"
#include "tools/commands.h"
#include "tools/output_option.h"
#include "trainer/weight_average.h"
#include "util/paths.h"

namespace ataxx::cli {
namespace {

// What an export reads is never what it writes: a checkpoint exported onto itself, or a mean
// written into the run it averages (among its models, as if the run had made it), would be lost
// or would mislead.
void refuse_to_write_the_source(const std::string& out, const std::string& source) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(out, error) && fs::equivalent(out, source, error))
    throw std::runtime_error("export: --out '" + out + "' is the checkpoint it reads: write the play file elsewhere");
  if (fs::is_directory(source, error) && is_inside(out, source))
    throw std::runtime_error("export: --out '" + out + "' is inside the run it averages: write the mean elsewhere");
}

}  // namespace

void add_export_command(CLI::App& app) {
  struct Options {
    std::string source;
    OutputFile out;
    std::string name = "exported";
    int average = 0;
    WeightAverageOptions averaging;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("export", "Make a play file (for uai, match, play) from a training checkpoint, or "
                                           "from the mean of a run's newest models (--average)");
  cmd->footer(
      "A run's models/gen-NNNN.net files, and models/best (its best), are play files already: play them as they are. "
      "Export a checkpoint (checkpoints/*.ckpt: the trainer's state between two candidates, or where a run stopped) or "
      "the mean of a run's newest models.");
  cmd->add_option("source", options->source, "Checkpoint file, or with --average a run directory")->required();
  add_output_option(*cmd, options->out, "Play file to write");
  cmd->add_option("--name", options->name, "Model name stored in the file");
  auto* average =
      cmd->add_option("--average", options->average,
                      "Average the weights of the run's newest N models (stochastic weight averaging); batch norms are "
                      "measured again on the run's replay window")
          ->check(CLI::Range(1, 100000))
          ->default_str("");  // not given: a checkpoint exported
  cmd->add_option("--calibration-batches", options->averaging.calibration_batches,
                  "With --average: batches of the replay window the batch norms are measured on")
      ->check(CLI::Range(1, 100000))
      ->needs(average);
  cmd->callback([options] {
    refuse_to_write_the_source(options->out.path, options->source);
    const std::string out = path_to_write(options->out);
    if (options->average == 0) {
      if (!std::filesystem::is_regular_file(options->source))
        throw std::runtime_error("export: checkpoint '" + options->source + "' is not a file");
      export_play_file(options->source, out, options->name);
      std::printf("wrote %s\n", out.c_str());
      return;
    }
    options->averaging.run_dir = options->source;
    options->averaging.models = options->average;
    const WeightAverageReport report = export_weight_average(options->averaging, out, options->name);
    const std::string models =
        report.models == 1 ? fmt::format("its newest model, {},", report.first)
                           : fmt::format("the mean of {} models ({} .. {}),", report.models, report.first, report.last);
    fmt::print("wrote {}: {} batch norms measured on {} samples\n", out, models, report.calibration_samples);
    if (report.models < options->average)
      fmt::print("  the run has {} of the {} models asked{}\n", report.models, options->average,
                 report.models == 1 ? "" : ": all of them are in the mean");
  });
}

}  // namespace ataxx::cli
