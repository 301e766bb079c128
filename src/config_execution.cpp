// read_case's execution section and its check against the compiled variants
// (src/config_sections.hpp).

#include <kolb/comm/tiling.hpp>
#include <kolb/domain/domain.hpp>

#include <yaml-cpp/yaml.h>

#include "config_sections.hpp"

#include <algorithm>
#include <string>

namespace kolb {

namespace {

using yaml::Map;
using yaml::Reader;

// execution.decomposition: auto | 1d | [nx, ny] | [nx, ny, nz] (3-D).
void read_decomposition(const Map& e, Case& c) {
  const YAML::Node d = e.get("decomposition");
  const std::string where = e.path("decomposition");
  std::array<int, 3>& r = c.execution.decomposition;
  if (d.IsScalar() && (d.Scalar() == "auto" || d.Scalar() == "1d")) {
    r = d.Scalar() == "auto" ? std::array<int, 3>{0, 0, 0} : std::array<int, 3>{-1, 1, 1};
    return;
  }
  if (!d.IsSequence() || d.size() < 2 || d.size() > std::size_t(c.dim))
    e.reader().fail(d, where,
                    "expected auto, 1d or ranks per axis [nx, ny]" +
                        std::string(c.dim == 3 ? " or [nx, ny, nz]" : "") + ", got " +
                        yaml::yaml_text(d));
  r = {1, 1, 1};
  for (std::size_t a = 0; a < d.size(); ++a) {
    int v = 0;
    try {
      v = d[a].as<int>();
    } catch (const YAML::Exception&) {
      v = 0;
    }
    if (v < 1)
      e.reader().fail(d[a], where + "[" + std::to_string(a) + "]",
                      "ranks per axis must be positive integers, got " + yaml::yaml_text(d[a]));
    r[a] = v;
  }
  if (const std::string problem = tiling_problem(c, r); !problem.empty())
    e.reader().fail(d, where, problem);
}

}  // namespace

void read_execution(const Map& e, Case& c, const LatticeInfo& info) {
  const Reader& reader = e.reader();
  ExecutionSettings& x = c.execution;
  if (e.has("kernel")) x.kernel = e.choice<KernelPath>("kernel");
  if (e.has("streaming")) x.streaming = e.choice<Streaming>("streaming");
  if (x.streaming == Streaming::aa && !info.in_place_streaming)
    e.fail("streaming", to_string(c.lattice) +
                            " runs the two_buffer streaming scheme only (its wall rows need the "
                            "pre-streaming populations)");
  if (x.streaming == Streaming::aa && x.kernel == KernelPath::split)
    e.fail("kernel", "the aa streaming scheme has only the fused kernel");
  if (e.has("layout")) x.layout.kind = e.choice<LayoutKind>("layout");
  const bool clustered = x.layout.kind == LayoutKind::csoa || x.layout.kind == LayoutKind::caosoa;
  if (clustered) {
    // VL 8: the clustered variant every build holds (docs/user-guide.md).
    x.layout.vector_length = int(e.integer("vector_length", 8));
  } else if (e.has("vector_length")) {
    e.fail("vector_length", "only the clustered layouts csoa and caosoa have a vector_length");
  }
  x.threads = int(e.at_least("threads", 1, 0));
  if (e.has("gpu_aware_mpi"))
    x.gpu_aware_mpi = e.choice("gpu_aware_mpi", {"true", "false"}) == "true";
  if (e.has("decomposition")) read_decomposition(e, c);
  if (e.has("rebalance")) {
    x.rebalance = e.number("rebalance");
    if (!(x.rebalance >= 0 && x.rebalance < 1))
      e.fail("rebalance",
             "rebalance is the relative difference of the node's side times that moves the "
             "split: a number in [0, 1) (0: never)");
    if (!e.has("host_columns"))
      e.fail("rebalance", "rebalance needs a host/accelerator split (execution.host_columns)");
  }
  if (e.has("split_axis")) {
    const std::string axis = e.choice("split_axis", {"auto", "x", "y", "z"});
    x.split_axis = axis == "auto" ? -1 : int(axis[0] - 'x');
    if (x.split_axis >= c.dim)
      e.fail("split_axis", "a " + std::to_string(c.dim) + "-D lattice has no axis " + axis);
    if (!e.has("host_columns"))
      e.fail("split_axis", "split_axis needs a host/accelerator split (execution.host_columns)");
  }
  if (!e.has("host_columns")) return;
  const YAML::Node m = e.get("host_columns");
  const std::string where = e.path("host_columns");
  if (m.IsScalar() && m.Scalar() == "auto") {
    x.host_columns_auto = true;
  } else {
    const std::int64_t cols = e.integer("host_columns");
    // The tiling is not known yet: the axis of one rank (Domain checks the tile).
    const std::string problem = split_problem(c, cols, node_split_axis(c, {1, 1, 1}));
    if (!problem.empty()) reader.fail(m, where, problem);
    x.host_columns = int(cols);
  }
}

void check_compiled(const Map& top, const Case& c) {
  const Reader& reader = top.reader();
  const VariantKey want = c.variant();
  if (!variant_compiled(want)) {
    bool lattice = false, precision = false, layout = false;
    std::string compiled;  // the layouts of this lattice and precision
    for (const VariantKey& v : compiled_variants()) {
      lattice = lattice || v.lattice == want.lattice;
      if (v.lattice != want.lattice || v.precision != want.precision) continue;
      precision = true;
      layout = layout || v.layout.kind == want.layout.kind;
      compiled += " " + to_string(v.layout);
    }
    const YAML::Node e = top.has("execution") ? top.get("execution") : YAML::Node();
    const std::string what = to_string(want) + " is not compiled into this build";
    if (!lattice || (!precision && !top.has("precision")))
      reader.fail(top.get("lattice"), "lattice", what + " (`kolb info` lists the variants)");
    if (!precision)
      reader.fail(top.get("precision"), "precision", what + " (`kolb info` lists the variants)");
    const std::string fix = "; execution.layout picks one of:" + compiled;
    if (layout && e["vector_length"])
      reader.fail(e["vector_length"], "execution.vector_length", what + fix);
    if (e["layout"]) reader.fail(e["layout"], "execution.layout", what + fix);
    reader.fail(top.get("lattice"), "lattice", what + " in the default layout" + fix);
  }
  const auto collisions = compiled_collisions(want);
  const Collision k = c.kernel_collision();
  if (std::find(collisions.begin(), collisions.end(), k) != collisions.end()) return;
  const YAML::Node p = top.get("physics");
  const bool les = k != c.collision;
  reader.fail(les              ? p["smagorinsky"]
              : p["collision"] ? p["collision"]
                               : p,
              les ? "physics.smagorinsky" : "physics.collision",
              to_string(want) + " is compiled without the " + to_string(k) + " collision" +
                  (les ? ", which runs the LES" : "") +
                  " (`kolb info` lists each variant's collisions; execution.layout picks the "
                  "variant)");
}

}  // namespace kolb
