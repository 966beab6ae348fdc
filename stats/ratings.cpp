#include "stats/ratings.h"

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <vector>

namespace ataxx {

std::vector<Rating> fit_ratings(const std::vector<PairResult>& results, const std::map<std::string, double>& fixed_elo) {
  std::map<std::string, int> index;
  std::vector<Rating> ratings;
  auto id = [&](const std::string& name) {
    const auto [it, added] = index.emplace(name, static_cast<int>(ratings.size()));
    if (added) ratings.push_back({name});
    return it->second;
  };
  for (const PairResult& r : results) {
    id(r.first);
    id(r.second);
  }
  if (fixed_elo.empty()) throw std::invalid_argument("ratings: no player's rating is fixed");
  for (const auto& [name, elo] : fixed_elo)
    if (!index.count(name)) throw std::invalid_argument("ratings: the fixed player '" + name + "' played no game");
  const int n = static_cast<int>(ratings.size());
  const double to_elo = 400.0 / std::log(10.0);

  // wins(i, j): points i scored against j; games(i, j): games between them, both with the prior.
  constexpr double kPriorDraws = 1.0;
  Eigen::MatrixXd wins = Eigen::MatrixXd::Zero(n, n), games = Eigen::MatrixXd::Zero(n, n);
  for (const PairResult& r : results) {
    const int a = index[r.first], b = index[r.second];
    const int played = r.first_wins + r.draws + r.second_wins;
    ratings[a].games += played;
    ratings[b].games += played;
    wins(a, b) += r.first_wins + 0.5 * r.draws;
    wins(b, a) += r.second_wins + 0.5 * r.draws;
    games(a, b) += played;
    games(b, a) += played;
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j && games(i, j) > 0) {
        wins(i, j) += 0.5 * kPriorDraws;
        games(i, j) += kPriorDraws;
      }

  // Players that no chain of games links to a fixed one have no rating on its scale.
  std::vector<bool> linked(n, false);
  std::vector<int> pending;
  for (const auto& [name, elo] : fixed_elo) linked[index[name]] = true, pending.push_back(index[name]);
  while (!pending.empty()) {
    const int i = pending.back();
    pending.pop_back();
    for (int j = 0; j < n; ++j)
      if (!linked[j] && games(i, j) > 0) linked[j] = true, pending.push_back(j);
  }

  // Newton's method on the log-likelihood in natural units, the fixed players' ratings held.
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(n);
  std::vector<int> free_index(n, -1);  // a free player's row in the gradient, -1 for a held one
  int free_count = 0;
  double fixed_mean = 0;
  for (int i = 0; i < n; ++i) {
    const auto fixed = fixed_elo.find(ratings[i].name);
    if (!linked[i])
      ratings[i].linked = false;
    else if (fixed == fixed_elo.end())
      free_index[i] = free_count++;
    else
      fixed_mean += (theta(i) = fixed->second / to_elo) / static_cast<double>(fixed_elo.size());
  }
  for (int i = 0; i < n; ++i)
    if (free_index[i] >= 0) theta(i) = fixed_mean;  // where the likelihood is not flat
  auto finish = [&](Rating& r) {
    if (r.linked) return;
    r.elo = 0.0;
    r.error95 = std::numeric_limits<double>::infinity();
  };
  if (free_count == 0) {
    for (Rating& r : ratings) {
      if (fixed_elo.contains(r.name)) r.elo = fixed_elo.at(r.name);
      finish(r);
    }
    return ratings;
  }
  Eigen::MatrixXd information(free_count, free_count);
  for (int iteration = 0; iteration < 200; ++iteration) {
    Eigen::VectorXd gradient = Eigen::VectorXd::Zero(free_count);
    information.setZero();
    for (int i = 0; i < n; ++i) {
      if (free_index[i] < 0) continue;
      for (int j = 0; j < n; ++j) {
        if (i == j || games(i, j) == 0) continue;
        const double p = 1.0 / (1.0 + std::exp(theta(j) - theta(i)));
        const double curvature = games(i, j) * p * (1 - p);
        gradient(free_index[i]) += wins(i, j) - games(i, j) * p;
        information(free_index[i], free_index[i]) += curvature;
        if (free_index[j] >= 0) information(free_index[i], free_index[j]) -= curvature;
      }
    }
    information.diagonal().array() += 1e-12;  // numerical safety only: every free player is linked
    Eigen::VectorXd step = information.ldlt().solve(gradient);
    constexpr double kLongestStep = 2.0;  // natural units: Newton overshoots far from the optimum
    if (step.cwiseAbs().maxCoeff() > kLongestStep) step *= kLongestStep / step.cwiseAbs().maxCoeff();
    for (int i = 0; i < n; ++i)
      if (free_index[i] >= 0) theta(i) += step(free_index[i]);
    if (step.cwiseAbs().maxCoeff() < 1e-10) break;
  }
  const Eigen::MatrixXd covariance = information.ldlt().solve(Eigen::MatrixXd::Identity(free_count, free_count));
  for (int i = 0; i < n; ++i) {
    const int f = free_index[i];
    ratings[i].elo = f < 0 ? (linked[i] ? fixed_elo.at(ratings[i].name) : 0.0) : theta(i) * to_elo;
    ratings[i].error95 = f < 0 ? 0.0 : 1.959963984540054 * std::sqrt(covariance(f, f)) * to_elo;
    finish(ratings[i]);
  }
  return ratings;
}

}  // namespace ataxx
