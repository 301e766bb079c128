#pragma once
// Case: one validated simulation description, as read from a YAML file.
// Every value here has been checked by read_case() (app/input.hpp); the
// solver trusts it.
// Below this layer choices are types (core/variant.hpp), not strings.

#include <kolb/core/variant.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kolb {

// Text from the input made safe to print: control and non-ASCII bytes as
// \xNN (\n, \t as such), cut to `max` characters with "..." (0: no cut), so
// binary garbage never reaches the terminal raw.
inline std::string printable(const std::string& s, std::size_t max = 0) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (const char ch : s) {
    if (max > 0 && out.size() >= max) return out + "...";
    const auto b = static_cast<unsigned char>(ch);
    if (b == '\n')
      out += "\\n";
    else if (b == '\t')
      out += "\\t";
    else if (b < 0x20 || b >= 0x7f)
      out += std::string("\\x") + hex[b >> 4] + hex[b & 15];
    else
      out += ch;
  }
  return out;
}

// A problem in the input, with where it is ("case.yaml:12:5: physics.tau")
// and what is wrong (both printable()).
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& where, const std::string& what)
      : std::runtime_error(printable(where) + ": " + printable(what)), m_what(printable(what)) {}
  const std::string& problem() const { return m_what; }

 private:
  std::string m_what;
};

enum class FaceKind { periodic, wall, moving_wall, velocity_inlet, pressure_outlet, outflow };
KOLB_ENUM_NAMES(FaceKind, "periodic", "wall", "moving_wall", "velocity_inlet", "pressure_outlet",
                "outflow");

// A velocity inlet's profile across the face: the same velocity everywhere,
// or that velocity at the centre times 4 s (1 - s) along each transverse
// axis between walls (s: the position between the walls, 0 to 1), or the
// velocities of a table read from a file (io/inflow_table.hpp).
enum class InletProfile { uniform, parabolic, file };
KOLB_ENUM_NAMES(InletProfile, "uniform", "parabolic", "file");

class InflowTable;  // io/inflow_table.hpp

struct FaceBoundary {
  FaceKind kind = FaceKind::periodic;
  std::array<double, 3> velocity{0, 0, 0};       // moving_wall, velocity_inlet
  InletProfile profile = InletProfile::uniform;  // velocity_inlet
  std::shared_ptr<const InflowTable> table;      // velocity_inlet, profile: file
  std::int64_t ramp_steps = 0;                   // velocity_inlet: half-cosine start
  double amplitude = 0, period = 0;   // velocity_inlet: times 1 + amplitude sin(2π step / period)
  double density = 1.0;               // pressure_outlet
  double temperature = std::nan("");  // D2Q37 wall: fixed temperature; NaN = adiabatic
  // D2Q37 wall: the temperature imposed on the wall rows is the raw one (the
  // model's authors; T^H = T + (g dt)^2 / 8 there) or the half-step T^H.
  bool raw_temperature = true;
};

// D2Q37 (thermal) physics, in the model's units (xi = r c, T0 = 1, dt = 1/r).
struct ThermalSettings {
  // tau of Hermite orders 2, 3, 4 = tau_const + tau_per_pressure / (rho T);
  // bgk: tau_const[0] for all.
  std::array<double, 3> tau_const{1, 1, 1};
  std::array<double, 3> tau_per_pressure{0, 0, 0};
};

class SurfaceMesh;  // io/surface_mesh.hpp

struct Obstacle {
  enum class Kind { box, sphere, cylinder, mask, mesh };
  Kind kind = Kind::box;
  std::array<double, 3> min{0, 0, 0}, max{0, 0, 0};  // box, in site units
  std::array<double, 3> center{0, 0, 0};             // sphere, cylinder
  double radius = 0;                                 // sphere, cylinder
  int axis = 2;                                      // cylinder axis (0, 1, 2)
  std::string file;                                  // mask, mesh (an STL file)
  std::array<int, 3> offset{0, 0, 0};                // mask placement
  std::shared_ptr<const SurfaceMesh> mesh;           // mesh: placed, read once
  bool interpolated = false;  // wall: bouzidi (interpolated bounce-back), else half-way
  std::string where;          // for error messages
};

// What the forces on obstacles are made dimensionless with:
// c = 2 F / (ρ U² A), U and L from `forces` or physics' Reynolds number;
// A = L in 2-D (per site of depth), the given area in 3-D.
struct ForceReference {
  double velocity = 0, length = 0, area = 0, density = 1;
  bool given() const { return velocity > 0 && area > 0; }
  double coefficient(double force) const {
    return 2 * force / (density * velocity * velocity * area);
  }
};

enum class InitialKind {
  uniform,
  taylor_green,
  taylor_green_3d,
  shear_wave,
  temperature_wave,  // D2Q37: isobaric T = T0 (1 + A sin), rho = rho0 / (1 + A sin)
  sound_wave,        // D2Q37: u_wave = A sin(k wave)
  rayleigh_taylor,   // D2Q37: docs/reference/d2q37.md §10
  rayleigh_benard    // D2Q37: conductive profile + perturbation
};
KOLB_ENUM_NAMES(InitialKind, "uniform", "taylor_green", "taylor_green_3d", "shear_wave",
                "temperature_wave", "sound_wave", "rayleigh_taylor", "rayleigh_benard");

