// The table of the case file's keys (app/schema.hpp). A key's meaning is
// what docs/user-guide.md shows; read_case (config.cpp) takes the key sets.

#include <kolb/app/schema.hpp>
#include <kolb/model/lattice_info.hpp>

#include <sstream>
#include <stdexcept>

namespace kolb {

namespace {

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::vector<SchemaSection> make_schema() {
  std::vector<SchemaSection> s;
  s.push_back(
      {"top level",
       {{"lattice", "choice", "required",
         "`D2Q9`, `D3Q19`, `D3Q27` or `D2Q37` (thermal: its physics, boundary and initial keys "
         "are in `docs/thermal.md`). D3Q27 adds the 8 corner velocities to D3Q19: the same "
         "physics, all mixed moments of the D1Q3 tensor product (x²y²z² too), 27/19 of the memory "
         "and traffic per site"},
        {"precision", "choice", "`double`",
         "`double` or `float`: the storage and arithmetic type of the populations; `fp16` "
         "(isothermal lattices): FP32 arithmetic, populations stored in 16 bits "
         "(`docs/performance.md`, \"16-bit storage\": half the memory and traffic of `float`, "
         "less accurate for slow flows)"},
        {"domain", "map", "required",
         "`{size: [nx, ny]}` (3-D: `[nx, ny, nz]`): fluid sites per axis"},
        {"physics", "map", "required", "relaxation and forcing, below"},
        {"boundaries", "map", "required", "one entry per face, below"},
        {"obstacles", "list", "none", "solid shapes, below"},
        {"forces", "map", "none",
         "the reference of the obstacles' force coefficients c_D, c_L and Strouhal number, "
         "below"},
        {"initial", "map", "uniform rest, density 1", "initial fields, below"},
        {"run", "map", "required", "the number of steps, below"},
        {"output", "map", "required", "below"},
        {"execution", "map", "one block, SoA, two buffers", "below"}}});
  s.push_back({"domain", {{"size", "[integers]", "required", "fluid sites per axis, each ≥ 1"}}});
  SchemaSection physics{
      "physics",
      {{"collision", "choice", "`bgk`",
        "`bgk` or `trt`: two relaxation times (Ginzburg), the even part of each population pair "
        "relaxing with τ⁺ and the odd part with τ⁻, chosen by `magic` (TRT is compiled in the "
        "SoA layout, KOLB_COLLISION_LAYOUTS adds others; `kolb info` lists each variant's "
        "collisions)"},
       {"tau", "number", "one of three",
        "relaxation time, > 0.5 (TRT: τ⁺, the one that sets the viscosity)"},
       {"viscosity", "number", "one of three", "kinematic viscosity ν > 0; τ = ν / c_s² + ½"},
       {"reynolds", "number", "one of three",
        "with `reference_velocity` U and `reference_length` L: ν = U L / Re; U is checked "
        "against the Mach limit"},
       {"reference_velocity", "number", "with `reynolds`", "U of the Reynolds number"},
       {"reference_length", "number", "with `reynolds`", "L of the Reynolds number, in sites"},
       {"body_force", "[numbers]", "none",
        "a body acceleration g per axis: the force density is ρg, applied with Guo's scheme"},
       {"smagorinsky", "number", "0 (no LES)",
        "Smagorinsky's constant C_s ≥ 0 of a large-eddy simulation (0.1–0.2 is usual): "
        "each site's τ (TRT: τ⁺) grows by the eddy viscosity (C_s Δx)² |S|, the strain rate "
        "read from its own non-equilibrium stress; TRT keeps `magic`. With `bgk` or `trt`; "
        "runs in TRT's compiled units (the layouts `kolb info` lists with `trt`)"}}};
  // Each collision's own keys, as its policy declares them (model/trt.hpp).
  for (const Collision k : collisions_of(false))
    for (const CollisionParameter& p : collision_parameters(k))
      physics.keys.push_back(
          {p.key, "number", number_text(p.fallback), "`" + to_string(k) + "` only: " + p.meaning});
  s.push_back(physics);
  s.push_back(
      {"physics (D2Q37)",
       {{"collision", "choice", "`bgk`",
         "`bgk`: single τ with the shifted equilibrium (§6a). `regularized`: the authors' "
         "production collision (§6b): Hermite orders 2, 3, 4 relax with τ1, τ2, τ3, order 1 "
         "gains F = ρ g Δt, and the populations are rebuilt from orders 0–4"},
        {"tau", "number or [numbers]", "required (or `relaxation_constants`)",
         "`bgk`: τ > ½. `regularized`: `[τ1, τ2, τ3]`, constant per order (ν from τ1, κ from "
         "τ2, Pr = (τ1 − ½)/(τ2 − ½))"},
        {"relaxation_constants", "[numbers]", "none",
         "`regularized` only, instead of `tau`: `[C1, C2, C3]`, τ1 = ½ + C1/(ρT), τ2 = ½ + "
         "C2/(ρT), τ3 = ½ + C3 (constant dynamic viscosity and conductivity, as in the authors' "
         "code: `[0.001, 0.001, 0.5]`)"},
        {"gravity", "[numbers]", "none",
         "`[gx, gy]`, model units. Each step adds exactly ρ g Δt to the momentum; T is shifted "
         "too (§5) so the force does no spurious heating"}}});
  s.push_back(
      {"forces",
       {{"reference_velocity", "number", "`physics.reference_velocity` (else required)",
         "U of c = 2F / (ρ U² A) and of St = f L / U (lattice units)"},
        {"reference_length", "number", "`physics.reference_length` (2-D: else required)",
         "L, in sites: the body's size across the flow (the cylinder's diameter); in 2-D also "
         "A (forces are per site of depth)"},
        {"reference_area", "number", "required in 3-D",
         "A in sites² (3-D only): e.g. D·H for a cylinder spanning a duct of height H"},
        {"reference_density", "number", "1", "ρ of the coefficients"}}});
  s.push_back(
      {"run",
       {{"steps", "integer", "required", "time steps (≥ 0); after `--restart`, the step to reach"},
        {"until_steady", "map", "off", "stop once the velocity field stops changing, below"}}});
  s.push_back({"run.until_steady",
               {{"tolerance", "number", "required",
                 "ε > 0: the run stops once the relative L2 change of the velocity field since the "
                 "previous check, ‖u − u_prev‖ / ‖u‖ over all fluid and solid sites (and all MPI "
                 "ranks), computed with Kokkos Kernels' BLAS (`nrm2`, `axpby`), is below ε, with "
                 "`status: steady` and `run.steady` (step, last change) in `report.json`"},
                {"every", "integer", "500", "steps between the checks (≥ 1)"}}});
  s.push_back(
      {"output",
       {{"folder", "string", "required", "created if needed; relative to the working directory"},
        {"vtk_every", "integer", "0",
         "a `.vti` snapshot every N steps (and the first); 0: only the final state"},
        {"observables_every", "integer", "0",
         "a row of `observables.csv` every N steps; 0: first and last only"},
        {"forces_every", "integer", "`observables_every`",
         "with obstacles, a row of `forces.csv` (the force on each, c_D, c_L) every N steps; 0: "
         "first and last only. Cheap enough for every step"},
        {"progress_seconds", "number", "2",
         "cadence of the progress line (step, MLUPS, max speed, ETA)"},
        {"checkpoint", "map", "none", "checkpoints to restart from, below"}}});
  s.push_back({"output.checkpoint",
               {{"every", "integer", "required",
                 "a checkpoint every N steps (0: none) and at the end. With `streaming: aa`, N "
                 "must be even"},
                {"keep", "integer", "2", "the newest K checkpoints stay (≥ 1)"}}});
  s.push_back(
      {"execution",
       {{"layout", "choice", "`soa`",
         "population layout: `aos`, `soa`, `csoa`, `caosoa` (see below)"},
        {"vector_length", "integer", "8 (`csoa`, `caosoa`)",
         "cluster length VL of `csoa` / `caosoa` (8; with `KOLB_ALL_VARIANTS` also 16); an "
         "error for `aos` / `soa`"},
        {"streaming", "choice", "`two_buffer`",
         "`two_buffer`: pull from one array into another; `aa`: in place in one array (AA "
         "pattern, half the memory, the fastest on CPUs: 1.1–1.65× two_buffer in "
         "`docs/performance.md`, \"At a glance\"; isothermal lattices: one block, a "
         "heterogeneous node, or MPI slabs along x)"},
        {"kernel", "choice", "`fused`",
         "`fused` (`StreamCollide`) or `split` (`Propagate` then `Collide`; two-buffer only)"},
        {"threads", "integer",
         "Kokkos' default; with `host_columns` in a CPU-only build: cores − 1",
         "OpenMP threads (overridden by `--threads`, `OMP_NUM_THREADS`)"},
        {"host_columns", "integer or `auto`", "one block",
         "heterogeneous node: `M` lattice layers at each end of the split axis run on the host "
         "space, the rest on the accelerator; `0` ≤ M ≤ L/2, or `auto` (the load balancer "
         "picks M before the run). Both streaming schemes. Under MPI: per rank's tile "
         "(two-buffer)"},
        {"split_axis", "choice", "`auto`",
         "heterogeneous node: the axis it is cut across: `auto` (y in 2-D, z in 3-D; under MPI "
         "on slabs along one axis, that axis), `x`, `y` or `z`. D2Q37 split along y between "
         "walls: M ≥ 6 (the host parts hold the wall rows)"},
        {"rebalance", "number", "0.15 with `host_columns: auto`, else off",
         "heterogeneous node: the relative difference of the two sides' busy times that, held "
         "over three windows of about a second, moves the split during the run "
         "(`docs/heterogeneous.md`); `0`: never"},
        {"decomposition", "`auto`, `1d` or [integers]", "`auto`",
         "MPI tiles (`mpiexec -n N kolb run …`, `docs/mpi.md`): `auto` (the tiling model "
         "measures and picks), `1d` (slabs along x), `[nx, ny]` or, in 3-D, `[nx, ny, nz]` "
         "ranks per axis. Ignored on one rank"},
        {"gpu_aware_mpi", "boolean", "`false`",
         "CUDA/HIP builds under MPI: MPI reads and writes device halo buffers itself (else "
         "staged through pinned host memory)"}}});
  return s;
}

}  // namespace

const std::vector<SchemaSection>& case_schema() {
  static const std::vector<SchemaSection> schema = make_schema();
  return schema;
}

std::vector<std::string> schema_keys(const std::string& section) {
  for (const SchemaSection& s : case_schema())
    if (s.name == section) {
      std::vector<std::string> keys;
      for (const KeySpec& k : s.keys) keys.push_back(k.key);
      return keys;
    }
  throw std::logic_error("schema_keys: no section '" + section + "'");
}

std::string schema_markdown(const SchemaSection& section) {
  std::string out = "| key | type | default | meaning |\n|---|---|---|---|\n";
  for (const KeySpec& k : section.keys)
    out += "| `" + k.key + "` | " + k.type + " | " + k.fallback + " | " + k.meaning + " |\n";
  return out;
}

}  // namespace kolb
