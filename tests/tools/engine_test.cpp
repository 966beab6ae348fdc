// ataxx-engine, the engine built without LibTorch, against ataxx-zero's own UAI engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/tools/run_binary.h"

namespace ataxx {
namespace {

// `program` fed `typed` (lines, as printf reads them).
Ran fed(const std::string& program, const std::string& typed) {
  return run_shell("printf '" + typed + "' | " + program);
}

// What a search's output says whatever the machine's speed: each search's last info line and its
// bestmove, the info strings, the rest, without its time and speed (the interim info lines, every
// 500 ms of a search, are as many as the machine's speed makes).
std::string searched(const std::string& output) {
  std::istringstream lines(output);
  std::string kept, line, last_info;
  while (std::getline(lines, line)) {
    if (line.starts_with("info ") && !line.starts_with("info string ")) {
      last_info = line + "\n";
      continue;
    }
    if (line.starts_with("bestmove ")) kept += std::exchange(last_info, "");
    kept += line + "\n";
  }
  return std::regex_replace(kept, std::regex(" (nps|time) [0-9]+"), "");
}

TEST(Engine, SearchesEveryGameExactlyAsAtaxxZerosUaiEngine) {
  const std::string typed =
      "uai\\nposition startpos moves g2\\ngo nodes 300\\n"
      "position fen x3o/5/5/5/o3x x 0 1\\ngo nodes 200\\n"
      "setoption name UCI_Variant value schataxx\\nposition startpos\\ngo nodes 200\\n";
  const Ran engine = fed(ATAXX_ENGINE_BINARY, typed);
  const Ran zero = fed(std::string(ATAXX_ZERO_BINARY) + " uai", typed);
  ASSERT_EQ(engine.status, 0) << engine.output;
  ASSERT_EQ(zero.status, 0) << zero.output;
  for (const char* net : {"ataxx-7x7.net", "ataxx-family.net", "schataxx.net"})
    EXPECT_NE(engine.output.find(std::string("searching with built-in:") + net), std::string::npos) << engine.output;
  EXPECT_EQ(searched(engine.output), searched(zero.output));
}

// `--version`: the program, CMakeLists.txt's version and, built in a git checkout, the commit.
TEST(Engine, BothProgramsSayTheirVersion) {
  const bool checkout = std::filesystem::exists(std::string(ATAXX_SOURCE_DIR) + "/.git");
  const std::string version = std::regex_replace(ATAXX_PROJECT_VERSION, std::regex(R"(\.)"), R"(\.)");
  const std::regex said(R"(^ataxx-(zero|engine) )" + version + (checkout ? R"( \([0-9a-f]{7}(-dirty)?\))" : "") +
                        "\n$");
  for (const char* program : {ATAXX_ENGINE_BINARY, ATAXX_ZERO_BINARY}) {
    const Ran ran = run_shell(std::string(program) + " --version");
    EXPECT_EQ(ran.status, 0) << ran.output;
    EXPECT_TRUE(std::regex_match(ran.output, said)) << ran.output;
  }
}

// A misspelt command, or an option before any, got "A subcommand is required" alone.
TEST(Engine, AWordThatIsNoCommandIsNamedWithTheCommands) {
  for (const char* program : {ATAXX_ENGINE_BINARY, ATAXX_ZERO_BINARY}) {
    const Ran typo = run_shell(std::string(program) + " perf 2");
    EXPECT_NE(typo.status, 0);
    EXPECT_NE(typo.output.find("'perf' is not a command: the commands are "), std::string::npos) << typo.output;
    EXPECT_NE(typo.output.find("perft"), std::string::npos) << typo.output;
    const Ran option = run_shell(std::string(program) + " --model some.net");
    EXPECT_NE(option.status, 0);
    EXPECT_NE(option.output.find("'--model' is not an option here: a command's options come after it: the commands "
                                 "are "),
              std::string::npos)
        << option.output;
    const Ran nothing = run_shell(std::string(program) + " --bogus");  // the engine speaks UAI with no words alone
    EXPECT_NE(nothing.output.find("'--bogus' is not an option here"), std::string::npos) << nothing.output;
  }
  for (const char* words : {"bench", "bench nnn"}) {  // a command's own commands likewise
    const Ran bench = run_shell(std::string(ATAXX_ZERO_BINARY) + " " + words);
    EXPECT_NE(bench.status, 0);
    EXPECT_NE(bench.output.find(std::string(words) == "bench" ? "no command of bench given"
                                                              : "'nnn' is not a command of bench"),
              std::string::npos)
        << bench.output;
    EXPECT_NE(bench.output.find(": the bench commands are perft, mcts, nn, "), std::string::npos) << bench.output;
  }
}

// `--help` says each option's default, in both programs, and what ataxx-engine does with no command
// (its subcommands' helps do not).
TEST(Engine, HelpSaysTheDefaults) {
  for (const char* program : {ATAXX_ENGINE_BINARY, ATAXX_ZERO_BINARY}) {
    const Ran match = run_shell(std::string(program) + " match --help");
    EXPECT_EQ(match.status, 0) << match.output;
    EXPECT_TRUE(std::regex_search(match.output, std::regex(R"(--games INT[^\n]*=100\b)"))) << match.output;
    EXPECT_TRUE(std::regex_search(match.output, std::regex(R"(--concurrency INT[^\n]*=1\b)"))) << match.output;
    const Ran play = run_shell(std::string(program) + " play --help");
    EXPECT_TRUE(std::regex_search(play.output, std::regex(R"(--visits INT[^\n]*=400\b)"))) << play.output;
    const Ran ratings = run_shell(std::string(program) + " ratings --help");  // lists default to none
    EXPECT_TRUE(std::regex_search(ratings.output, std::regex(R"(--fixed TEXT \.\.\.)"))) << ratings.output;
  }
  const Ran selfplay = run_shell(std::string(ATAXX_ZERO_BINARY) + " selfplay --help");
  EXPECT_TRUE(std::regex_search(selfplay.output, std::regex(R"(--set TEXT \.\.\.)"))) << selfplay.output;
  const Ran engine = run_shell(std::string(ATAXX_ENGINE_BINARY) + " --help");
  EXPECT_NE(engine.output.find("With no subcommand it speaks UAI"), std::string::npos) << engine.output;
  const Ran engine_match = run_shell(std::string(ATAXX_ENGINE_BINARY) + " match --help");  // a subcommand's is its own
  EXPECT_EQ(engine_match.output.find("With no subcommand"), std::string::npos) << engine_match.output;
}

// The analysis engine for tools, in both programs: the same answers, by id and turn.
TEST(Engine, AnalysesForToolsExactlyAsAtaxxZeroDoes) {
  const std::string typed =
      R"({"id":"q","moves":["g2"],"analyzeTurns":[0,1],"maxVisits":100}\n)"
      R"({"id":"s","variant":"schataxx","maxVisits":50}\n{"id":"bad","moves":["a1a1"]}\n)";
  const Ran engine = fed(std::string(ATAXX_ENGINE_BINARY) + " analysis --threads 1", typed);
  const Ran zero = fed(std::string(ATAXX_ZERO_BINARY) + " analysis --threads 1", typed);
  ASSERT_EQ(engine.status, 0) << engine.output;
  ASSERT_EQ(zero.status, 0) << zero.output;
  for (const char* start : {R"({"id":"q","turnNumber":0,"isDuringSearch":false,"moveInfos":[{"move":")",
                            R"({"id":"q","turnNumber":1,)", R"({"id":"s","turnNumber":0,)", R"({"id":"bad","error":)"})
    EXPECT_NE(engine.output.find(start), std::string::npos) << start << "\n" << engine.output;
  const auto sorted_lines = [](const std::string& output) {  // refusals come at once, answers as searches end
    std::istringstream in(output);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::ranges::sort(lines);
    return lines;
  };
  EXPECT_EQ(sorted_lines(engine.output), sorted_lines(zero.output));
}

// --report-winrates-as: the view of every query that does not name one (KataGo's config setting).
TEST(Engine, AnalysesFromTheViewItsCommandLineNames) {
  const std::string typed = R"({"id":"q","moves":["g2"],"maxVisits":16}\n)"
                            R"({"id":"own","moves":["g2"],"maxVisits":16,)"
                            R"("overrideSettings":{"reportAnalysisWinratesAs":"SIDETOMOVE"}}\n)";
  const auto winrates = [&](const std::string& flags) {
    const Ran ran = fed(std::string(ATAXX_ENGINE_BINARY) + " analysis --threads 1 " + flags, typed);
    EXPECT_EQ(ran.status, 0) << ran.output;
    std::map<std::string, double> found;
    const std::regex answer(R"re(\{"id":"(\w+)".*"rootInfo":\{[^}]*"winrate":([0-9.]+))re");
    for (std::sregex_iterator it(ran.output.begin(), ran.output.end(), answer), end; it != end; ++it)
      found[(*it)[1]] = std::stod((*it)[2]);
    return found;
  };
  std::map<std::string, double> mover = winrates("");
  std::map<std::string, double> black = winrates("--report-winrates-as black");
  ASSERT_EQ(mover.size(), 2U);
  ASSERT_EQ(black.size(), 2U);
  EXPECT_NEAR(black["q"], 1 - mover["q"], 1.5e-4);  // turn 1: o, White, to move
  EXPECT_NEAR(black["own"], mover["own"], 1.5e-4);
  const Ran refused = fed(std::string(ATAXX_ENGINE_BINARY) + " analysis --report-winrates-as red", typed);
  EXPECT_NE(refused.status, 0);
  EXPECT_NE(refused.output.find("--report-winrates-as: red not in {SIDETOMOVE,BLACK,WHITE}"), std::string::npos)
      << refused.output;
}

TEST(Engine, LinksNoLibTorch) {
  const Ran libraries = run_shell(std::string("ldd ") + ATAXX_ENGINE_BINARY);
  ASSERT_EQ(libraries.status, 0) << libraries.output;
  EXPECT_NE(libraries.output.find("libstdc++"), std::string::npos) << libraries.output;
  EXPECT_EQ(libraries.output.find("libtorch"), std::string::npos) << libraries.output;
  EXPECT_EQ(libraries.output.find("libc10"), std::string::npos) << libraries.output;
}

TEST(Engine, ADeviceItHasNoBackendForIsRefusedNamingTheProgramThatHasOne) {
  const Ran ran = fed(ATAXX_ENGINE_BINARY, "setoption name Device value cuda\\nposition startpos\\ngo nodes 50\\n");
  EXPECT_EQ(ran.output.rfind("info string error: inference: device=cuda needs LibTorch, which this program "
                             "(ataxx-engine) is built without: use ataxx-zero\n",
                             0),
            0U)
      << "refused when set: " << ran.output;
  EXPECT_NE(ran.output.find(" nodes 50 "), std::string::npos) << "then searched on the CPU: " << ran.output;
  const Ran unknown = fed(ATAXX_ENGINE_BINARY, "setoption name Device value banana\\n");
  EXPECT_EQ(unknown.output, "info string error: unknown device 'banana' (expected cpu, cuda or cuda:N)\n");
}

// The engine says which kernels it computes with, the highest its processor runs unless
// ATAXX_MAX_CPU_ISA caps them (plain C++ in float here, where it would compute in int8 with AVX2 or
// more); a cap that names no level is an error that lists the levels.
TEST(Engine, SaysWhichKernelsItComputesWithAndKeepsToTheirCap) {
  const std::string typed = "position startpos\\ngo nodes 200\\n";
  const Ran chosen = fed(ATAXX_ENGINE_BINARY, typed);
  const Ran plain = fed(std::string("ATAXX_MAX_CPU_ISA=plain ") + ATAXX_ENGINE_BINARY, typed);
  EXPECT_NE(chosen.output.find("info string computing in "), std::string::npos) << chosen.output;
  EXPECT_NE(plain.output.find("info string computing in float with the plain kernels\n"), std::string::npos)
      << plain.output;
  EXPECT_NE(plain.output.find("bestmove "), std::string::npos) << plain.output;

  const Ran unknown = fed(std::string("ATAXX_MAX_CPU_ISA=avx3 ") + ATAXX_ENGINE_BINARY, typed);
  EXPECT_NE(unknown.output.find("info string error: ATAXX_MAX_CPU_ISA='avx3' is not a processor level (plain, avx2, "
                                "avx-vnni, avx512, avx512-vnni, avx512-bf16)"),
            std::string::npos)
      << unknown.output;
}

// The net that searched a position in `program`'s UAI, as its `info string` names it.
std::string net_searching_in(const std::string& program) {
  const Ran ran = fed(program, "position startpos\\ngo nodes 20\\n");
  const std::size_t at = ran.output.find("searching with ");
  return at == std::string::npos ? ran.output : ran.output.substr(at + 15, ran.output.find('\n', at) - at - 15);
}

TEST(Engine, FindsTheShippedNetsBesideItWhenCopiedOrInstalled) {
  const std::string copied = (std::filesystem::path(testing::TempDir()) / "copied").string();
  ASSERT_EQ(run_shell("rm -rf " + copied + " && mkdir -p " + copied + "/nets && cp " + ATAXX_ENGINE_BINARY + " " +
                      copied + " && cp " + ATAXX_SOURCE_DIR + "/nets/ataxx-7x7.net " + copied + "/nets/")
                .status,
            0);
  EXPECT_EQ(net_searching_in(copied + "/ataxx-engine"), copied + "/nets/ataxx-7x7.net");

  const std::string installed = (std::filesystem::path(testing::TempDir()) / "installed").string();
  const Ran install =
      run_shell(std::string(ATAXX_CMAKE_COMMAND) + " --install " + ATAXX_BUILD_DIR + " --prefix " + installed);
  ASSERT_EQ(install.status, 0) << install.output;
  EXPECT_EQ(net_searching_in(installed + "/bin/ataxx-engine"), installed + "/share/ataxx-zero/nets/ataxx-7x7.net");
  EXPECT_EQ(net_searching_in(installed + "/bin/ataxx-zero uai"), installed + "/share/ataxx-zero/nets/ataxx-7x7.net");
}

// Copied alone, it plays the nets of the build it came from, built into it: the same searches as
// from their files.
TEST(Engine, CopiedAloneItPlaysTheNetsBuiltIntoIt) {
  const std::string alone = (std::filesystem::path(testing::TempDir()) / "alone").string();
  ASSERT_EQ(
      run_shell("rm -rf " + alone + " && mkdir -p " + alone + " && cp " + ATAXX_ENGINE_BINARY + " " + alone).status, 0);
  const std::string typed = "position startpos moves g2\\ngo nodes 300\\n";
  const Ran built_in = fed(alone + "/ataxx-engine", typed);
  const Ran from_file = fed(alone + "/ataxx-engine", std::string("setoption name Model value ") + ATAXX_SOURCE_DIR +
                                                         "/nets/ataxx-7x7.net\\n" + typed);
  ASSERT_EQ(built_in.status, 0) << built_in.output;
  EXPECT_NE(built_in.output.find("info string searching with built-in:ataxx-7x7.net\n"), std::string::npos)
      << built_in.output;
  const auto without_net_name = [](const std::string& output) {
    return std::regex_replace(searched(output), std::regex("info string searching with [^\n]*\n"), "");
  };
  EXPECT_EQ(without_net_name(built_in.output), without_net_name(from_file.output));
  // As --model on the command line too, of each command that takes one (had been refused as no file).
  const Ran given = fed(alone + "/ataxx-engine uai --model built-in:ataxx-7x7.net", typed);
  EXPECT_EQ(without_net_name(given.output), without_net_name(from_file.output)) << given.output;
  const Ran analysed = run_shell("echo '{\"id\":\"q\",\"maxVisits\":10}' | " + alone +
                                 "/ataxx-engine analysis --model built-in:ataxx-7x7.net");
  EXPECT_NE(analysed.output.find("\"moveInfos\""), std::string::npos) << analysed.output;
  const Ran not_carried = run_shell(alone + "/ataxx-engine uai --model built-in:nope.net");
  EXPECT_NE(not_carried.status, 0);
  EXPECT_NE(not_carried.output.find("--model: no net is built into this program as 'built-in:nope.net'"),
            std::string::npos)
      << not_carried.output;

  const Ran unknown =
      run_shell(alone + "/ataxx-engine match --p1 nn:model=built-in:ataxx-9x9.net --p2 random --games 2");
  EXPECT_NE(unknown.status, 0);
  EXPECT_NE(unknown.output.find("no net is built into this program as 'built-in:ataxx-9x9.net'; it carries "
                                "built-in:ataxx-7x7.net, built-in:ataxx-family.net, built-in:schataxx.net"),
            std::string::npos)
      << unknown.output;
}

// `--player` instead of the nets: the player asked for plays, with no word of nets it was not given.
TEST(Engine, APlayerGivenInsteadOfTheNetsPlaysWithoutAWordOfThem) {
  const Ran played =
      fed(std::string(ATAXX_ZERO_BINARY) + " uai --player alphabeta", "position startpos\\ngo depth 2\\n");
  ASSERT_EQ(played.status, 0) << played.output;
  EXPECT_NE(played.output.find("info depth 2 "), std::string::npos) << played.output;
  EXPECT_EQ(played.output.find("info string"), std::string::npos) << played.output;
}

TEST(Engine, PlaysInTheTerminalAndCountsMoves) {
  const Ran played = fed(std::string(ATAXX_ENGINE_BINARY) + " play --engine greedy", "g2\\nquit\\n");
  ASSERT_EQ(played.status, 0) << played.output;
  EXPECT_NE(played.output.find("x5o/7/7/7/7/6x/o5x o 0 1"), std::string::npos) << played.output;
  const Ran perft = run_shell(std::string(ATAXX_ENGINE_BINARY) + " perft 2");
  ASSERT_EQ(perft.status, 0) << perft.output;
  EXPECT_EQ(perft.output, "256\n");  // 16 moves for each side at the start
}

}  // namespace
}  // namespace ataxx
