// The step plan (domain/step_plan.hpp) as a pure function: over every
// combination of the faces a part can have and the facts its plan reads,
// the plan is consistent (each halo filled by someone who can, each push
// taken, the shortcuts only where their conditions hold), and the values
// that name the shortcuts come out where they should.
#include <kolb/domain/step_plan.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace kolb;

const FaceLink kLinks[] = {FaceLink::self, FaceLink::neighbour, FaceLink::remote, FaceLink::wall};

// Every plan input from the bits of `k` (faces from `faces`, an index into
// 4^(2 dim) combinations with pairs periodic together).
PlanInputs inputs(int dim, unsigned faces, unsigned k) {
  PlanInputs in;
  in.dim = dim;
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      if (a >= dim) {
        in.faces[a][side] = FaceLink::none;
        continue;
      }
      FaceLink l = kLinks[(faces >> (4 * a + 2 * side)) & 3];
      if (side == 1 && (in.faces[a][0] == FaceLink::self) != (l == FaceLink::self))
        l = in.faces[a][0] == FaceLink::self ? FaceLink::self : FaceLink::wall;
      in.faces[a][side] = l;
      in.late[a][side] = l == FaceLink::remote || (l == FaceLink::neighbour && (k & 1));
    }
  in.streaming = k & 2 ? Streaming::aa : Streaming::two_buffer;
  in.kernel = k & 4 ? KernelPath::split : KernelPath::fused;
  in.host = !(k & 8);
  in.bounce_back = !(k & 16) || dim != 2;
  if (!in.bounce_back) {
    in.streaming = Streaming::two_buffer;
    for (int side = 0; side < 2; ++side) in.model_walls[side] = in.faces[1][side] == FaceLink::wall;
  }
  in.lines_by_pointers = k & 32;
  in.line_sites = 8;
  in.nx = k & 64 ? 16 : 13;
  in.pads = k & 128;
  in.lines_without_x_halo = k & 256;
  in.row_per_item = !(k & 512);
  in.all_fluid = k & 1024;
  in.fluid_rows_whole = in.all_fluid || (k & 2048);
  in.bulk_rows_whole = in.all_fluid || (k & 4096);
  in.x_wall_lanes_fit = {bool(k & 8192), bool(k & 16384)};
  return in;
}

bool self_everywhere(const PlanInputs& in) {
  for (int a = 0; a < in.dim; ++a)
    if (in.faces[a][0] != FaceLink::self) return false;
  return true;
}

