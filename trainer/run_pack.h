// A copy of a training run holding only what `train` reads to resume it exactly: the config, the
// CSVs, minutes and log, the newest checkpoint (and a stopped run's), the best play file and
// a candidate still to be gated, and the chunks that hold the replay window, with a tally of the
// older ones (games/counted-only.txt) so that the run's totals, and with them its window and the
// steps its samples allow, stay the same. It carries a GPU run from one machine to the next
// (tools/gpu/train.sh), where a whole run's games would not fit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trainer/replay_buffer.h"

namespace ataxx {

struct PackReport {
  int files = 0;
  std::int64_t bytes = 0;
  std::int64_t window = 0;              // samples of the run's window
  std::int64_t window_chunks = 0;       // chunks packed
  std::int64_t window_samples_lost = 0; // of the window, in chunks left out to stay under max_bytes
  CountedOnly counted_only;             // the chunks left behind, counted in the pack's tally
  // The files the run's config names ("KEY: PATH"): a resume reads them where they are, from the
  // folder train runs in, and the pack holds none of them.
  std::vector<std::string> named_files;
};

// Packs run_dir into `into`, a new folder. When the pack would pass max_bytes, the window's oldest
// chunks are left out (and counted only) until it fits, and the report says how many samples the
// window lost. Throws when a `train` process holds the run, `into` exists, the run has no config,
// or the files a resume needs do not fit in max_bytes even without any chunk.
PackReport pack_run(const std::string& run_dir, const std::string& into, std::int64_t max_bytes);

}  // namespace ataxx