struct InitialCondition {
  using Kind = InitialKind;
  Kind kind = Kind::uniform;
  double density = 1.0;
  double temperature = 1.0;                 // D2Q37: uniform / wave base temperature
  std::array<double, 3> velocity{0, 0, 0};  // uniform
  // Rayleigh-Taylor / Rayleigh-Benard (D2Q37)
  double temperature_bottom = 1.05, temperature_top = 0.95;
  double interface_width = 10;    // RT: tanh width epsilon (sites)
  std::uint64_t seed = 1;         // RT: random phases of the interface modes
  bool phase_per_column = false;  // RT: a phase per (column, mode) as the authors draw them
  double amplitude = 0;  // taylor_green(_3d), shear/temperature/sound wave, RT modes, RB kick
  std::array<int, 2> plane{0, 1};    // taylor_green plane axes
  int flow_axis = 0, wave_axis = 1;  // shear_wave: u_flow(wave coordinate)
};

struct OutputSettings {
  std::string folder;
  std::int64_t vtk_every = 0;          // 0: only the final state
  std::int64_t observables_every = 0;  // 0: first and last step only
  std::int64_t forces_every = 0;       // forces.csv (obstacles); 0: first and last step only
  double progress_seconds = 2.0;       // progress line cadence
  std::int64_t checkpoint_every = 0;   // steps between checkpoints (0: none)
  int checkpoints_kept = 2;            // the newest ones stay, older ones are removed
};

// run.until_steady: stop once the relative L2 change of the velocity field
// between two checks `every` steps apart is below `tolerance` (0: off).
struct SteadySettings {
  double tolerance = 0;
  std::int64_t every = 500;
};

struct ExecutionSettings {
  LayoutId layout;
  KernelPath kernel = KernelPath::fused;
  Streaming streaming = Streaming::two_buffer;
  int threads = 0;  // 0: Kokkos' default (OMP_NUM_THREADS or all cores)
  // Heterogeneous node (domain/domain.hpp): M lattice columns at each x end
  // run on the host space, the rest on the accelerator. -1: one part on
  // Kokkos' default space (no node). `host_columns: auto` sets
  // host_columns_auto and leaves M to the load balancer.
  int host_columns = -1;
  bool host_columns_auto = false;
  // The axis the node is split along (execution.split_axis): 0, 1, 2, or -1
  // (auto: node_split_axis). Host parts are layers across it.
  int split_axis = -1;
  // Re-balancing during `kolb run` (balance/rebalance.hpp): the relative
  // difference of the node's side times that, held for a few seconds, moves
  // the split. 0: never; -1 (unset): 0.15 with host_columns: auto, else 0.
  double rebalance = -1;
  // MPI tiling (comm/tiling.hpp): ranks per axis. {0, 0, 0}: auto (the
  // tiling model picks); {-1, 1, 1}: 1d, every rank along x.
  std::array<int, 3> decomposition{0, 0, 0};
  // GPU builds: MPI reads and writes device halo buffers itself (else they
  // are staged through pinned host memory).
  bool gpu_aware_mpi = false;
};

struct Case {
  std::string source;  // file the case came from
  LatticeId lattice = LatticeId::D2Q9;
  Precision precision = Precision::float64;
  Collision collision = Collision::bgk;  // isothermal: bgk or trt; D2Q37: bgk or regularized
  int dim = 2;
  std::array<int, 3> size{1, 1, 1};
  double tau = 1.0;  // TRT: tau+ (the viscosity's)
  // The collision's keys beyond tau (collision_parameters(), in order).
  std::vector<double> collision_parameters;
  // Smagorinsky's constant C_s of the LES (isothermal lattices; 0: none).
  double smagorinsky = 0;
  std::array<double, 3> body_force{0, 0, 0};  // acceleration g, F = rho g (D2Q37: gravity)
  ThermalSettings thermal;                    // D2Q37 only
  std::array<FaceBoundary, 6> faces;          // x-, x+, y-, y+, z-, z+
  std::vector<Obstacle> obstacles;
  ForceReference forces;  // c_D, c_L of the obstacles (unset: forces only)
  InitialCondition initial;
  std::int64_t steps = 0;
  SteadySettings steady;
  OutputSettings output;
  ExecutionSettings execution;
  std::string yaml;  // the effective configuration (after --set), echoed in reports

  // Whether face f lets fluid in or out (a velocity inlet, a pressure outlet
  // or an outflow), and whether it lets it out.
  bool open(int f) const { return faces[f].kind == FaceKind::velocity_inlet || outlet(f); }
  bool outlet(int f) const {
    return faces[f].kind == FaceKind::pressure_outlet || faces[f].kind == FaceKind::outflow;
  }
  std::array<bool, 3> periodic() const {
    return {faces[0].kind == FaceKind::periodic, faces[2].kind == FaceKind::periodic,
            dim == 3 ? faces[4].kind == FaceKind::periodic : true};
  }
  double viscosity() const;  // cs^2 (tau - 1/2)
  VariantKey variant() const { return {lattice, precision, execution.layout}; }
  // The collision whose compiled units run the case: LES runs in TRT's,
  // BGK with LES as TRT with equal rates (model/trt.hpp).
  Collision kernel_collision() const { return smagorinsky > 0 ? Collision::trt : collision; }
};

// The axis a node of the case is split along on a tiling of `ranks`: the one
// execution.split_axis names, else on slabs along one axis that axis (the
// host parts hold the remote faces and exchange them while the accelerator
// updates), else the slowest axis (y in 2-D, z in 3-D), whose layers are
// whole planes of long contiguous rows whatever M.
int node_split_axis(const Case& c, const std::array<int, 3>& ranks);
// "x", "y" or "z".
const char* axis_name(int axis);

// What is wrong with M host layers per side along `axis` for the case's
// size (empty: nothing).
std::string split_problem(const Case& c, std::int64_t host_columns, int axis);

}  // namespace kolb
