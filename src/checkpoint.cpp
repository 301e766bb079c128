// Checkpoints (app/checkpoint.hpp).

#include <kolb/app/checkpoint.hpp>
#include <kolb/comm/communicator.hpp>
#include <kolb/config.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/io/face_names.hpp>
#include <kolb/io/inflow_table.hpp>
#include <kolb/io/mask.hpp>
#include <kolb/io/surface_mesh.hpp>
#include <kolb/model/lattice_info.hpp>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include "output_files.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

namespace kolb {

namespace fs = std::filesystem;

namespace {

constexpr int kFormat = 1;
// The sections of a case that make its dynamics: a checkpoint continues only
// a case that agrees on all of them (run, output and execution may change).
const char* kSections[] = {"lattice", "precision", "domain", "physics", "boundaries", "obstacles"};

constexpr std::uint64_t kFnvStart = 1469598103934665603ull;
// FNV-1a over n bytes, going on from h.
std::uint64_t fnv1a(const char* data, std::size_t n, std::uint64_t h = kFnvStart) {
  for (std::size_t i = 0; i < n; ++i)
    h = (h ^ static_cast<unsigned char>(data[i])) * 1099511628211ull;
  return h;
}
template <class T>
std::uint64_t fnv1a_of(const T& value, std::uint64_t h) {
  return fnv1a(reinterpret_cast<const char*>(&value), sizeof value, h);
}

std::string hex(std::uint64_t v) {
  char s[17];
  std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(v));
  return s;
}

// Each dynamics section of the case as YAML text ("" when absent), and the
// digests of the files it reads (`files`).
nlohmann::json fingerprint(const Case& c, const InputDigests& inputs) {
  const YAML::Node root = YAML::Load(c.yaml);
  nlohmann::json j = nlohmann::json::object();
  for (const char* s : kSections) {
    YAML::Emitter out;
    if (root[s]) out << root[s];
    j[s] = std::string(out.c_str());
  }
  j["files"] = nlohmann::json::object();
  for (const auto& [key, digest] : inputs) j["files"][key] = digest;
  return j;
}

std::string step_name(std::int64_t step) {
  char name[32];
  std::snprintf(name, sizeof name, "step_%09lld", static_cast<long long>(step));
  return name;
}

std::string rank_name(int rank, const char* ext) {
  char name[32];
  std::snprintf(name, sizeof name, "rank_%05d.%s", rank, ext);
  return name;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw ConfigError(path, "cannot read checkpoint file: " + std::string(std::strerror(errno)));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(path, std::string("corrupt checkpoint file: ") + e.what());
  }
}

// The steps of the complete checkpoints in a checkpoints/ folder, newest first.
std::vector<std::pair<std::int64_t, fs::path>> complete_checkpoints(const fs::path& dir) {
  std::vector<std::pair<std::int64_t, fs::path>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("step_", 0) != 0 || name.find('.') != std::string::npos) continue;
    if (!fs::exists(entry.path() / "manifest.json")) continue;
    found.emplace_back(std::stoll(name.substr(5)), entry.path());
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  return found;
}

}  // namespace

InputDigests input_digests(const Case& c) {
  InputDigests d;
  for (std::size_t k = 0; k < c.obstacles.size(); ++k) {
    const Obstacle& o = c.obstacles[k];
    std::uint64_t h = kFnvStart;
    if (o.mesh) {
      h = fnv1a(reinterpret_cast<const char*>(o.mesh->coordinates()),
                9 * o.mesh->triangle_count() * sizeof(double));
    } else if (o.kind == Obstacle::Kind::mask) {
      const Mask m = read_mask(o);
      h = fnv1a_of(m.height, fnv1a_of(m.width, h));
      for (const bool solid : m.solid) h = fnv1a_of(solid, h);
    } else {
      continue;
    }
    d.emplace_back("obstacles[" + std::to_string(k) + "].file", hex(h));
  }
  for (int f = 0; f < 2 * c.dim; ++f) {
    const auto& table = c.faces[std::size_t(f)].table;
    if (!table) continue;
    // At every half site across the face: where the inlet's links cross it
    // (OpenFaces' inlet_term asks the table there).
    const int a = f / 2, b = (a + 1) % 3, e = (a + 2) % 3;
    std::uint64_t h = kFnvStart;
    for (int j2 = 0; j2 <= 2 * c.size[std::size_t(e)]; ++j2)
      for (int j1 = 0; j1 <= 2 * c.size[std::size_t(b)]; ++j1) {
        std::array<double, 3> p{};
        p[std::size_t(a)] = f % 2 ? c.size[std::size_t(a)] : 0;
        p[std::size_t(b)] = 0.5 * j1, p[std::size_t(e)] = 0.5 * j2;
        for (const double v : table->at(p)) h = fnv1a_of(v, h);
      }
    d.emplace_back("boundaries." + std::string(face_name(f)) + ".file", hex(h));
  }
  return d;
}

