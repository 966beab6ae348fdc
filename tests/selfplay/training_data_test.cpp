#include "selfplay/training_data.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "games/ataxx/game.h"
#include "games/schataxx/position.h"
#include "util/read_file.h"

namespace ataxx {
namespace {

// The largest single allocation since it was last reset; larger than 1 GB is refused.
std::atomic<std::size_t> largest_allocation{0};
constexpr std::size_t kRefusedAllocation = std::size_t{1} << 30;

}  // namespace
}  // namespace ataxx

// Replaces the global allocation (as C++ allows) to watch what the reader asks for.
void* operator new(std::size_t size) {
  std::size_t seen = ataxx::largest_allocation.load();
  while (size > seen && !ataxx::largest_allocation.compare_exchange_weak(seen, size)) {
  }
  if (size > ataxx::kRefusedAllocation) throw std::bad_alloc();
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
// GCC takes free() here for a mismatch with operator new; both ends are this file's malloc and free.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace ataxx {
namespace {

// Every field a chunk stores, read back as it was written.
template <typename Sample>
void expect_same_samples(const std::vector<Sample>& loaded, const std::vector<Sample>& written) {
  ASSERT_EQ(loaded.size(), written.size());
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    SCOPED_TRACE("sample " + std::to_string(i));
    EXPECT_EQ(loaded[i].position, written[i].position);
    EXPECT_EQ(loaded[i].visits, written[i].visits);
    EXPECT_EQ(loaded[i].root_value, written[i].root_value);
    EXPECT_EQ(loaded[i].result, written[i].result);
    EXPECT_EQ(loaded[i].final_x, written[i].final_x);
    EXPECT_EQ(loaded[i].final_o, written[i].final_o);
    EXPECT_EQ(loaded[i].final_board_known, written[i].final_board_known);
    EXPECT_EQ(loaded[i].starts_game, written[i].starts_game);
    EXPECT_EQ(loaded[i].model, written[i].model);
  }
}

TEST(TrainingData, ChunkRoundTrips) {
  std::vector<TrainingSample> samples(3);
  samples[0].position = Position::startpos();
  samples[0].visits = {{parse_move("c3a1", board_7x7()), 30}, {Move::pass(), 1}};  // legality is the search's business
  samples[0].final_board_known = false;
  samples[0].starts_game = true;
  samples[0].root_value = 0.25f;
  samples[0].result = -1;
  samples[0].final_x = 0x1234;
  samples[0].final_o = 0x5600000;
  samples[1].position = Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x o 17 9");
  samples[2].position = Position::from_fen("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 3 2");
  samples.resize(5);
  samples[3].position = Position::startpos(board(BoardId::kHexagon));
  samples[3].visits = {{parse_move("a1c2", samples[3].position.board()), 2}, {parse_move("b2", samples[3].position.board()), 5}};
  samples[4].position = Position::from_fen("7x/8/8/8/8/8/8/o7 o 0 1");
  samples[4].final_x = bit(63);
  samples[4].visits = {{parse_move("a1c3", samples[4].position.board()), 1}};
  samples[3].starts_game = true;
  samples[0].model = samples[2].model = "gen-0002";
  samples[1].model = "gen-0003";
  const std::string path = testing::TempDir() + "/chunk.zst";
  write_chunk(path, 2, samples);
  EXPECT_EQ(chunk_counts(path).games, 2);
  expect_same_samples(read_chunk(path), samples);
}

TEST(TrainingData, SchataxxChunksRoundTripWithTheirVariant) {
  using SchataxxSample = BasicTrainingSample<SchataxxGame>;
  std::vector<SchataxxSample> samples(2);
  samples[0].position = schataxx::Position::startpos(schataxx::Variant::kBalanced);
  samples[0].visits = {{schataxx::parse_move("P@b2"), 12}, {schataxx::parse_move("a1a2"), 3}};
  samples[0].root_value = -0.5f;
  samples[0].result = 1;
  samples[0].final_x = 0x81;
  samples[0].final_o = bit(63);
  samples[0].model = "gen-0007";
  samples[1].position = schataxx::Position::from_fen("k7/8/8/8/8/8/1P6/K6n[QRBPq] b - - 4 3", schataxx::Variant::kUnlimited);
  samples[1].visits = {{schataxx::parse_move("h1f2"), 1}};
  samples[1].final_board_known = false;
  samples[1].starts_game = true;
  const std::string path = testing::TempDir() + "/schataxx-chunk.zst";
  write_chunk(path, 1, samples);
  EXPECT_EQ(chunk_counts(path).game, "schataxx");
  EXPECT_EQ(chunk_counts(path).samples, 2);
  const auto loaded = read_chunk<SchataxxGame>(path);
  expect_same_samples(loaded, samples);
  ASSERT_EQ(loaded.size(), 2U);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(loaded[i].position.variant(), samples[i].position.variant());
}

TEST(TrainingData, AChunkOfAnotherGameIsRefusedByName) {
  std::vector<BasicTrainingSample<SchataxxGame>> schataxx_samples(1);
  schataxx_samples[0].position = schataxx::Position::startpos();
  const std::string schataxx_path = testing::TempDir() + "/other-game-schataxx.zst";
  write_chunk(schataxx_path, 1, schataxx_samples);
  std::vector<TrainingSample> ataxx_samples(1);
  ataxx_samples[0].position = Position::startpos();
  const std::string ataxx_path = testing::TempDir() + "/other-game-ataxx.zst";
  write_chunk(ataxx_path, 1, ataxx_samples);
  for (const auto& [read, expected] : {std::pair{std::function<void()>([&] { read_chunk<AtaxxGame>(schataxx_path); }),
                                                 "holds games of schataxx, not of ataxx"},
                                       std::pair{std::function<void()>([&] { read_chunk<SchataxxGame>(ataxx_path); }),
                                                 "holds games of ataxx, not of schataxx"}}) {
    try {
      read();
      ADD_FAILURE() << "read a chunk of another game";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
}

TEST(TrainingData, RejectsSchataxxMovesThatAreIllegalInTheirPosition) {
  std::vector<BasicTrainingSample<SchataxxGame>> samples(1);
  samples[0].position = schataxx::Position::startpos();
  samples[0].visits = {{schataxx::parse_move("P@d4"), 1}};  // touches no White man
  const std::string path = testing::TempDir() + "/illegal-schataxx.zst";
  write_chunk(path, 1, samples);
  EXPECT_THROW(read_chunk<SchataxxGame>(path), std::runtime_error);
}

TEST(TrainingData, ChunksOfVersionTwoStillLoad) {
  // Written by the code before chunks named their models: nothing a run played is lost.
  const auto loaded = read_chunk(std::string(ATAXX_SOURCE_DIR) + "/tests/selfplay/data/chunk-v2.zst");
  ASSERT_EQ(loaded.size(), 2U);
  EXPECT_EQ(loaded[0].position, Position::startpos());
  // Policy index 16 of the 7x7 layout: the jump to a1 from two files and two ranks up.
  EXPECT_EQ(loaded[0].visits,
            (std::vector<std::pair<Move, std::uint16_t>>{{parse_move("c3a1", board_7x7()), 30}, {Move::pass(), 1}}));
  EXPECT_EQ(loaded[0].result, -1);
  EXPECT_EQ(loaded[0].final_x, 0x1234U);
  EXPECT_TRUE(loaded[0].final_board_known);
  EXPECT_FALSE(loaded[1].final_board_known);
  EXPECT_EQ(loaded[1].position, Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x o 17 9"));
  EXPECT_EQ(loaded[0].model, "");
}

TEST(TrainingData, ChunksOfVersionThreeStillLoadWithLegalMoves) {
  // Written by self-play before the board family, when samples held 7x7 policy indices.
  const auto loaded = read_chunk(std::string(ATAXX_SOURCE_DIR) + "/tests/selfplay/data/chunk-v3.zst");
  ASSERT_GT(loaded.size(), 10U);
  for (const TrainingSample& s : loaded) {
    EXPECT_EQ(&s.position.board(), &board_7x7());
    EXPECT_EQ(s.model, "gen-0000");
    for (const auto& [move, visits] : s.visits) EXPECT_TRUE(s.position.is_legal(move)) << s.position.fen();
  }
}

TEST(TrainingData, ModelNamesAreChecked) {
  std::vector<TrainingSample> samples(1);
  samples[0].model = "gen 1";
  EXPECT_THROW(write_chunk(testing::TempDir() + "/bad-model.zst", 1, samples), std::invalid_argument);
}

std::string error_of(const std::string& bytes) {
  try {
    parse_chunk(bytes, "test chunk");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

std::string valid_chunk(std::vector<TrainingSample> samples, int games = 1) {
  // One file per test: ctest may run this suite's tests at once.
  const std::string path = testing::TempDir() + "/" + testing::UnitTest::GetInstance()->current_test_info()->name() + ".zst";
  write_chunk(path, games, samples);
  return read_whole_file(path);
}

TEST(TrainingData, AChunkStartingMoreGamesThanItClaimsIsRefused) {
  std::vector<TrainingSample> samples(2);
  samples[0].starts_game = samples[1].starts_game = true;
  EXPECT_NE(error_of(valid_chunk(samples)).find("starts more games than the 1 it claims"), std::string::npos);
}

// Samples of three games as chunks of version 4 held them, not marking where a game starts:
// the reader tells by their final boards and plies, a copy continuing its game.
TEST(TrainingData, ChunksOfVersionFourHaveTheirGamesStartsGuessed) {
  std::vector<TrainingSample> samples;
  Game game;
  for (const char* move : {"b6", "f6", "c6", "e6"}) {
    TrainingSample sample;
    sample.position = game.position();
    sample.final_x = 1;
    samples.push_back(sample);
    game.play(move);
  }
  samples.insert(samples.begin() + 2, samples[1]);  // a copy, for its surprise
  samples.push_back(samples[1]);                    // another final board, an earlier ply
  samples.back().final_x = 2;
  samples.push_back(samples[3]);  // a resigned game
  samples.back().final_x = 0;
  samples.back().final_board_known = false;
  samples.push_back(samples[2]);  // another, at an earlier ply
  samples.back().final_x = 0;
  samples.back().final_board_known = false;
  std::string bytes = valid_chunk(samples, 4);
  bytes.replace(0, 4, "AXZ4");
  std::vector<bool> starts;
  for (const TrainingSample& s : parse_chunk(bytes, "v4")) starts.push_back(s.starts_game);
  EXPECT_EQ(starts, (std::vector<bool>{true, false, false, false, false, true, true, true}));
}

TEST(TrainingData, ChunksOfVersionFourMarkNoGameStarts) {
  std::vector<TrainingSample> samples(1);
  samples[0].starts_game = true;
  std::string bytes = valid_chunk(samples);
  bytes.replace(0, 4, "AXZ4");
  EXPECT_NE(error_of(bytes).find("unknown flags"), std::string::npos);
}

TEST(TrainingData, RejectsMovesThatAreNotMovesOfTheBoard) {
  // {6, 68}: a shift by 68 wraps to bit 4 on x86, which is a jump target of 6.
  const Move not_moves[] = {Move::jump(3, 40), Move::single(49), Move{64, 3}, Move::jump(70, 3), Move{6, 68},
                            Move{200, 200}, Move{68, 6},
                            parse_move("e5f4", board(BoardId::kHexagon))};  // on 7x7 e5 and f4 are neighbours
  for (const Move move : not_moves) {
    std::vector<TrainingSample> samples(1);
    samples[0].visits = {{move, 3}};
    EXPECT_NE(error_of(valid_chunk(samples)).find("not one on the 7x7 board"), std::string::npos)
        << int(move.from) << " " << int(move.to);
  }
  std::vector<TrainingSample> no_visits(1);
  no_visits[0].visits = {{Move::pass(), 0}};
  EXPECT_NE(error_of(valid_chunk(no_visits)).find("no visits"), std::string::npos);
}

// A search visits each move once: a sample naming one twice is refused, in both games.
TEST(TrainingData, RejectsASampleThatListsTheSameMoveTwice) {
  std::vector<TrainingSample> ataxx(1);
  const Board& seven = board(BoardId::k7x7);
  ataxx[0].visits = {{parse_move("b6", seven), 3}, {parse_move("f2", seven), 1}, {parse_move("b6", seven), 2}};
  EXPECT_NE(error_of(valid_chunk(ataxx)).find("the same move twice"), std::string::npos);

  std::vector<BasicTrainingSample<SchataxxGame>> samples(1);
  samples[0].position = schataxx::Position::startpos();
  samples[0].visits = {{schataxx::parse_move("P@b2"), 1}, {schataxx::parse_move("P@b2"), 1}};
  const std::string path = testing::TempDir() + "/repeated-schataxx.zst";
  write_chunk(path, 1, samples);
  try {
    read_chunk<SchataxxGame>(path);
    ADD_FAILURE() << "read a sample listing a move twice";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the same move twice"), std::string::npos) << e.what();
  }
}

TEST(TrainingData, RejectsImpossibleCountsBeforeAllocating) {
  std::string bytes = valid_chunk(std::vector<TrainingSample>(2));
  std::string huge = bytes;
  const std::uint32_t many = 0xFFFFFFFFu;
  std::memcpy(huge.data() + 8, &many, 4);
  EXPECT_NE(error_of(huge).find("more than a chunk may hold"), std::string::npos);
  std::memcpy(huge.data() + 4, &many, 4);
  EXPECT_NE(error_of(huge).find("more than a chunk may hold"), std::string::npos);
  std::string fewer = bytes;
  const std::uint32_t one = 1;
  std::memcpy(fewer.data() + 8, &one, 4);  // the frame holds two samples' bytes
  EXPECT_NE(error_of(fewer), "");
}

// A chunk of 33 bytes: a header claiming 4,000,000 samples, then a zstd frame whose header
// claims 2.5 GB of content, holding one empty block and a checksum.
std::string chunk_claiming(std::uint64_t content_size) {
  std::string bytes = "AXZ4";
  const std::uint32_t games = 1, samples = 4'000'000;
  bytes.append(reinterpret_cast<const char*>(&games), 4).append(reinterpret_cast<const char*>(&samples), 4);
  const std::uint32_t magic = 0xFD2FB528;
  bytes.append(reinterpret_cast<const char*>(&magic), 4);
  bytes += '\xC4';  // an 8-byte content size, a window descriptor, a checksum
  bytes += '\0';
  bytes.append(reinterpret_cast<const char*>(&content_size), 8);
  bytes += std::string("\x01\0\0", 3);  // the last block: raw, empty
  return bytes + std::string(4, '\0');
}

TEST(TrainingData, AFrameClaimingGigabytesAllocatesOnlyWhatItHolds) {
  const std::string bytes = chunk_claiming(2'500'000'000ULL);
  ASSERT_EQ(bytes.size(), 33U);
  // Before: 2.5 GB asked for from the claim (here refused, as std::bad_alloc, which the trainer's
  // damaged-chunk handler did not catch).
  largest_allocation = 0;
  const std::string error = error_of(bytes);
  EXPECT_NE(error.find("the compressed data"), std::string::npos) << error;
  EXPECT_LE(largest_allocation.load(), std::size_t{4} << 20);
}

TEST(TrainingData, TheChecksumCatchesFlippedBits) {
  std::vector<TrainingSample> samples(50);
  for (std::size_t i = 0; i < samples.size(); ++i) samples[i].root_value = static_cast<float>(i) / 100;
  const std::string bytes = valid_chunk(samples);
  int caught = 0;
  for (std::size_t at = 12; at < bytes.size(); ++at) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x10);
    try {
      // A few bits of a zstd frame are unused: flipping one changes nothing that is read.
      const auto read = parse_chunk(damaged, "damaged");
      ASSERT_EQ(read.size(), samples.size()) << at;
      for (std::size_t i = 0; i < read.size(); ++i) ASSERT_EQ(read[i].root_value, samples[i].root_value) << at;
    } catch (const std::runtime_error&) {
      ++caught;
    }
  }
  EXPECT_GT(caught, static_cast<int>(bytes.size() - 12) * 9 / 10);
  EXPECT_NE(error_of(bytes + "x"), "");  // and trailing bytes
}

TEST(TrainingData, RejectsImpossibleSampleFields) {
  std::vector<TrainingSample> bad_value(1);
  bad_value[0].root_value = 2.0f;
  EXPECT_NE(error_of(valid_chunk(bad_value)).find("root value"), std::string::npos);
  std::vector<TrainingSample> bad_result(1);
  bad_result[0].result = 5;
  EXPECT_NE(error_of(valid_chunk(bad_result)).find("result"), std::string::npos);
  std::vector<TrainingSample> bad_board(1);
  bad_board[0].final_x = bad_board[0].final_o = 1;
  EXPECT_NE(error_of(valid_chunk(bad_board)).find("final board"), std::string::npos);
}

TEST(TrainingData, RejectsForeignAndCorruptFiles) {
  const std::string path = testing::TempDir() + "/bad.zst";
  {
    std::ofstream out(path);
    out << "hello";
  }
  EXPECT_THROW(read_chunk(path), std::runtime_error);
  EXPECT_THROW(chunk_counts(path).games, std::runtime_error);
  std::vector<TrainingSample> samples(2);
  write_chunk(path, 1, samples);
  std::string bytes = read_whole_file(path);
  {
    std::ofstream out(path, std::ios::binary);
    out << bytes.substr(0, bytes.size() - 5);
  }
  EXPECT_THROW(read_chunk(path), std::runtime_error);
  EXPECT_THROW(read_chunk(path + ".missing"), std::runtime_error);
}

}  // namespace
}  // namespace ataxx
