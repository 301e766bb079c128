// Fuzzing the case reader: 100,000 mutated case files (KOLB_FUZZ_INPUTS to
// change the count) from every shipped input, with a fixed seed. Each one
// must read as a valid case or fail with a ConfigError (kolb's exit 2)
// whose message is short and printable; anything else (another exception,
// a crash, a hang) fails. The counts of each outcome are printed.
#include <kolb/app/input.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace {

std::vector<std::string> seed_inputs() {
  const char* src = std::getenv("KOLB_SOURCE_DIR");
  std::vector<std::string> out;
  if (!src) return out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(src) + "/inputs"))
    if (e.path().extension() == ".yaml") {
      std::ifstream in(e.path());
      std::stringstream s;
      s << in.rdbuf();
      out.push_back(s.str());
    }
  return out;
}

// Pieces a mutation may insert: YAML syntax, kolb's keys and values, and
// numbers at the edges of what the reader accepts.
const std::vector<std::string> kTokens = {":",
                                          "- ",
                                          "{",
                                          "}",
                                          "[",
                                          "]",
                                          ",",
                                          "\n",
                                          "  ",
                                          "'",
                                          "\"",
                                          "&a",
                                          "*a",
                                          "!!str",
                                          "#",
                                          "|",
                                          ">",
                                          "? ",
                                          "~",
                                          "null",
                                          "true",
                                          "0",
                                          "-1",
                                          "1e308",
                                          "-1e308",
                                          "1e-320",
                                          ".nan",
                                          ".inf",
                                          "2147483648",
                                          "9999999999999999999",
                                          "0.5",
                                          "0.50001",
                                          "[0, 0]",
                                          "[1, 2, 3]",
                                          "[[1]]",
                                          "lattice",
                                          "D2Q9",
                                          "D3Q19",
                                          "D2Q37",
                                          "domain",
                                          "size",
                                          "physics",
                                          "tau",
                                          "reynolds",
                                          "viscosity",
                                          "body_force",
                                          "gravity",
                                          "boundaries",
                                          "x-",
                                          "y+",
                                          "z-",
                                          "wall",
                                          "moving_wall",
                                          "periodic",
                                          "velocity",
                                          "temperature",
                                          "temperature_of",
                                          "obstacles",
                                          "type",
                                          "box",
                                          "sphere",
                                          "cylinder",
                                          "mask",
                                          "radius",
                                          "center",
                                          "min",
                                          "max",
                                          "initial",
                                          "taylor_green",
                                          "rayleigh_taylor",
                                          "amplitude",
                                          "run",
                                          "steps",
                                          "until_steady",
                                          "output",
                                          "folder",
                                          "checkpoint",
                                          "every",
                                          "execution",
                                          "layout",
                                          "csoa",
                                          "aa",
                                          "streaming",
                                          "host_columns",
                                          "split_axis",
                                          "z",
                                          "auto",
                                          "decomposition",
                                          "vector_length",
                                          "\x01\xff\x1b[31m"};

std::string mutate(std::string s, std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return n == 0 ? 0 : std::size_t(rng() % n); };
  const int edits = 1 + int(rng() % 4);
  for (int k = 0; k < edits; ++k) {
    const std::size_t at = pick(s.size() + 1);
    switch (rng() % 8) {
      case 0:  // flip a byte
        if (!s.empty()) s[pick(s.size())] ^= char(1u << (rng() % 8));
        break;
      case 1:  // delete a run of bytes
        s.erase(std::min(at, s.size()), 1 + pick(12));
        break;
      case 2:  // insert a token
      case 3: s.insert(std::min(at, s.size()), kTokens[pick(kTokens.size())]); break;
      case 4: {  // duplicate a line
        const std::size_t b = s.rfind('\n', at == 0 ? 0 : at - 1);
        const std::size_t e = s.find('\n', at);
        const std::size_t from = b == std::string::npos ? 0 : b + 1;
        if (e != std::string::npos && e > from) s.insert(e + 1, s.substr(from, e - from + 1));
        break;
      }
      case 5:  // replace a number or word by a token
        if (!s.empty()) {
          const std::size_t p = pick(s.size());
          std::size_t e = p;
          while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '.'))
            ++e;
          s.replace(p, e - p, kTokens[pick(kTokens.size())]);
        }
        break;
      case 6:  // truncate
        s.resize(std::min(s.size(), at));
        break;
      default:  // random bytes
        for (int n = 1 + int(pick(8)); n > 0; --n) s.insert(std::min(at, s.size()), 1, char(rng()));
    }
  }
  return s;
}

TEST(FuzzCase, MutatedInputsAreReadOrRejectedCleanly) {
  const std::vector<std::string> seeds = seed_inputs();
  ASSERT_FALSE(seeds.empty()) << "KOLB_SOURCE_DIR/inputs has no cases";
  const char* env = std::getenv("KOLB_FUZZ_INPUTS");
  const long count = env ? std::atol(env) : 100000;
  std::mt19937_64 rng(20261123);
  long valid = 0, rejected = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (long n = 0; n < count; ++n) {
    const std::string input = mutate(seeds[std::size_t(n) % seeds.size()], rng);
    try {
      kolb::read_case_string(input, "fuzz.yaml");
      ++valid;
    } catch (const kolb::ConfigError& e) {
      ++rejected;
      const std::string m = e.what();
      bool printable = true;
      for (const char ch : m) printable = printable && ch >= 0x20 && ch < 0x7f;
      if (!printable || m.size() > 2000) {
        ADD_FAILURE() << "input " << n << ": message not short and printable:\n"
                      << kolb::printable(m, 400);
        break;
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << "input " << n << ": " << typeid(e).name() << ": " << e.what() << "\ninput:\n"
                    << kolb::printable(input, 2000);
      break;
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[measured] fuzzed %ld inputs in %.1f s: %ld valid, %ld rejected (ConfigError)\n",
              valid + rejected, s, valid, rejected);
  EXPECT_EQ(valid + rejected, count);
  EXPECT_GT(valid, 0);  // the mutations keep some inputs valid: the readers are reached
}

}  // namespace