std::string write_checkpoint(const Case& c, Domain& domain, const InputDigests& inputs) {
  if (!checkpoint_step_exact(c, domain.step()))
    throw std::logic_error("write_checkpoint: AA streaming at an odd step (see checkpoint.hpp)");
  const fs::path dir = fs::path(c.output.folder) / "checkpoints";
  const std::string name = step_name(domain.step());
  const fs::path tmp = dir / (name + ".tmp"), final_dir = dir / name;
  std::error_code ec;
  if (comm::root()) {
    fs::remove_all(tmp, ec);
    fs::create_directories(tmp, ec);
  }
  comm::barrier();
  // This rank's piece: its tile's populations in the case's precision
  // (fp16 storage as doubles, which hold its values exactly).
  const std::vector<double> f = domain.populations();
  std::vector<float> single;
  if (c.precision == Precision::float32) single.assign(f.begin(), f.end());
  const std::string_view bytes =
      single.empty()
          ? std::string_view(reinterpret_cast<const char*>(f.data()), f.size() * 8)
          : std::string_view(reinterpret_cast<const char*>(single.data()), single.size() * 4);
  const Tile& t = domain.tile();
  const nlohmann::json piece = {{"offset", t.offset},
                                {"size", t.size},
                                {"bytes", bytes.size()},
                                {"fnv1a64", hex(fnv1a(bytes.data(), bytes.size()))}};
  const int r = comm::rank();
  write_atomically((tmp / rank_name(r, "bin")).string(), {bytes});
  write_atomically((tmp / rank_name(r, "json")).string(), piece.dump(2) + "\n");
  comm::barrier();
  if (comm::root()) {
    const LatticeInfo& info = lattice_info(c.lattice);
    const nlohmann::json manifest = {{"format", kFormat},
                                     {"kolb_version", KOLB_VERSION_STRING},
                                     {"step", domain.step()},
                                     {"lattice", to_string(c.lattice)},
                                     {"precision", to_string(c.precision)},
                                     {"q", info.q},
                                     {"size", c.size},
                                     {"pieces", comm::size()},
                                     {"case", fingerprint(c, inputs)}};
    write_atomically((tmp / "manifest.json").string(), manifest.dump(2) + "\n");
    fs::remove_all(final_dir, ec);
    fs::rename(tmp, final_dir, ec);
    if (ec)
      throw std::runtime_error("cannot rename " + tmp.string() + " to " + final_dir.string() +
                               ": " + ec.message());
    const auto kept = complete_checkpoints(dir);
    for (std::size_t k = std::size_t(std::max(c.output.checkpoints_kept, 1)); k < kept.size(); ++k)
      fs::remove_all(kept[k].second, ec);
  }
  comm::barrier();
  return final_dir.string();
}

bool checkpoint_step_exact(const Case& c, std::int64_t step) {
  const bool aa =
      c.execution.streaming == Streaming::aa && lattice_info(c.lattice).in_place_streaming;
  return !aa || step % 2 == 0;
}

void drop_checkpoints_after(const Case& c, std::int64_t step) {
  if (!comm::root()) return;
  std::error_code ec;
  for (const auto& [s, dir] : complete_checkpoints(fs::path(c.output.folder) / "checkpoints"))
    if (s > step) fs::remove_all(dir, ec);
}

std::string find_checkpoint(const std::string& path) {
  const fs::path p(path);
  if (fs::exists(p / "manifest.json")) return p.string();
  for (const fs::path& dir : {p / "checkpoints", p}) {
    const auto found = complete_checkpoints(dir);
    if (!found.empty()) return found.front().second.string();
  }
  throw ConfigError("--restart " + path,
                    fs::exists(p) ? "no complete checkpoint there (a folder with manifest.json, "
                                    "or a run's output folder with checkpoints/)"
                                  : "no such folder");
}