void expect_consistent(const PlanInputs& in, const StepPlan& plan, const std::string& what) {
  bool late = false;
  for (const auto& a : in.late) late = late || a[0] || a[1];
  ASSERT_EQ(plan.phases, in.streaming == Streaming::aa ? 2 : 1) << what;
  if (plan.storage != RowStorage::plain) {
    EXPECT_TRUE(in.host && in.pads && plan.phases == 1) << what;
  }
  if (plan.storage == RowStorage::aligned_without_x_halo) {
    EXPECT_TRUE(in.all_fluid && self_everywhere(in) && in.dim == 3) << what;
    // no x halo is stored: the rows must wrap x themselves
    EXPECT_EQ(plan.phase[0].lanes[0], EndLane::image) << what;
    EXPECT_EQ(plan.phase[0].lanes[1], EndLane::image) << what;
  }
  for (int k = 0; k < plan.phases; ++k) {
    const PhasePlan& p = plan.phase[k];
    EXPECT_EQ(p.zoned, late) << what;
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side) {
        const HaloFill f = p.fill[a][side];
        const PushTo q = p.push[a][side];
        const FaceLink l = in.faces[a][side];
        const std::string at = what + " phase " + std::to_string(k) + " axis " + std::to_string(a) +
                               " side " + std::to_string(side);
        if (p.kernel == PhaseKernel::aa_local || l == FaceLink::none) {
          EXPECT_EQ(f, HaloFill::unread) << at;
          EXPECT_EQ(q, PushTo::none) << at;
          continue;
        }
        switch (l) {
          case FaceLink::self:
            EXPECT_TRUE(f == HaloFill::periodic_pass || f == HaloFill::rows) << at;
            break;
          case FaceLink::neighbour: EXPECT_EQ(f, HaloFill::neighbour) << at; break;
          case FaceLink::remote: EXPECT_EQ(f, HaloFill::remote) << at; break;
          case FaceLink::open: EXPECT_EQ(f, HaloFill::open_pass) << at; break;
          default:
            EXPECT_TRUE(f == HaloFill::wall_ghosts || f == HaloFill::wall_lanes ||
                        f == HaloFill::bounce || f == HaloFill::model_walls)
                << at;
        }
        if (f == HaloFill::wall_ghosts || f == HaloFill::wall_lanes) {
          EXPECT_TRUE(in.host && in.bounce_back) << at;
        }
        if (f == HaloFill::model_walls) {
          EXPECT_TRUE(!in.bounce_back && a == 1) << at;
        }
        if (f == HaloFill::wall_lanes) {
          EXPECT_TRUE(a == 0 && p.lanes[side] == EndLane::wall) << at;
        }
        if (p.kernel != PhaseKernel::aa_pull) {
          EXPECT_EQ(q, PushTo::none) << at;
          if (f == HaloFill::rows) {
            EXPECT_TRUE(a == 0 && p.lanes[0] == EndLane::image && p.lanes[1] == EndLane::image)
                << at;
          }
          continue;
        }
        // In place: what fills a halo takes what is pushed into it.
        const PhasePlan& local = plan.phase[1];
        const bool by_rows =
            local.row_halos == RowHalos::all || (local.row_halos == RowHalos::x && a == 0);
        EXPECT_EQ(f == HaloFill::rows, by_rows && l == FaceLink::self) << at;
        EXPECT_EQ(q == PushTo::local_rows, f == HaloFill::rows) << at;
        const PushTo taken = f == HaloFill::periodic_pass ? PushTo::periodic_pass
                             : f == HaloFill::wall_ghosts ? PushTo::ghost_return
                             : f == HaloFill::bounce      ? PushTo::bounced
                             : f == HaloFill::neighbour   ? PushTo::neighbour
                             : f == HaloFill::remote      ? PushTo::remote
                             : f == HaloFill::open_pass   ? PushTo::open_return
                                                          : PushTo::local_rows;
        EXPECT_EQ(q, taken) << at;
      }
    if (p.kernel == PhaseKernel::aa_local && p.row_halos != RowHalos::none) {
      EXPECT_TRUE(in.host && !late && in.fluid_rows_whole && in.row_per_item &&
                  in.faces[0][0] == FaceLink::self)
          << what;
      EXPECT_EQ(p.row_halos == RowHalos::all, self_everywhere(in)) << what;
    }
    if (p.lanes[0] != EndLane::halo || p.lanes[1] != EndLane::halo) {
      if (plan.phases == 1) {
        EXPECT_TRUE(p.kernel == PhaseKernel::stream_collide && plan.storage != RowStorage::plain &&
                    !late && in.lines_by_pointers)
            << what;
      } else {  // in place: the host rows take open x faces, in both steps alike
        EXPECT_TRUE(in.host && !late) << what;
        EXPECT_EQ(p.lanes, plan.phase[0].lanes) << what;
        for (int side = 0; side < 2; ++side)
          EXPECT_TRUE(p.lanes[side] == EndLane::halo ||
                      (p.lanes[side] == EndLane::open && in.faces[0][side] == FaceLink::open &&
                       in.x_open_lanes_fit[side]))
              << what;
      }
    }
  }
}

TEST(StepPlan, EveryCombinationIsConsistent) {
  int plans = 0;
  for (const int dim : {2, 3})
    for (unsigned faces = 0; faces < (1u << (4 * dim)); faces += dim == 3 ? 7 : 1)
      for (unsigned k = 0; k < (1u << 15); k += 97) {
        const PlanInputs in = inputs(dim, faces, k);
        const StepPlan plan = make_step_plan(in);
        expect_consistent(in, plan,
                          std::to_string(dim) + "-D faces " + std::to_string(faces) + " inputs " +
                              std::to_string(k));
        ++plans;
        if (::testing::Test::HasFailure()) return;
      }
  EXPECT_GT(plans, 10000);
}

