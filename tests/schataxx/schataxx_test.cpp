#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <vector>

#include "mcts/search.h"
#include "mcts/simple_evaluators.h"
#include "games/schataxx/encoding.h"
#include "games/schataxx/game.h"

namespace ataxx::schataxx {
namespace {

const std::string kStockFull = "[QRRBBNPPPPPPPPqrrbbnpppppppp]";

TEST(SchataxxFen, StartRoundTripsAndHoldsTheSheetsMen) {
  const Position start = Position::startpos();
  EXPECT_EQ(start.fen(), Position::kStartFen);
  EXPECT_EQ(start.type_on(0), PieceType::kKing);                  // a1
  EXPECT_EQ(start.type_on(63), PieceType::kKnight);               // h8
  EXPECT_TRUE(start.men(kWhite) & bit(63));
  EXPECT_TRUE(start.men(kBlack) & bit(7));                        // n on h1
  EXPECT_EQ(start.stock(kWhite, PieceType::kSoldier), 8);
  EXPECT_EQ(start.stock(kBlack, PieceType::kRook), 2);
  EXPECT_EQ(start.side_to_move(), kWhite);
  for (const char* fen : {"k6N/8/8/3Qb3/8/8/2p5/K6n[RRBBNPPPPPPPqrrbnppppppp] b - - 7 12",
                          "k7/2N5/8/8/8/8/8/K6n[QRRBBNPPPPPPPPqrrbbnpppppppp] w - - 0 1"})
    EXPECT_EQ(Position::from_fen(fen).fen(), fen);
  EXPECT_EQ(Position::from_fen("k6N/8/8/8/8/8/8/K6n" + kStockFull).fen(), Position::kStartFen);  // fields default
}

TEST(SchataxxFen, CountersStopAtTheirBoundSoThatEveryPositionReachedReadsBack) {
  Position pos = Position::from_fen("k6N/8/8/8/8/8/8/K6n" + kStockFull + " b - - 1000000 1000000");
  pos.make_move(parse_move("h1g3"));
  EXPECT_EQ(pos.plies_since_drop(), Position::kMaxCounter);
  EXPECT_EQ(pos.fullmove_number(), Position::kMaxCounter);
  EXPECT_EQ(Position::from_fen(pos.fen()), pos);
}

TEST(SchataxxFen, MalformedTextIsRefusedWithTheReason) {
  const std::pair<std::string, std::string> bad[] = {
      {"", "empty"},
      {"k6N/8/8/8/8/8/8/K6n w - - 0 1", "stocks in brackets"},
      {"k6N/8/8/8/8/8/8/K6n[QX] w - - 0 1", "unexpected character 'X' in the stocks"},
      {"k6N/8/8/8/8/8/8/K6z" + kStockFull, "unexpected character 'z'"},
      {"k6N/8/8/8/8/8/8/K7n" + kStockFull, "covers more than 8 squares"},
      {"k6N/8/8/8/8/8/K6n" + kStockFull, "8 ranks"},
      {"k6N/8/8/8/8/8/8/K6K" + kStockFull, "White must have one king"},
      {"7N/8/8/8/8/8/8/K6n" + kStockFull, "Black must have one king"},
      {"k6N/8/8/8/8/8/8/K6n[QQRRBBNPPPPPPPPqrrbbnpppppppp]", "more Q than a set has"},
      {"k6N/8/8/8/8/8/8/K6n[K]", "a king is never in a stock"},
      {"k5QN/8/8/8/8/8/8/K5qn" + kStockFull, "more than the two sets have"},
      {"k6N/8/8/8/8/8/8/K6n" + kStockFull + " x", "side to move 'x'"},
      {"k6N/8/8/8/8/8/8/K6n" + kStockFull + " w KQ - 0 1", "must be '-'"},
      {"k6N/8/8/8/8/8/8/K6n" + kStockFull + " w - - -1 1", "plies since the last drop"},
      {"k6N/8/8/8/8/8/8/K6n" + kStockFull + " w - - 0 0", "move number"},
      {"k6N/8/8/8/8/8/8/K6n" + kStockFull + " w - - 0 2147483647", "move number"},
      {"k6N/8/8/8/8/8/8/K6n" + kStockFull + " w - - 0 1 x", "at most 6 fields"},
  };
  for (const auto& [fen, reason] : bad) {
    try {
      Position::from_fen(fen);
      ADD_FAILURE() << "accepted '" << fen << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << fen << ": " << e.what();
    }
  }
}

TEST(SchataxxMove, NotationRoundTripsAndMalformedTextIsRefused) {
  for (const char* text : {"a1b2", "Q@g8", "P@a2", "h8f7", "0000", "N@h1"}) EXPECT_EQ(to_string(parse_move(text)), text);
  EXPECT_TRUE(parse_move("B@c3").is_drop());
  EXPECT_TRUE(parse_move("0000").is_pass());
  for (const char* text : {"", "a1", "a1a1", "a9b2", "i1b2", "K@a2", "q@a2", "X@a2", "Q@a9", "a1b2c3", "Q@"})
    EXPECT_THROW(parse_move(text), std::invalid_argument) << text;
}

// A move generator written the slow way, from the rules' words: every from-to pair and every
// drop tried and judged on its own, to test the bitboard generator against.
bool path_clear(const Position& pos, int from, int to) {
  const int df = (to & 7) - (from & 7), dr = (to >> 3) - (from >> 3);
  const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
  for (int f = (from & 7) + sf, r = (from >> 3) + sr; f != (to & 7) || r != (to >> 3); f += sf, r += sr)
    if (pos.occupied() & bit(r * 8 + f)) return false;
  return true;
}

bool man_may_go(const Position& pos, int from, int to) {
  const int df = std::abs((to & 7) - (from & 7)), dr = std::abs((to >> 3) - (from >> 3));
  const int distance = std::max(df, dr);
  const bool straight = df == 0 || dr == 0, diagonal = df == dr;
  switch (pos.type_on(from)) {
    case PieceType::kKing: return distance == 1;
    case PieceType::kKnight: return (df == 1 && dr == 2) || (df == 2 && dr == 1);
    case PieceType::kSoldier: return distance == 2;
    case PieceType::kRook: return straight && path_clear(pos, from, to);
    case PieceType::kBishop: return diagonal && path_clear(pos, from, to);
    case PieceType::kQueen: return (straight || diagonal) && path_clear(pos, from, to);
    case PieceType::kNone: break;
  }
  return false;
}

int slow_area(const Position& pos, Color side) {
  int total = popcount(pos.men(side));
  std::vector<bool> seen(64, false);
  for (int start = 0; start < 64; ++start) {
    if (seen[start] || (pos.occupied() & bit(start))) continue;
    std::vector<int> region = {start}, stack = {start};
    seen[start] = true;
    bool touches_own = false, touches_theirs = false;
    while (!stack.empty()) {
      const int sq = stack.back();
      stack.pop_back();
      for (int f = (sq & 7) - 1; f <= (sq & 7) + 1; ++f)
        for (int r = (sq >> 3) - 1; r <= (sq >> 3) + 1; ++r) {
          if (f < 0 || f > 7 || r < 0 || r > 7) continue;
          const int next = r * 8 + f;
          if (pos.men(side) & bit(next)) touches_own = true;
          if (pos.men(~side) & bit(next)) touches_theirs = true;
          if ((pos.occupied() & bit(next)) || seen[next]) continue;
          seen[next] = true;
          region.push_back(next);
          stack.push_back(next);
        }
    }
    if (touches_own && !touches_theirs) total += static_cast<int>(region.size());
  }
  return total;
}

std::vector<Move> slow_moves_of(const Position& pos, Color side) {
  std::vector<Move> moves;
  const bool early = pos.variant() == Variant::kBalanced && pos.ply() < 5;
  for (int to = 0; to < 64; ++to) {
    if (pos.occupied() & bit(to)) continue;
    bool touches_own = false;
    for (int from = 0; from < 64; ++from)
      if ((pos.men(side) & bit(from)) && std::max(std::abs((to & 7) - (from & 7)), std::abs((to >> 3) - (from >> 3))) == 1)
        touches_own = true;
    for (int i = 0; i < kStockTypes && touches_own; ++i) {
      const PieceType type = stock_type(i);
      if (pos.stock(side, type) > 0 && !(early && (type == PieceType::kQueen || type == PieceType::kRook)))
        moves.push_back(Move::drop_of(type, to));
    }
    for (int from = 0; from < 64; ++from)
      if ((pos.men(side) & bit(from)) && man_may_go(pos, from, to)) moves.push_back(Move::step(from, to));
  }
  return moves;
}

std::vector<Move> slow_moves(const Position& pos) {
  const bool king_turned = !(pos.men(PieceType::kKing) & pos.men(kWhite)) || !(pos.men(PieceType::kKing) & pos.men(kBlack));
  if (king_turned || slow_area(pos, kWhite) > 32 || slow_area(pos, kBlack) > 32) return {};
  std::vector<Move> moves = slow_moves_of(pos, pos.side_to_move());
  if (moves.empty() && !slow_moves_of(pos, ~pos.side_to_move()).empty()) moves.push_back(Move::pass());
  return moves;
}

std::vector<std::string> sorted_texts(const std::vector<Move>& moves) {
  std::vector<std::string> texts;
  for (const Move m : moves) texts.push_back(to_string(m));
  std::sort(texts.begin(), texts.end());
  return texts;
}

TEST(SchataxxMoves, TheGeneratorAgreesWithABruteForceOneAlongRandomGames) {
  std::mt19937_64 rng(7);
  int positions = 0, passes = 0, finished = 0;
  for (const Variant variant : {Variant::kStandard, Variant::kBalanced, Variant::kUnlimited})
    for (int game = 0; game < 120; ++game) {
      Position pos = Position::startpos(variant);
      for (int ply = 0; ply < 200; ++ply) {
        MoveList fast;
        pos.generate_moves(fast);
        const std::vector<Move> slow = slow_moves(pos);
        ASSERT_EQ(sorted_texts({fast.begin(), fast.end()}), sorted_texts(slow)) << pos.fen();
        ASSERT_EQ(pos.area(kWhite), slow_area(pos, kWhite)) << pos.fen();
        ASSERT_EQ(pos.area(kBlack), slow_area(pos, kBlack)) << pos.fen();
        ASSERT_EQ(pos.hash(), pos.compute_hash()) << pos.fen();
        // A finished game may hold two kings of one colour, which a FEN may not.
        if (!fast.empty()) {
          ASSERT_EQ(Position::from_fen(pos.fen(), variant), pos) << pos.fen();
        }
        ++positions;
        if (fast.empty()) {
          ++finished;
          break;
        }
        const Move move = fast[static_cast<int>(rng() % fast.size())];
        passes += move.is_pass();
        pos.make_move(move);
      }
    }
  EXPECT_GT(positions, 10'000);
  EXPECT_GT(finished, 20);  // the games reach their ends (kings turned, enclosures)
  RecordProperty("passes", passes);
}

std::uint64_t slow_perft(const Position& pos, int depth) {
  if (depth == 0) return 1;
  if (pos.plies_since_drop() >= Rules{}.ply_limit) return 0;
  std::uint64_t leaves = 0;
  for (const Move move : slow_moves(pos)) {
    Position child = pos;
    child.make_move(move);
    leaves += slow_perft(child, depth - 1);
  }
  return leaves;
}

TEST(SchataxxPerft, ABruteForceGeneratorCountsTheSameTreesFromTheStartAndFromMidGames) {
  EXPECT_EQ(slow_perft(Position::startpos(), 3), 63'384U);
  std::mt19937_64 rng(11);
  for (int game = 0; game < 3; ++game) {
    Position pos = Position::startpos(game == 2 ? Variant::kBalanced : Variant::kStandard);
    for (int ply = 0; ply < 12; ++ply) {
      MoveList moves;
      pos.generate_moves(moves);
      if (moves.empty()) break;
      pos.make_move(moves[static_cast<int>(rng() % moves.size())]);
    }
    EXPECT_EQ(perft(pos, 3), slow_perft(pos, 3)) << pos.fen();
  }
}

TEST(SchataxxPerft, MatchesTheIssuesCountsFromTheStart) {
  const Position start = Position::startpos();
  EXPECT_EQ(perft(start, 1), 35U);
  EXPECT_EQ(perft(start, 2), 1'225U);
  EXPECT_EQ(perft(start, 3), 63'384U);
  std::uint64_t sum = 0;
  for (const auto& [move, leaves] : perft_split(start, 3)) sum += leaves;
  EXPECT_EQ(sum, 63'384U);
  // Balanced: no queen or rook drop in the first five plies; 6 squares x B, N, P + 5 moves.
  EXPECT_EQ(perft(Position::startpos(Variant::kBalanced), 1), 23U);
}

TEST(SchataxxPerft, AKingCanFirstBeTurnedAtPlyThree) {
  Game game;
  game.play("Q@g8");
  game.play("h1g3");
  EXPECT_FALSE(game.outcome().is_over());
  game.play("g8b8");  // the queen slides next to a8: the black king turns
  EXPECT_EQ(game.outcome(), (Outcome{Result::kXWins, EndReason::kKingTurned}));
  MoveList none;
  game.position().generate_moves(none);
  EXPECT_TRUE(none.empty());
}

TEST(SchataxxEnd, ADropThatTurnsTheKingWins) {
  Game game(Position::from_fen("k7/2N5/8/8/8/8/8/K6n" + kStockFull + " w - - 0 1"));
  game.play("N@b8");
  EXPECT_EQ(game.outcome(), (Outcome{Result::kXWins, EndReason::kKingTurned}));
  EXPECT_THROW(game.play("a1b1"), std::invalid_argument);
}

TEST(SchataxxEnd, AnAreaAboveHalfTheBoardEnclosesTheOther) {
  Game game(Position::from_fen("k7/8/7n/PPPPPPP1/8/8/8/K7[QRRBBNPqrrbbnpppppppp] w - - 0 1"));
  EXPECT_FALSE(game.outcome().is_over());
  game.play("P@h5");  // closes rank 5; the knight on h6 turns
  EXPECT_EQ(game.position().area(kWhite), 41);
  EXPECT_EQ(game.outcome(), (Outcome{Result::kXWins, EndReason::kEnclosed}));
}

TEST(SchataxxEnd, OneHundredPliesWithoutADropEndByArea) {
  Game game(Position::from_fen("k6N/8/8/8/8/8/8/K6n" + kStockFull + " w - - 99 60"));
  game.play("a1b1");
  EXPECT_EQ(game.outcome(), (Outcome{Result::kDraw, EndReason::kHalfmoveClock}));  // areas 2 and 2
  Game longer(Position::from_fen("k6N/8/8/8/8/8/8/K6n" + kStockFull + " w - - 99 60"), Rules{.ply_limit = 0});
  longer.play("a1b1");
  EXPECT_FALSE(longer.outcome().is_over());
}

TEST(SchataxxEnd, APositionOccurringASecondTimeEndsByArea) {
  Game game;
  for (const char* move : {"a1b1", "a8b8", "b1a1"}) {
    game.play(move);
    EXPECT_FALSE(game.outcome().is_over()) << move;
  }
  game.play("b8a8");  // the start again: board, stocks and side
  EXPECT_EQ(game.repetitions(), 2);
  EXPECT_EQ(game.outcome(), (Outcome{Result::kDraw, EndReason::kRepetition}));
}

TEST(SchataxxEnd, AFullBoardEndsTheGameByAreaAndEqualAreasDraw) {
  // Unlimited stock: the board can fill up. Black's drop on h8 leaves no empty square.
  const std::string fen =
      "kpppppp1/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/KPPPPPPP[QRRBBNNqrrbbnn] b - - 0 40";
  Game game(Position::from_fen(fen, Variant::kUnlimited));
  EXPECT_FALSE(game.outcome().is_over());
  EXPECT_FALSE(game.position().has_move(kWhite));
  game.play("P@h8");
  EXPECT_EQ(game.position().area(kWhite), 32);
  EXPECT_EQ(game.position().area(kBlack), 32);
  EXPECT_EQ(game.outcome(), (Outcome{Result::kDraw, EndReason::kNoMoves}));
}

TEST(SchataxxMoves, ASideWithoutMovesPassesAndOnlyThen) {
  // White's stock is empty, its king on h8 walled in, its knight on a1 has both squares taken;
  // Black can still move, and the open board touches both colours (no enclosure).
  const Position pos = Position::from_fen("k5pK/6pp/8/8/8/1p6/2p5/N7[qrrbbnppp] w - - 0 30");
  MoveList moves;
  pos.generate_moves(moves);
  ASSERT_EQ(moves.size(), 1);
  EXPECT_TRUE(moves[0].is_pass());
  EXPECT_THROW(Game(Position::startpos()).play("0000"), std::invalid_argument);
}

TEST(SchataxxArea, RegionsCountForTheSideThatAloneBordersThem) {
  // White's knights on a2 and b2 and its king on b1 wall off a1; the rest touches both colours.
  const Position pos = Position::from_fen("k7/8/8/8/8/8/NN6/1K5n[QRRBBPPPPPPPPqrrbbnpppppppp] w - - 0 1");
  EXPECT_EQ(pos.area(kWhite), 3 + 1);  // K, N, N and the empty a1 they alone border
  EXPECT_EQ(pos.area(kBlack), 2);
  EXPECT_EQ(pos.territory(kWhite), bit(0));  // a1
  EXPECT_EQ(pos.territory(kBlack), 0U);
}

// Positions of random games of the three variants, the start included.
std::vector<Position> random_positions(int games, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Position> positions;
  for (int game = 0; game < games; ++game) {
    const Variant variant = static_cast<Variant>(game % 3);
    Position pos = Position::startpos(variant);
    for (int ply = 0; ply < 80; ++ply) {
      MoveList moves;
      pos.generate_moves(moves);
      if (moves.empty()) break;
      positions.push_back(pos);
      pos.make_move(moves[static_cast<int>(rng() % moves.size())]);
    }
  }
  return positions;
}

TEST(SchataxxSymmetry, MovesOfATransformedPositionAreTheTransformedMoves) {
  for (int s = 0; s < kSymmetries; ++s)
    for (int sq = 0; sq < 64; ++sq) EXPECT_EQ(transform_square(inverse_symmetry(s), transform_square(s, sq)), sq) << s;
  for (const Position& pos : random_positions(30, 3))
    for (int s = 0; s < kSymmetries; ++s) {
      const Position image = pos.transformed(s);
      EXPECT_EQ(image.area(kWhite), pos.area(kWhite));
      EXPECT_EQ(image.transformed(inverse_symmetry(s)), pos);
      MoveList moves, image_moves;
      pos.generate_moves(moves);
      image.generate_moves(image_moves);
      std::vector<Move> mapped;
      for (const Move m : moves) mapped.push_back(transform_move(s, m));
      ASSERT_EQ(sorted_texts(mapped), sorted_texts({image_moves.begin(), image_moves.end()})) << pos.fen() << " " << s;
    }
}

TEST(SchataxxEncoding, EveryLegalMoveHasItsOwnPolicyEntryThatLeadsBackToIt) {
  std::vector<bool> seen(kPolicySize, false);
  int distinct = 0;
  for (const Position& pos : random_positions(60, 4)) {
    MoveList moves;
    pos.generate_moves(moves);
    std::vector<int> indices;
    for (const Move move : moves) {
      const int index = policy_index(move);
      ASSERT_GE(index, 0);
      ASSERT_LT(index, kPolicySize);
      EXPECT_EQ(move_at(index), move) << to_string(move);
      indices.push_back(index);
      distinct += !seen[index];
      seen[index] = true;
    }
    std::sort(indices.begin(), indices.end());
    EXPECT_EQ(std::adjacent_find(indices.begin(), indices.end()), indices.end()) << pos.fen();
  }
  EXPECT_GT(distinct, 1000);  // the layout's entries are really used, not a few of them
  EXPECT_THROW(policy_index(Move::step(0, 63 - 8 * 3)), std::invalid_argument);  // a1 to h5: no man's step
  EXPECT_EQ(move_at(kPassIndex), Move::pass());
  EXPECT_EQ(move_at(policy_index(Move::drop_of(PieceType::kQueen, 62))), Move::drop_of(PieceType::kQueen, 62));
}

TEST(SchataxxEncoding, PlanesAreFromTheSideToMovesViewAndFollowTheSymmetries) {
  Position pos = Position::startpos();
  pos.make_move(parse_move("Q@g8"));  // Black to move: its men are the first planes
  std::vector<float> planes(kInputSize);
  encode(pos, planes);
  EXPECT_EQ(planes[0 * 64 + 56], 1.0f);  // Black's king on a8
  EXPECT_EQ(planes[4 * 64 + 7], 1.0f);   // Black's knight on h1
  EXPECT_EQ(planes[(kPieceTypes + 1) * 64 + 62], 1.0f);  // White's queen on g8
  EXPECT_EQ(planes[(2 * kPieceTypes + 1) * 64], 1.0f);  // Black still has its queen: 1 of 1
  EXPECT_EQ(planes[(2 * kPieceTypes + 1 + kStockTypes) * 64], 0.0f);  // White's queen is dropped
  for (const Position& p : random_positions(9, 5))
    for (int s = 0; s < kSymmetries; ++s) {
      std::vector<float> original(kInputSize), image(kInputSize);
      encode(p, original);
      encode(p.transformed(s), image);
      for (int plane = 0; plane < kInputPlanes; ++plane)
        for (int sq = 0; sq < 64; ++sq)
          ASSERT_EQ(image[plane * 64 + transform_square(s, sq)], original[plane * 64 + sq]) << plane << " " << sq;
    }
  std::vector<float> wrong(kInputSize - 1);
  EXPECT_THROW(encode(pos, wrong), std::invalid_argument);
}

TEST(SchataxxEncoding, TerritoryAndAreaPlanesAreEachSidesFromTheMoversView) {
  // Black to move; White alone borders a1.
  const Position pos = Position::from_fen("k7/8/8/8/8/8/NN6/1K5n[QRRBBPPPPPPPPqrrbbnpppppppp] b - - 0 1");
  std::vector<float> planes(kInputSize);
  encode(pos, planes);
  const int territory = kInputPlanes - 5;  // then the areas, then the board
  for (int sq = 0; sq < 64; ++sq) {
    EXPECT_EQ(planes[territory * 64 + sq], 0.0f) << sq;                          // Black's: none
    EXPECT_EQ(planes[(territory + 1) * 64 + sq], sq == 0 ? 1.0f : 0.0f) << sq;   // White's: a1
    EXPECT_FLOAT_EQ(planes[(territory + 2) * 64 + sq], 2.0f / 64);
    EXPECT_FLOAT_EQ(planes[(territory + 3) * 64 + sq], 4.0f / 64);
    EXPECT_EQ(planes[kMaskPlane * 64 + sq], 1.0f);
  }
}

TEST(SchataxxOpenings, TheSuiteHoldsNoPositionTheMoverWinsAtOnce) {
  for (const Variant variant : {Variant::kStandard, Variant::kBalanced}) {
    const std::vector<Position> suite = opening_suite(variant);
    const std::vector<Position> all = positions_after(Position::startpos(variant), 2);
    // Balanced: no queen or rook drop in the first five plies, and no win at ply 3 without one.
    if (variant == Variant::kStandard) EXPECT_LT(suite.size(), all.size());
    else EXPECT_EQ(suite.size(), all.size());
    EXPECT_GT(suite.size(), all.size() / 2);
    for (const Position& pos : suite) {
      EXPECT_EQ(pos.variant(), variant);
      MoveList moves;
      pos.generate_moves(moves);
      for (const Move move : moves) {
        Position child = pos;
        child.make_move(move);
        ASSERT_LE(result_for(pos.side_to_move(), child.outcome().result), 0) << pos.fen() << " " << to_string(move);
      }
    }
    EXPECT_EQ(opening_suite(variant), suite);  // a fixed order
  }
}

TEST(SchataxxSearch, TheSharedSearchFindsTheMoveThatTurnsTheKing) {
  const Position pos = Position::from_fen("k7/2N5/8/8/8/8/8/K6n" + kStockFull + " w - - 0 1");
  BasicSearchParams<SchataxxGame> params;
  params.visits = 3000;
  BasicSearch<SchataxxGame> search(params, 1);
  search.set_root(pos);
  BasicUniformEvaluator<SchataxxGame> evaluator;
  const auto result = run_search(search, evaluator);
  Position after = pos;
  after.make_move(result.best_move());
  EXPECT_EQ(after.outcome(), (Outcome{Result::kXWins, EndReason::kKingTurned})) << to_string(result.best_move());
  EXPECT_GT(result.value, 0.9f);
}

// Before, a leaf whose mover could turn the king was evaluated like any other: at a few hundred
// visits the search let the opponent's queen reach the king (this position, lost 0-1 in a match).
TEST(SchataxxSearch, ALeafWonInOneIsAProvenWinSoTheSearchDefends) {
  const Position pos = Position::from_fen("k6N/1q6/8/8/8/8/8/KN5n[QRRBBPPPPPPPPrrbbnpppppppp] w - - 0 2");
  BasicSearchParams<SchataxxGame> params;
  params.visits = 200;
  BasicSearch<SchataxxGame> search(params, 1);
  search.set_root(pos);
  BasicUniformEvaluator<SchataxxGame> evaluator;
  const auto result = run_search(search, evaluator);
  Position after = pos;
  after.make_move(result.best_move());
  MoveList replies;
  after.generate_moves(replies);
  EXPECT_FALSE(after.has_winning_move(replies)) << to_string(result.best_move());
  // The tree goes on below the move played; a child won in one becomes a root with moves again.
  search.advance(result.best_move());
  EXPECT_NO_THROW(run_search(search, evaluator).best_move());
  BasicSearch<SchataxxGame> again(params, 1);
  again.set_root(pos);
  run_search(again, evaluator);
  again.advance(parse_move("b1c3"));  // leaves b1 and b2 to the queen: a child won in one, now the root
  const std::string win = to_string(run_search(again, evaluator).best_move());
  EXPECT_TRUE(win == "b7b2" || win == "b7b1") << win;  // played, however few visits it had
}

TEST(SchataxxSearch, AFinishedRootHasNoMoveToChoose) {
  Game game;
  for (const char* move : {"Q@g8", "h1g3", "g8b8"}) game.play(move);
  BasicSearch<SchataxxGame> search(BasicSearchParams<SchataxxGame>{}, 1);
  search.set_root(game.position());
  BasicUniformEvaluator<SchataxxGame> evaluator;
  EXPECT_THROW(run_search(search, evaluator).best_move(), std::runtime_error);
}

}  // namespace
}  // namespace ataxx::schataxx
