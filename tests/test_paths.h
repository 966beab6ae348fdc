// Paths the tests share: their process's own temporary folder (test_main.cpp makes one) and the
// configuration the end-to-end runs train on.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace ataxx {

inline std::string temp_path(const std::string& name) { return testing::TempDir() + "/" + name; }

// The small configuration the end-to-end tests train on: a 1x16 net, seconds on 2 cores.
inline const std::string kTinyConfig = std::string(ATAXX_SOURCE_DIR) + "/configs/tiny.yaml";

}  // namespace ataxx