// Open faces (inlets, outlets) where walls were: the open pass fills their
// halos, every other face keeps its plan but for the fused rows wrapping x
// (the open pass writes the links across the edges, which wrapping rows
// would read one period away), and the fused rows' end lines take an open x
// face's values where they would bounce off an x wall (EndLane::open; the
// pass keeps the other sites). In place, what the pull pushes into them
// leaves, and a pass gives the sites their values, or the host rows where
// the sites fit (EndLane::open in both steps).
TEST(StepPlan, OpenFacesTakeTheOpenPass) {
  int plans = 0, open_lanes = 0;
  for (const int dim : {2, 3})
    for (unsigned faces = 0; faces < (1u << (4 * dim)); faces += dim == 3 ? 7 : 1)
      for (unsigned k = 0; k < (1u << 15); k += 193) {
        PlanInputs in = inputs(dim, faces, k);
        if (!in.bounce_back) continue;
        int axis = -1;
        for (int a = 0; a < dim && axis < 0; ++a)
          if (in.faces[a][0] == FaceLink::wall && in.faces[a][1] == FaceLink::wall) axis = a;
        if (axis < 0) continue;
        in.faces[axis] = {FaceLink::open, FaceLink::open};
        // The open lanes fit where the wall lanes would have.
        in.x_open_lanes_fit = in.x_wall_lanes_fit;
        in.x_wall_lanes_fit = {false, false};  // no x walls' ghosts where x is open
        PlanInputs walled = in;
        walled.faces[axis] = {FaceLink::wall, FaceLink::wall};
        if (axis == 0) walled.x_wall_lanes_fit = in.x_open_lanes_fit;
        walled.x_open_lanes_fit = {false, false};
        const StepPlan plan = make_step_plan(in);
        const std::string what = std::to_string(dim) + "-D faces " + std::to_string(faces) +
                                 " inputs " + std::to_string(k);
        expect_consistent(in, plan, what + " open along " + std::to_string(axis));
        const PhasePlan p = plan.phase[0], w = make_step_plan(walled).phase[0];
        for (int a = 0; a < 3; ++a)
          for (int side = 0; side < 2; ++side) {
            const bool wrapped = w.fill[a][side] == HaloFill::rows && plan.phases == 1;
            const HaloFill want = a == axis ? HaloFill::open_pass
                                  : wrapped ? HaloFill::periodic_pass
                                            : w.fill[a][side];
            EXPECT_EQ(p.fill[a][side], want) << what;
            if (plan.phases == 2 && a == axis) {
              EXPECT_EQ(p.push[a][side], PushTo::open_return) << what;
            }
          }
        EXPECT_TRUE(p.lanes[0] != EndLane::image && p.lanes[1] != EndLane::image);
        // Along x the fused rows' end lines take the open faces' values
        // where they would bounce off x walls; in place the host rows take
        // them where the sites fit and no face is late.
        bool late = false;
        for (const auto& a : in.late) late = late || a[0] || a[1];
        for (int side = 0; side < 2; ++side) {
          const bool lane =
              axis == 0 && (plan.phases == 1 ? w.lanes[side] == EndLane::wall
                                             : in.host && !late && in.x_open_lanes_fit[side]);
          EXPECT_EQ(p.lanes[side], lane ? EndLane::open : EndLane::halo) << what;
          open_lanes += lane;
        }
        ++plans;
      }
  EXPECT_GT(plans, 1000);
  EXPECT_GT(open_lanes, 10);
}

PlanInputs periodic_box(int dim) {
  PlanInputs in;
  in.dim = dim;
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side)
      in.faces[a][side] = a < dim ? FaceLink::self : FaceLink::none;
  in.lines_by_pointers = true;
  in.line_sites = 8;
  in.nx = 16;
  in.pads = in.lines_without_x_halo = true;
  in.all_fluid = in.fluid_rows_whole = in.bulk_rows_whole = true;
  return in;
}

TEST(StepPlan, PeriodicBoxesTakeTheirShortcuts) {
  // Fused rows beyond the cache: no x halo stored, the rows wrap x.
  const StepPlan fused = make_step_plan(periodic_box(3));
  EXPECT_EQ(fused.storage, RowStorage::aligned_without_x_halo);
  EXPECT_EQ(fused.phase[0].fill[0][0], HaloFill::rows);
  EXPECT_EQ(fused.phase[0].fill[1][1], HaloFill::periodic_pass);
  // In place: the local rows fill and take every halo (the case of issue
  // 66's bug: AA, fully periodic, no force).
  PlanInputs aa = periodic_box(3);
  aa.streaming = Streaming::aa;
  const StepPlan in_place = make_step_plan(aa);
  EXPECT_EQ(in_place.storage, RowStorage::plain);
  EXPECT_EQ(in_place.phase[1].row_halos, RowHalos::all);
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(in_place.phase[0].fill[a][0], HaloFill::rows);
    EXPECT_EQ(in_place.phase[0].push[a][1], PushTo::local_rows);
  }
  // A wall on y: only the x halos go through the rows.
  aa.faces[1] = {FaceLink::wall, FaceLink::wall};
  const StepPlan walled = make_step_plan(aa);
  EXPECT_EQ(walled.phase[1].row_halos, RowHalos::x);
  EXPECT_EQ(walled.phase[0].fill[1][0], HaloFill::wall_ghosts);
  EXPECT_EQ(walled.phase[0].push[1][0], PushTo::ghost_return);
  EXPECT_EQ(walled.phase[0].push[2][0], PushTo::periodic_pass);
  // Rows split over work items: no shortcut.
  aa.row_per_item = false;
  EXPECT_EQ(make_step_plan(aa).phase[1].row_halos, RowHalos::none);
}

TEST(StepPlan, DescribeNamesEveryPhase) {
  PlanInputs aa = periodic_box(2);
  aa.streaming = Streaming::aa;
  const std::string text = describe(make_step_plan(aa), "  ");
  EXPECT_NE(text.find("  pull step: aa_pull"), std::string::npos) << text;
  EXPECT_NE(text.find("  local step: aa_local; row halos all"), std::string::npos) << text;
  EXPECT_NE(text.find("x- rows"), std::string::npos) << text;
  EXPECT_NE(text.find("y+ local_rows"), std::string::npos) << text;
}

}  // namespace