std::int64_t read_checkpoint(const std::string& folder, const Case& c, Domain& domain,
                             const InputDigests& inputs) {
  const fs::path dir(folder);
  const nlohmann::json m = read_json((dir / "manifest.json").string());
  const std::string where = (dir / "manifest.json").string();
  std::int64_t step = 0;
  int pieces = 0;
  try {
    if (m.at("format").get<int>() != kFormat)
      throw ConfigError(where, "checkpoint format " + m.at("format").dump() + " is not " +
                                   std::to_string(kFormat) + " (written by kolb " +
                                   m.value("kolb_version", std::string("?")) + ")");
    step = m.at("step").get<std::int64_t>();
    pieces = m.at("pieces").get<int>();
    // Name the sections that differ rather than a bare hash mismatch.
    const nlohmann::json mine = fingerprint(c, inputs), theirs = m.at("case");
    std::string differ;
    for (const char* s : kSections)
      if (!theirs.contains(s) || theirs.at(s) != mine.at(s))
        differ += (differ.empty() ? "" : ", ") + std::string(s);
    if (!differ.empty())
      throw ConfigError(where, "the checkpoint was written for another case: " + differ +
                                   " differ from " + c.source);
    // (A checkpoint from before the digests has none: its files pass.)
    if (theirs.contains("files")) {
      const nlohmann::json& old = theirs.at("files");
      if (!old.is_object()) throw ConfigError(where, "corrupt checkpoint manifest: files");
      for (const auto& [key, digest] : inputs)
        if (!old.contains(key) || old.at(key) != digest)
          differ += (differ.empty() ? "" : ", ") + key;
      if (!differ.empty())
        throw ConfigError(where, "the checkpoint was written for another case: the data " +
                                     c.source + " reads from the file of " + differ +
                                     " changed since the checkpoint was written (the file was "
                                     "edited or replaced, or kolb reads it differently)");
    }
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(where, std::string("corrupt checkpoint manifest: ") + e.what());
  }
  const int q = lattice_info(c.lattice).q;
  const std::size_t value = c.precision == Precision::float32 ? 4 : 8;
  const Tile& t = domain.tile();
  std::vector<double> f(std::size_t(t.size[0]) * t.size[1] * t.size[2] * q);
  std::size_t covered = 0;
  for (int r = 0; r < pieces; ++r) {
    const std::string json_path = (dir / rank_name(r, "json")).string();
    const nlohmann::json p = read_json(json_path);
    std::array<int, 3> off{}, n{};
    std::size_t bytes = 0;
    std::string sum;
    try {
      off = p.at("offset").get<std::array<int, 3>>();
      n = p.at("size").get<std::array<int, 3>>();
      bytes = p.at("bytes").get<std::size_t>();
      sum = p.at("fnv1a64").get<std::string>();
    } catch (const nlohmann::json::exception& e) {
      throw ConfigError(json_path, std::string("corrupt checkpoint piece: ") + e.what());
    }
    // The overlap of the piece with this rank's tile.
    std::array<int, 3> lo, hi;
    bool overlaps = true;
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::max(off[a], t.offset[a]);
      hi[a] = std::min(off[a] + n[a], t.offset[a] + t.size[a]);
      overlaps = overlaps && lo[a] < hi[a];
    }
    if (!overlaps) continue;
    const std::string bin_path = (dir / rank_name(r, "bin")).string();
    std::ifstream in(bin_path, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t expected = std::size_t(n[0]) * n[1] * n[2] * q * value;
    if (!in.good() && !in.eof())
      throw ConfigError(bin_path,
                        "cannot read checkpoint piece: " + std::string(std::strerror(errno)));
    if (data.size() != bytes || bytes != expected || hex(fnv1a(data.data(), data.size())) != sum)
      throw ConfigError(bin_path, "corrupt checkpoint piece: " + std::to_string(data.size()) +
                                      " bytes, expected " + std::to_string(expected) +
                                      (data.size() == expected ? " with checksum " + sum : ""));
    // Row by row: an x run of the overlap is contiguous in both.
    const std::size_t count = std::size_t(hi[0] - lo[0]) * q;
    for (int z = lo[2]; z < hi[2]; ++z)
      for (int y = lo[1]; y < hi[1]; ++y) {
        const std::size_t from =
            (std::size_t(lo[0] - off[0]) +
             std::size_t(n[0]) * (std::size_t(y - off[1]) + std::size_t(n[1]) * (z - off[2]))) *
            q;
        const std::size_t to =
            (std::size_t(lo[0] - t.offset[0]) +
             std::size_t(t.size[0]) *
                 (std::size_t(y - t.offset[1]) + std::size_t(t.size[1]) * (z - t.offset[2]))) *
            q;
        if (value == 8) {
          std::memcpy(&f[to], data.data() + from * 8, count * 8);
        } else {
          std::vector<float> row(count);
          std::memcpy(row.data(), data.data() + from * 4, count * 4);
          std::copy(row.begin(), row.end(), f.begin() + std::ptrdiff_t(to));
        }
        covered += std::size_t(hi[0] - lo[0]);
      }
  }
  if (covered != std::size_t(t.size[0]) * t.size[1] * t.size[2])
    throw ConfigError(where, "corrupt checkpoint: its pieces do not cover the lattice");
  domain.restore(f, step);
  return step;
}

}  // namespace kolb
