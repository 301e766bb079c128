#pragma once
// StepPlan: what a part does in each phase of a time step, as a plain
// value computed once by one pure function (make_step_plan) from the part's
// setup (PlanInputs): which kernel runs on which sites, who fills each halo
// before it, and, in place, where the populations a pull pushes into each
// halo go. BlockPart executes the plan and decides nothing else; `kolb check
// --plan` prints it, report.json records it, and the configuration sweep
// checks that its runs reach every value of every decision
// (tests/sweep/test_sweep.cpp). A speed shortcut is a value here.

#include <kolb/core/variant.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace kolb {

// What lies beyond one face of a part.
enum class FaceLink : std::uint8_t {
  none,       // an axis the lattice does not have
  self,       // periodic onto the part itself
  neighbour,  // another part of this process (across the node's split axis)
  remote,     // another MPI rank
  wall,       // the lattice's wall (resting or moving)
  open        // the lattice's inlet or outlet (boundary/open_faces.hpp)
};
KOLB_ENUM_NAMES(FaceLink, "none", "self", "neighbour", "remote", "wall", "open");

// How the population arrays store x rows.
enum class RowStorage : std::uint8_t {
  plain,
  aligned,                // padded to whole cache lines, each row's first site starting one
  aligned_without_x_halo  // the same, and no x halo: the fused rows wrap x themselves
};
KOLB_ENUM_NAMES(RowStorage, "plain", "aligned", "aligned_without_x_halo");

enum class PhaseKernel : std::uint8_t {
  stream_collide,     // fused two-buffer step
  propagate_collide,  // split two-buffer step: Propagate, then Collide in place
  aa_pull,            // in place, odd steps: pull, collide, push (kernels/aa.hpp)
  aa_local            // in place, even steps: collide in place, swapped
};
KOLB_ENUM_NAMES(PhaseKernel, "stream_collide", "propagate_collide", "aa_pull", "aa_local");

// Who fills a halo before the phase's kernel reads it.
enum class HaloFill : std::uint8_t {
  unread,         // the kernel reads no halo there
  neighbour,      // the part across the face (Domain: fill_halo, unpack)
  remote,         // the rank across the face (Domain: MPI)
  periodic_pass,  // a pass copies the images one period away (fill_periodic)
  rows,           // the rows themselves: fused rows wrap x, or the last AA local rows filled it
  wall_ghosts,  // a pass gives the solid halo sites their bounced values (boundary/bounce_back.hpp)
  wall_lanes,   // the fused rows' end lines bounce off the x wall in their lanes
  bounce,       // nobody: the general pull bounces off the solid halo sites
  model_walls,  // the model's wall rows complete the sites next to it (D2Q37)
  open_pass     // a pass writes the inlet's or outlet's incoming values, after the other fills
};
KOLB_ENUM_NAMES(HaloFill, "unread", "neighbour", "remote", "periodic_pass", "rows", "wall_ghosts",
                "wall_lanes", "bounce", "model_walls", "open_pass");

// In place, after a pull: where the populations pushed into a halo go.
enum class PushTo : std::uint8_t {
  none,           // nothing is pushed there (two buffers, local steps, absent axes)
  bounced,        // the general push bounces them back itself
  ghost_return,   // a pass bounces them back from the wall ghosts
  periodic_pass,  // a pass moves them to the images one period away (periodic_push_map)
  local_rows,     // the next local step's rows take them
  neighbour,      // into the neighbour's border (Domain: pack_pushed, unpack_pushed)
  remote,         // the same through MPI
  open_return     // they leave; a pass gives the sites the open faces' values (open_faces.hpp)
};
KOLB_ENUM_NAMES(PushTo, "none", "bounced", "ghost_return", "periodic_pass", "local_rows",
                "neighbour", "remote", "open_return");

// Where the fused rows' first (c_x > 0) or last (c_x < 0) line takes the
// lane that would read the x halo; in place, where the rows' end sites
// take what crosses the x faces.
enum class EndLane : std::uint8_t {
  halo,   // from the halo
  image,  // from the row's other end (the rows wrap x)
  wall,   // bounced off the x wall in the lane
  open    // the open x face's value, in the lane, or in place put by the
          // row where its end site reads it (boundary/open_lanes.hpp)
};
KOLB_ENUM_NAMES(EndLane, "halo", "image", "wall", "open");

// Which halos an AA local step's rows fill for the next pull (and whose
// pushes they take from the pull before).
enum class RowHalos : std::uint8_t { none, x, all };
KOLB_ENUM_NAMES(RowHalos, "none", "x", "all");

struct PhasePlan {
  PhaseKernel kernel = PhaseKernel::stream_collide;
  bool zoned = false;            // inner sites first, those next to late faces after
  bool model_wall_rows = false;  // the model's wall rows stream in its wall kernel (D2Q37)
  std::array<std::array<HaloFill, 2>, 3> fill{};
  std::array<std::array<PushTo, 2>, 3> push{};
  std::array<EndLane, 2> lanes{EndLane::halo, EndLane::halo};  // stream_collide, aa_*
  RowHalos row_halos = RowHalos::none;                         // aa_local

  bool pushes(PushTo p) const;
};

struct StepPlan {
  RowStorage storage = RowStorage::plain;
  int phases = 1;  // two buffers: 1; in place: 2 (pull, local)
  std::array<PhasePlan, 2> phase{};
};

// What the plan is made from: the part's faces, the variant's host rows and
// the part's materials.
struct PlanInputs {
  int dim = 2;
  Streaming streaming = Streaming::two_buffer;
  KernelPath kernel = KernelPath::fused;
  bool host = true;         // the part runs on a host execution space
  bool bounce_back = true;  // the model's walls are half-way bounce-back (no wall rows)
  std::array<bool, 2> model_walls{false, false};  // the part holds the model's y-/y+ wall rows
  std::array<std::array<FaceLink, 2>, 3> faces{};
  std::array<std::array<bool, 2>, 3> late{};  // faces whose halos arrive during the update
  int first_axis = 0;                         // the axis whose halos are filled first
  int nx = 1;                                 // interior sites along x
  // The variant's host rows (StreamCollide): lines of `line_sites` through
  // pointers, and whether the part's padded rows would go by them (beyond
  // the cache; with and without the x halo).
  bool lines_by_pointers = false;
  int line_sites = 1;
  bool pads = false;
  bool lines_without_x_halo = false;
  bool row_per_item = true;  // a host launch over the interior takes whole rows
  // The part's materials.
  bool all_fluid = false;         // every site, halos included, is fluid
  bool fluid_rows_whole = false;  // every interior row is fluid end to end
  bool bulk_rows_whole = false;   // every interior row is one bulk run (wall ghosts as fluid)
  std::array<bool, 2> x_wall_lanes_fit{false, false};  // end lines may bounce off x walls
  std::array<bool, 2> x_open_lanes_fit{false, false};  // rows may take open x faces' values
};

// The plan of a part.
StepPlan make_step_plan(const PlanInputs& in);

// The plan in a few lines ("storage plain; step: stream_collide, halos x-
// periodic_pass ..."), each phase on its own line, `indent` before each.
std::string describe(const StepPlan& plan, const std::string& indent = "");

}  // namespace kolb
