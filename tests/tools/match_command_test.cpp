// `ataxx-zero match` through the real binary, for the games the command line chooses.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <vector>

#include "tests/tools/run_binary.h"
#include "util/read_file.h"

namespace ataxx {
namespace {

TEST(MatchCommand, PlaysSchataxxFromItsTwoPlySuiteWithSchataxxsBaselines) {
  const Ran ran = run("match --variant schataxx-balanced --p1 alphabeta:depth=1 --p2 random --games 6 --quiet");
  ASSERT_EQ(ran.status, 0) << ran.output;
  std::smatch score;
  ASSERT_TRUE(std::regex_search(ran.output, score, std::regex(R"(Score of alphabeta:depth=1 vs random: (\d+) - (\d+) - (\d+))")))
      << ran.output;
  EXPECT_EQ(std::stoi(score[1]) + std::stoi(score[2]) + std::stoi(score[3]), 6);
  EXPECT_GE(std::stoi(score[1]), 5) << ran.output;
  EXPECT_TRUE(std::regex_search(ran.output, std::regex(R"(By colour, alphabeta:depth=1: as White \d+ - \d+ - \d+ )"
                                                       R"(\[[0-9.]+\], as Black \d+)")))
      << "Schataxx's sides by their names: " << ran.output;
}

TEST(MatchCommand, SplitsTheScoreByTheColourTheFirstPlayerHad) {
  const Ran ran = run("match --p1 alphabeta:depth=1 --p2 random --games 6 --quiet");
  ASSERT_EQ(ran.status, 0) << ran.output;
  std::smatch total, split;
  ASSERT_TRUE(std::regex_search(ran.output, total, std::regex(R"(Score of alphabeta:depth=1 vs random: (\d+) - (\d+) - (\d+))")))
      << ran.output;
  ASSERT_TRUE(std::regex_search(ran.output, split,
                                std::regex(R"(By colour, alphabeta:depth=1: as x (\d+) - (\d+) - (\d+) \[[0-9.]+\], )"
                                           R"(as o (\d+) - (\d+) - (\d+))")))
      << ran.output;
  int as_x = 0, as_o = 0;
  for (int i = 1; i <= 3; ++i) {
    as_x += std::stoi(split[i]);
    as_o += std::stoi(split[i + 3]);
    EXPECT_EQ(std::stoi(split[i]) + std::stoi(split[i + 3]), std::stoi(total[i])) << ran.output;
  }
  EXPECT_EQ(as_x, 3) << "both colours per opening: " << ran.output;
  EXPECT_EQ(as_o, 3) << ran.output;
  // The searching player's speed closes the summary; random searches nothing.
  std::smatch speed;
  ASSERT_TRUE(std::regex_search(ran.output, speed, std::regex(R"(\nSpeed of alphabeta:depth=1: (\d+) nodes/s\n)")))
      << ran.output;
  EXPECT_GT(std::stoll(speed[1]), 0) << ran.output;
  EXPECT_EQ(ran.output.find("Speed of random"), std::string::npos) << ran.output;
}

// Options that only mean something beside another were accepted alone and ignored.
TEST(OpeningsAndExportCommands, RefuseAnOptionWithoutTheOptionItQualifies) {
  const Ran openings = run("openings --plies 1 --max-cp 20 --out " + testing::TempDir() + "/unjudged.txt");
  EXPECT_NE(openings.status, 0);
  EXPECT_NE(openings.output.find("--max-cp requires --judge"), std::string::npos) << openings.output;
  const Ran exported = run("export checkpoint.pt --out averaged.net --calibration-batches 5");
  EXPECT_NE(exported.status, 0);
  EXPECT_NE(exported.output.find("--calibration-batches requires --average"), std::string::npos) << exported.output;
}

// `--out` replaced a file already there without a word; now only with --force, and the refusal
// comes before the command's work.
TEST(OpeningsAndExportCommands, KeepAFileAlreadyThereUnlessForced) {
  const std::string out = testing::TempDir() + "/openings-already-there.txt";
  std::ofstream(out) << "kept\n";
  const Ran openings = run("openings --plies 1 --out " + out);
  EXPECT_NE(openings.status, 0);
  EXPECT_NE(openings.output.find("'" + out + "' exists: give --force to replace it"), std::string::npos)
      << openings.output;
  const Ran exported = run("export missing-checkpoint.pt --out " + out);
  EXPECT_NE(exported.status, 0);
  EXPECT_NE(exported.output.find("exists: give --force"), std::string::npos) << exported.output;
  EXPECT_EQ(read_whole_file(out), "kept\n");

  const Ran forced = run("openings --plies 1 --force --out " + out);
  ASSERT_EQ(forced.status, 0) << forced.output;
  EXPECT_NE(forced.output.find("wrote 16 positions"), std::string::npos) << forced.output;
  EXPECT_EQ(std::ranges::count(read_whole_file(out), '\n'), 17) << "a comment line and 16 positions";
}

// `--force` renamed its file over whatever --out named: a link (left the file it named as it was),
// a pipe, a device (/dev/full, as root). A link to a file is written through; the rest refused.
TEST(OpeningsAndExportCommands, ForceWritesThroughALinkAndRefusesWhatIsNotAFile) {
  namespace fs = std::filesystem;
  const std::string dir = testing::TempDir() + "/out-not-a-file";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir + "/target.txt") << "old\n";
  fs::create_symlink("target.txt", dir + "/link.txt");
  const Ran through = run("openings --plies 1 --force --out " + dir + "/link.txt");
  ASSERT_EQ(through.status, 0) << through.output;
  EXPECT_TRUE(fs::is_symlink(dir + "/link.txt"));
  EXPECT_EQ(std::ranges::count(read_whole_file(dir + "/target.txt"), '\n'), 17) << "a comment line and 16 positions";
  ASSERT_EQ(::mkfifo((dir + "/pipe").c_str(), 0644), 0);
  for (const std::string& not_a_file : {dir + "/pipe", dir}) {
    const Ran refused = run("openings --plies 1 --force --out " + not_a_file);
    EXPECT_NE(refused.status, 0);
    EXPECT_NE(refused.output.find("'" + not_a_file + "' is not a file: --out names a file to write"), std::string::npos)
        << refused.output;
  }
  EXPECT_EQ(fs::status(dir + "/pipe").type(), fs::file_type::fifo);
  fs::create_symlink("new.txt", dir + "/dangling.txt");  // written through, as a shell's redirection
  ASSERT_EQ(run("openings --plies 1 --out " + dir + "/dangling.txt").status, 0);
  EXPECT_EQ(std::ranges::count(read_whole_file(dir + "/new.txt"), '\n'), 17);
}

// A --seed of -1 was taken as 2^64 - 1, and one too long as the largest: two seeds asked
// became one.
// CLI11's Range took nan (no comparison refuses it): benches printed -nan% and rc 0.
TEST(BenchCommands, SecondsAreANumberInTheirRange) {
  for (const std::string bench : {"nn", "train", "selfplay --simulated"}) {
    const Ran ran = run("bench " + bench + " --seconds nan");
    EXPECT_NE(ran.status, 0) << bench;
    EXPECT_NE(ran.output.find("--seconds: 'nan' is not a number from "), std::string::npos) << ran.output;
  }
}

TEST(OpeningsAndExportCommands, ASeedIsAWholeNumberThatFits) {
  const std::string run_dir = testing::TempDir() + "/seed-refused";
  for (const std::string& command :
       {"openings --plies 1 --out " + testing::TempDir() + "/seeded.txt --seed ",
        std::string("match --p1 random --p2 random --games 2 --seed "),
        "train --config " + std::string(ATAXX_SOURCE_DIR) + "/configs/tiny.yaml --run-dir " + run_dir + " --seed "})
    for (const std::string seed : {"-1", "18446744073709551616", "1e3"}) {
      const Ran ran = run(command + seed);
      EXPECT_NE(ran.status, 0) << command << seed;
      EXPECT_NE(ran.output.find("a seed is a whole number from 0 to 18446744073709551615, not '" + seed + "'"),
                std::string::npos)
          << ran.output;
    }
  EXPECT_FALSE(std::filesystem::exists(run_dir));
}

// A root whose game ends before the plies asked wrote a suite of no positions, which no match can
// play, and said it had.
TEST(OpeningsAndExportCommands, AnOpeningsSuiteOfNoPositionsIsRefused) {
  const std::string out = testing::TempDir() + "/no-openings.txt";
  std::filesystem::remove(out);
  const Ran ran = run("openings --plies 1 --root 'xxxxxxx/7/7/7/7/7/7 x 0 1' --out " + out);
  EXPECT_NE(ran.status, 0);
  EXPECT_NE(ran.output.find("no position is 1 ply after the root: its game ends sooner"), std::string::npos)
      << ran.output;
  EXPECT_FALSE(std::filesystem::exists(out));
}

// `export X --out X --force` replaced the checkpoint with its play file, and its run could not resume.
TEST(OpeningsAndExportCommands, ExportNeverReplacesWhatItReads) {
  const std::string run_dir = testing::TempDir() + "/export-own-run";
  std::filesystem::create_directories(run_dir + "/models");
  const std::string checkpoint = run_dir + "/stopped.ckpt", model = run_dir + "/models/gen-0001.net";
  std::ofstream(checkpoint) << "kept\n";
  std::ofstream(model) << "kept\n";
  const Ran onto_itself = run("export " + checkpoint + " --force --out " + checkpoint);
  EXPECT_NE(onto_itself.status, 0);
  EXPECT_NE(onto_itself.output.find("is the checkpoint it reads"), std::string::npos) << onto_itself.output;
  const Ran into_the_run = run("export " + run_dir + " --average 2 --force --out " + model);
  EXPECT_NE(into_the_run.status, 0);
  EXPECT_NE(into_the_run.output.find("is inside the run it averages"), std::string::npos) << into_the_run.output;
  const Ran new_file_in_the_run = run("export " + run_dir + " --average 2 --out " + run_dir + "/models/gen-0099.net");
  EXPECT_NE(new_file_in_the_run.output.find("is inside the run it averages"), std::string::npos)
      << new_file_in_the_run.output;
  EXPECT_FALSE(std::filesystem::exists(run_dir + "/models/gen-0099.net"));
  const Ran unforced = run("export " + checkpoint + " --out " + checkpoint);  // the real reason, not --force
  EXPECT_NE(unforced.output.find("is the checkpoint it reads"), std::string::npos) << unforced.output;
  EXPECT_EQ(read_whole_file(checkpoint), "kept\n");
  EXPECT_EQ(read_whole_file(model), "kept\n");
}

// A net of another board lost every game ("failed: model ... does not play 8x8") and the match
// ended with status 0; now it ends before its first game.
TEST(MatchCommand, ANetOfAnotherBoardEndsTheMatchBeforeItsFirstGame) {
  const std::string net = std::string("nn:model=") + ATAXX_SOURCE_DIR + "/nets/ataxx-7x7.net,visits=8";
  const std::string pgn = testing::TempDir() + "/never-started.pgn";
  std::filesystem::remove(pgn);
  const Ran ran = run("match --p1 " + net + " --p2 random --games 2 --board 8x8 --pgn " + pgn);
  EXPECT_NE(ran.status, 0);
  EXPECT_FALSE(std::filesystem::exists(pgn)) << "an empty PGN had been left behind";
  EXPECT_NE(ran.output.find(net + " cannot play this match: model "), std::string::npos) << ran.output;
  EXPECT_NE(ran.output.find(" was trained on 7x7 and does not play 8x8"), std::string::npos) << ran.output;
  EXPECT_EQ(ran.output.find("Finished game"), std::string::npos) << ran.output;
}

TEST(MatchCommand, APgnFileItCannotWriteIsNamedWithTheReason) {
  const Ran ran = run("match --p1 greedy --p2 random --games 2 --pgn /nonexistent-folder/games.pgn");
  EXPECT_NE(ran.status, 0);
  EXPECT_NE(ran.output.find("cannot write PGN file '/nonexistent-folder/games.pgn': No such file or directory"),
            std::string::npos)
      << ran.output;
}

// --pgn had added games to any file: the match's own openings file, a net; a game it could not
// write (a full disk) was dropped without a word; a file that did not end its last line had the
// first new game's tag on that line.
TEST(MatchCommand, APgnFileTakesGamesOnlyWhereTheyBelong) {
  const std::string dir = testing::TempDir() + "/pgn-files";
  std::filesystem::create_directories(dir);
  const std::string openings = dir + "/openings.txt", net = dir + "/a.net", pgn = dir + "/unended.pgn";
  const std::string suite = "x5o/7/7/7/7/7/o5x x 0 1\n";
  std::ofstream(openings) << suite;
  const std::string net_bytes("AXZN\0\x01\x02net", 10);
  std::ofstream(net, std::ios::binary) << net_bytes;
  const Ran own = run("match --p1 greedy --p2 random --games 2 --openings " + openings + " --pgn " + openings);
  EXPECT_NE(own.status, 0);
  EXPECT_NE(own.output.find("--pgn '" + openings + "' is the match's openings file"), std::string::npos) << own.output;
  EXPECT_EQ(read_whole_file(openings), suite);
  const Ran binary = run("match --p1 greedy --p2 random --games 2 --pgn " + net);
  EXPECT_NE(binary.status, 0);
  EXPECT_NE(binary.output.find("--pgn '" + net + "' holds something other than PGN games"), std::string::npos)
      << binary.output;
  EXPECT_EQ(read_whole_file(net), net_bytes);
  const Ran full = run("match --p1 greedy --p2 random --games 2 --pgn /dev/full");
  EXPECT_NE(full.status, 0);
  EXPECT_NE(full.output.find("cannot write game 1 to PGN file '/dev/full': No space left on device"), std::string::npos)
      << full.output;
  std::ofstream(pgn) << "[Event \"mine\"]\n\n1. f1 *";
  ASSERT_EQ(run("match --p1 greedy --p2 random --games 1 --pgn " + pgn).status, 0);
  EXPECT_TRUE(read_whole_file(pgn).starts_with("[Event \"mine\"]\n\n1. f1 *\n\n[Event \"ataxx-zero match\"]\n"))
      << read_whole_file(pgn);
  const Ran empty = run("match --p1 greedy --p2 random --games 2 --pgn ''");  // had played without a PGN
  EXPECT_NE(empty.output.find("--pgn: empty"), std::string::npos) << empty.output;
}

TEST(MatchCommand, RefusesAnUnknownVariant) {
  const Ran ran = run("match --variant chess --p1 greedy --p2 random --games 2");
  EXPECT_NE(ran.status, 0);
  EXPECT_NE(ran.output.find("--variant: chess not in"), std::string::npos) << ran.output;
}

TEST(MatchCommand, WritesSchataxxGamesAsPgnFromAnOpeningsFile) {
  const std::string dir = testing::TempDir();
  const std::string openings = dir + "/schataxx-match-openings.txt", pgn = dir + "/schataxx-match.pgn";
  std::filesystem::remove(pgn);
  std::ofstream(openings) << "k6N/8/8/8/8/8/1P6/K6n[QRRBBNPPPPPPPqrrbbnpppppppp] b - - 0 1\n";
  const Ran ran = run("match --variant schataxx-unlimited --p1 greedy --p2 random --games 2 --quiet --openings " +
                      openings + " --pgn " + pgn);
  ASSERT_EQ(ran.status, 0) << ran.output;
  const std::string text = read_whole_file(pgn);
  EXPECT_EQ(std::regex_search(text, std::regex(R"(\[Variant "schataxx-unlimited"\])")), true) << text;
  std::ptrdiff_t games = 0;
  for (std::size_t at = 0; (at = text.find("[FEN \"k6N/8/8/8/8/8/1P6/K6n[", at)) != std::string::npos; ++at) ++games;
  EXPECT_EQ(games, 2) << text;
  EXPECT_NE(text.find("1... "), std::string::npos) << "Black moves first from this opening: " << text;
}

TEST(MatchCommand, PlaysOnABoardOfTheFamilyFromItsTwoPlySuite) {
  const std::string pgn = testing::TempDir() + "/hexagon-match.pgn";
  std::filesystem::remove(pgn);
  const Ran ran = run("match --board hexagon --p1 greedy --p2 random --games 4 --quiet --pgn " + pgn);
  ASSERT_EQ(ran.status, 0) << ran.output;
  const std::string text = read_whole_file(pgn);
  const std::regex fen_tag(R"re(\[FEN "([^"]+)"\])re");
  int games = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), fen_tag); it != std::sregex_iterator(); ++it, ++games) {
    const std::string fen = (*it)[1];
    EXPECT_EQ(std::count(fen.begin(), fen.end(), '/'), 8) << "a hexagon has 9 rows: " << fen;
  }
  EXPECT_EQ(games, 4) << text;
}

// Two halves of a match at once: the second starts from its file's opening N.
TEST(MatchCommand, StartsFromTheOpeningItIsGiven) {
  const std::string openings = testing::TempDir() + "/three-openings.txt", pgn = testing::TempDir() + "/started.pgn";
  std::ofstream(openings) << "x5o/7/7/7/7/7/o5x x 0 1\nx5o/7/7/3-3/7/7/o5x x 0 1\nx5o/7/2-1-2/7/2-1-2/7/o5x x 0 1\n";
  std::filesystem::remove(pgn);
  const Ran ran = run("match --p1 greedy --p2 random --games 4 --quiet --opening-start 2 --openings " + openings +
                      " --pgn " + pgn);
  ASSERT_EQ(ran.status, 0) << ran.output;
  const std::string text = read_whole_file(pgn);
  std::vector<std::string> fens;
  const std::regex fen_tag(R"re(\[FEN "([^"]+)"\])re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), fen_tag); it != std::sregex_iterator(); ++it)
    fens.push_back((*it)[1]);
  EXPECT_EQ(fens, (std::vector<std::string>{"x5o/7/7/3-3/7/7/o5x x 0 1", "x5o/7/7/3-3/7/7/o5x x 0 1",
                                            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"}))
      << text;
  // After the file's last opening, its first, as cutechess-cli's (the match had played opening 3 again).
  std::filesystem::remove(pgn);
  ASSERT_EQ(
      run("match --p1 greedy --p2 random --games 6 --quiet --opening-start 2 --openings " + openings + " --pgn " + pgn)
          .status,
      0);
  const std::string again = read_whole_file(pgn);
  fens.clear();
  for (auto it = std::sregex_iterator(again.begin(), again.end(), fen_tag); it != std::sregex_iterator(); ++it)
    fens.push_back((*it)[1]);
  ASSERT_EQ(fens.size(), 6U) << again;
  EXPECT_EQ(fens[4], "x5o/7/7/7/7/7/o5x x 0 1") << again;
  const Ran past = run("match --p1 greedy --p2 random --games 2 --opening-start 4 --openings " + openings);
  EXPECT_NE(past.status, 0);
  EXPECT_NE(past.output.find("--opening-start 4: there are only 3 openings"), std::string::npos) << past.output;
  const Ran zero =
      run("match --p1 greedy --p2 random --games 2 --opening-start 0");  // had said 0 is not in 0 to 1.8e308
  EXPECT_NE(zero.output.find("--opening-start: Value 0 not in range 1 to 2147483647"), std::string::npos)
      << zero.output;
}

TEST(MatchCommand, RefusesAnUnknownBoardAndOpeningsOfAnotherBoard) {
  const Ran unknown = run("match --board 9x9 --p1 greedy --p2 random --games 2");
  EXPECT_NE(unknown.status, 0);
  EXPECT_NE(unknown.output.find("unknown board '9x9'"), std::string::npos) << unknown.output;
  const std::string openings = testing::TempDir() + "/7x7-openings.txt";
  std::ofstream(openings) << "x5o/7/7/7/7/7/o5x x 0 1\n";
  const Ran other = run("match --board 5x5 --openings " + openings + " --p1 greedy --p2 random --games 2");
  EXPECT_NE(other.status, 0);
  EXPECT_NE(other.output.find("where 5x5 openings are expected"), std::string::npos) << other.output;
}

// A match stopped by SIGTERM ends between two moves, says so with the score so far, and ends its
// engines, even one that never exits on its own (Zataxx and Autaxx do not when their input closes;
// before, a killed match left them running, one at 74 % of a core).
TEST(MatchCommand, AStopEndsTheMatchAndItsEngines) {
  const std::string dir = testing::TempDir() + "/match-stop";
  std::filesystem::create_directories(dir);
  const std::string engine = dir + "/stubborn-engine.sh", script = dir + "/stop.sh";
  std::ofstream(engine) << "#!/bin/bash\n"
                           "trap '' PIPE\n"  // a closed output does not end it either
                           "while true; do\n"
                           "  if read -r line; then\n"
                           "    case \"$line\" in\n"
                           // Its first answer comes after the stop, which then ends the game unfinished.
                           "      uai) echo uaiok ;; isready) echo readyok ;; go*) sleep 5; echo 'bestmove 0000' ;;\n"
                           "    esac\n"
                           "  else sleep 0.1; fi\n"
                           "done\n";
  std::filesystem::permissions(engine, std::filesystem::perms::owner_all);
  std::ofstream(script) << ATAXX_ZERO_BINARY << " match --p1 random --p2 uai:cmd=" << engine << " --games 1000 > "
                        << dir
                        << "/out.txt 2>&1 &\n"
                        // The stop handlers are in place before the engine starts: wait for it (a slow
                        // start, as under ASan beside a build, took over 1.5 s), then for a move or two.
                        << "match=$!; for i in $(seq 300); do pgrep -f \"bash " << engine
                        << "\" > /dev/null && break; sleep 0.1; done\n"
                        << "sleep 1; kill -TERM $match; wait $match; echo \"exit $?\"\n"
                        << "sleep 0.5; echo \"engines $(pgrep -f " << engine << " | wc -l)\"\n"
                        << "pkill -KILL -f " << engine << "; cat " << dir << "/out.txt\n";
  const Ran ran = run_shell("bash " + script);
  EXPECT_NE(ran.output.find("exit 0"), std::string::npos) << ran.output;
  EXPECT_NE(ran.output.find("engines 0"), std::string::npos) << ran.output;
  // No game was finished: the score says so, and no Elo of "+0.0 +/- 0.0" or colour's 0.500 is made up.
  EXPECT_NE(ran.output.find("Stopped after 0 of 1000 games."), std::string::npos) << ran.output;
  EXPECT_EQ(ran.output.find("Elo difference"), std::string::npos) << ran.output;
  EXPECT_EQ(ran.output.find("By colour"), std::string::npos) << ran.output;
}

// The CPUs this process may run on, as taskset numbers them.
std::vector<int> allowed_cpus() {
  cpu_set_t set;
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

// A pondering engine thinks on a core of its own while its opponent moves: on one core, a game of
// it at a time already shares that core with the opponent's search, and match says so; on two it
// fits. Without pondering, no warning.
TEST(MatchCommand, WarnsWhenPonderingEnginesLackTheirCores) {
  const std::vector<int> cpus = allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  const std::string engine = std::string("uai:cmd=") + ATAXX_ENGINE_BINARY + " uai,movetime=5";
  const auto match_on = [](const std::string& cpu_list, const std::string& player) {
    return run_shell("taskset -c " + cpu_list + " " + ATAXX_ZERO_BINARY + " match --p2 random --games 2 --p1 '" +
                     player + "'");
  };
  const std::string one_cpu = std::to_string(cpus[0]);
  const Ran pondering = match_on(one_cpu, engine + ",ponder=1");
  ASSERT_EQ(pondering.status, 0) << pondering.output;
  EXPECT_NE(pondering.output.find("warning: a pondering player keeps two cores busy in each game: 1 game at once "
                                  "needs 2 cores, and this match may run on 1"),
            std::string::npos)
      << pondering.output;
  const Ran plain = match_on(one_cpu, engine);
  ASSERT_EQ(plain.status, 0) << plain.output;
  EXPECT_EQ(plain.output.find("warning"), std::string::npos) << plain.output;
  if (cpus.size() < 2) return;
  const Ran two_cpus = match_on(one_cpu + "," + std::to_string(cpus[1]), engine + ",ponder=1");
  ASSERT_EQ(two_cpus.status, 0) << two_cpus.output;
  EXPECT_EQ(two_cpus.output.find("warning"), std::string::npos) << two_cpus.output;
}

// `ratings --fixed`: references held where they are given (as rating lists hold theirs), the
// others rated against them; `random=P` names a player with '=' in it, split at the last one.
TEST(RatingsCommand, HoldsTheFixedPlayersAndRatesTheOthersAgainstThem) {
  const std::string pgn = testing::TempDir() + "/fixed.pgn";
  {
    std::ofstream out(pgn);
    auto game = [&](const char* black, const char* white, const char* result) {
      out << "[Black \"" << black << "\"]\n[White \"" << white << "\"]\n[Result \"" << result << "\"]\n\n" << result
          << "\n\n";
    };
    for (int i = 0; i < 30; ++i) game("level", "greedy:random=0.5", i < 20 ? "1-0" : "0-1");
    for (int i = 0; i < 30; ++i) game("level", "greedy", i < 10 ? "1-0" : "0-1");
    for (int i = 0; i < 4; ++i) game("apart", "alone", i < 3 ? "1-0" : "0-1");  // linked to no reference
  }
  const Ran ran = run("ratings " + pgn + " --fixed greedy=1000 --fixed greedy:random=0.5=600");
  ASSERT_EQ(ran.status, 0) << ran.output;
  std::smatch level;
  ASSERT_TRUE(std::regex_search(ran.output, level, std::regex(R"(\s1\s+greedy\s+\+1000\s+0\s+30\s)"))) << ran.output;
  ASSERT_TRUE(std::regex_search(ran.output, level, std::regex(R"(level\s+\+(\d+)\s+(\d+)\s+60)"))) << ran.output;
  EXPECT_EQ(std::stoi(level[1]), 800) << "symmetric scores against both: halfway " << ran.output;
  EXPECT_GT(std::stoi(level[2]), 0) << ran.output;
  EXPECT_NE(ran.output.find("greedy:random=0.5 at +600"), std::string::npos) << ran.output;
  EXPECT_TRUE(std::regex_search(ran.output, std::regex(R"(\n\s+-\s+apart\s+-\s+-\s+4\s)"))) << ran.output;
  EXPECT_NE(ran.output.find("-: no chain of games links the player to one held fixed"), std::string::npos) << ran.output;
  const Ran bad = run("ratings " + pgn + " --fixed greedy");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("--fixed 'greedy' is not NAME=ELO"), std::string::npos) << bad.output;
  const Ran twice = run("ratings " + pgn + " --fixed greedy=1000 --fixed greedy=900");  // had kept the last
  EXPECT_NE(twice.status, 0);
  EXPECT_NE(twice.output.find("--fixed holds 'greedy' fixed twice"), std::string::npos) << twice.output;
  const Ran absent = run("ratings " + pgn + " --fixed alphabeta=1000");
  EXPECT_NE(absent.status, 0);
  EXPECT_NE(absent.output.find("'alphabeta' (held fixed) played no game"), std::string::npos) << absent.output;
}

}  // namespace
}  // namespace ataxx
