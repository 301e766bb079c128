// make_step_plan and describe (domain/step_plan.hpp): every decision a part
// takes about its step, in one place.

#include <kolb/domain/step_plan.hpp>
#include <kolb/io/face_names.hpp>

namespace kolb {

bool PhasePlan::pushes(PushTo p) const {
  for (const auto& axis : push)
    for (const PushTo h : axis)
      if (h == p) return true;
  return false;
}

namespace {

bool any_late(const PlanInputs& in) {
  for (const auto& axis : in.late)
    if (axis[0] || axis[1]) return true;
  return false;
}

// Whether a face of the part is an inlet or outlet: the open pass writes
// the links into the part across its edges, which rows wrapping x would
// read one period away instead.
bool any_open(const PlanInputs& in) {
  for (const auto& axis : in.faces)
    if (axis[0] == FaceLink::open || axis[1] == FaceLink::open) return true;
  return false;
}

// Whether the part is periodic onto itself along every axis it has.
bool self_everywhere(const PlanInputs& in) {
  for (int a = 0; a < in.dim; ++a)
    if (in.faces[a][0] != FaceLink::self) return false;
  return true;
}

// Host SoA and CSoA parts of fused two-buffer runs whose rows go by lines
// beyond the cache start each row's first interior site on a cache line
// (padded rows): the line rows then store every line whole. Where those
// rows can wrap x themselves (3-D, periodic onto itself along every axis,
// all fluid, n_x whole lines) no x-halo value is read, and rows are stored
// without it: a line fewer per row.
RowStorage storage(const PlanInputs& in) {
  if (!in.host || !in.pads || in.kernel != KernelPath::fused) return RowStorage::plain;
  const bool wraps = in.dim == 3 && in.lines_by_pointers && in.bounce_back &&
                     in.nx % in.line_sites == 0 && self_everywhere(in) && in.all_fluid &&
                     in.lines_without_x_halo;
  return wraps ? RowStorage::aligned_without_x_halo : RowStorage::aligned;
}

// Who fills a wall's halo: the model's wall rows (D2Q37), the end lines'
// lanes (x faces), a ghost pass (host parts of bounce-back models), or the
// general pull at the sites next to it.
HaloFill wall_fill(const PlanInputs& in, int axis, int side, EndLane lane) {
  if (!in.bounce_back)
    return in.model_walls[side] && axis == 1 ? HaloFill::model_walls : HaloFill::bounce;
  if (!in.host) return HaloFill::bounce;
  return lane == EndLane::wall ? HaloFill::wall_lanes : HaloFill::wall_ghosts;
}

HaloFill link_fill(FaceLink link) {
  return link == FaceLink::neighbour ? HaloFill::neighbour
         : link == FaceLink::remote  ? HaloFill::remote
                                     : HaloFill::periodic_pass;
}

// The two-buffer step.
PhasePlan two_buffer(const PlanInputs& in, RowStorage rows) {
  PhasePlan p;
  p.kernel =
      in.kernel == KernelPath::fused ? PhaseKernel::stream_collide : PhaseKernel::propagate_collide;
  p.zoned = any_late(in);
  p.model_wall_rows = in.model_walls[0] || in.model_walls[1];
  // Fused rows by aligned lines through pointers with no face filled during
  // the update take the x halo's lanes in their end lines: the images one
  // period away where they wrap x (every row one bulk run, n_x whole lines),
  // or the bounce off an x wall where its rows allow (x_wall_lanes_fit),
  // or an open x face's value (x_open_lanes_fit).
  const bool end_lines = p.kernel == PhaseKernel::stream_collide && in.lines_by_pointers &&
                         in.bounce_back && rows != RowStorage::plain && !p.zoned;
  const bool wraps = end_lines && in.faces[0][0] == FaceLink::self && in.bulk_rows_whole &&
                     in.nx % in.line_sites == 0 && !any_open(in);
  for (int side = 0; side < 2; ++side) {
    const bool whole = end_lines && (side == 0 || in.nx % in.line_sites == 0);
    const bool wall = whole && in.faces[0][side] == FaceLink::wall && in.x_wall_lanes_fit[side];
    const bool open = whole && in.faces[0][side] == FaceLink::open && in.x_open_lanes_fit[side];
    p.lanes[side] = wraps  ? EndLane::image
                    : wall ? EndLane::wall
                    : open ? EndLane::open
                           : EndLane::halo;
  }
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      const FaceLink link = in.faces[a][side];
      HaloFill& f = p.fill[a][side];
      if (link == FaceLink::none)
        f = HaloFill::unread;
      else if (link == FaceLink::open)
        f = HaloFill::open_pass;
      else if (link == FaceLink::wall)
        f = wall_fill(in, a, side, a == 0 ? p.lanes[side] : EndLane::halo);
      else
        f = a == 0 && wraps ? HaloFill::rows : link_fill(link);
      p.push[a][side] = PushTo::none;
    }
  return p;
}

// The AA local step's rows: in host parts periodic onto themselves along
// x, with no face filled during the update, every row fluid and whole in
// one work item, each row fills its x halos for the next pull at its end
// and takes what the pull before pushed into them at its start; where the
// part is periodic onto itself along every axis, the rows next to the y
// and z faces do the same for the halo rows whose images they are.
RowHalos row_halos(const PlanInputs& in) {
  if (!in.host || in.faces[0][0] != FaceLink::self || !in.fluid_rows_whole || in.first_axis != 0 ||
      !in.row_per_item || any_late(in))
    return RowHalos::none;
  return self_everywhere(in) ? RowHalos::all : RowHalos::x;
}

// In place: the pull step, then the local step.
void in_place(const PlanInputs& in, StepPlan& plan) {
  const RowHalos rows = row_halos(in);
  const auto by_rows = [&](int axis) {
    return rows == RowHalos::all || (rows == RowHalos::x && axis == 0);
  };
  PhasePlan& pull = plan.phase[0];
  PhasePlan& local = plan.phase[1];
  pull.kernel = PhaseKernel::aa_pull;
  local.kernel = PhaseKernel::aa_local;
  pull.zoned = local.zoned = any_late(in);
  local.row_halos = rows;
  // Host rows with no face filled during the update take an open x face
  // at their ends where its sites allow (x_open_lanes_fit): the pull's rows
  // write its values into the halo slots their end sites pull, the local
  // step's into those sites' own slots.
  for (int side = 0; side < 2; ++side)
    pull.lanes[side] = local.lanes[side] = in.host && in.bounce_back && !pull.zoned &&
                                                   in.faces[0][side] == FaceLink::open &&
                                                   in.x_open_lanes_fit[side]
                                               ? EndLane::open
                                               : EndLane::halo;
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      const FaceLink link = in.faces[a][side];
      local.fill[a][side] = HaloFill::unread;
      local.push[a][side] = PushTo::none;
      HaloFill& f = pull.fill[a][side];
      PushTo& p = pull.push[a][side];
      if (link == FaceLink::open) {
        f = HaloFill::open_pass, p = PushTo::open_return;
      } else if (link == FaceLink::none) {
        f = HaloFill::unread, p = PushTo::none;
      } else if (link == FaceLink::wall) {
        f = wall_fill(in, a, side, EndLane::halo);
        p = f == HaloFill::wall_ghosts ? PushTo::ghost_return : PushTo::bounced;
      } else if (link == FaceLink::self) {
        f = by_rows(a) ? HaloFill::rows : HaloFill::periodic_pass;
        p = by_rows(a) ? PushTo::local_rows : PushTo::periodic_pass;
      } else {
        f = link_fill(link);
        p = link == FaceLink::neighbour ? PushTo::neighbour : PushTo::remote;
      }
    }
}

}  // namespace

StepPlan make_step_plan(const PlanInputs& in) {
  StepPlan plan;
  if (in.streaming == Streaming::aa) {
    plan.phases = 2;
    in_place(in, plan);
  } else {
    plan.storage = storage(in);
    plan.phase[0] = two_buffer(in, plan.storage);
  }
  return plan;
}

std::string describe(const StepPlan& plan, const std::string& indent) {
  std::string s = indent + "rows stored " + to_string(plan.storage) + "\n";
  for (int k = 0; k < plan.phases; ++k) {
    const PhasePlan& p = plan.phase[k];
    s += indent +
         (plan.phases == 1 ? "step"
          : k == 0         ? "pull step"
                           : "local step") +
         ": " + to_string(p.kernel) + (p.zoned ? " (inner sites, then those by late faces)" : "") +
         (p.model_wall_rows ? " + the model's wall rows" : "");
    if (p.kernel == PhaseKernel::stream_collide || p.lanes[0] != EndLane::halo ||
        p.lanes[1] != EndLane::halo)
      s += "; end lanes " + to_string(p.lanes[0]) + "/" + to_string(p.lanes[1]);
    if (p.kernel == PhaseKernel::aa_local) s += "; row halos " + to_string(p.row_halos);
    s += "\n" + indent + "  halos:";
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side)
        if (p.fill[a][side] != HaloFill::unread)
          s += std::string(" ") + face_name(2 * a + side) + " " + to_string(p.fill[a][side]);
    if (p.fill == decltype(p.fill){}) s += " none read";
    if (p.kernel == PhaseKernel::aa_pull) {
      s += "\n" + indent + "  pushed:";
      for (int a = 0; a < 3; ++a)
        for (int side = 0; side < 2; ++side)
          if (p.push[a][side] != PushTo::none)
            s += std::string(" ") + face_name(2 * a + side) + " " + to_string(p.push[a][side]);
    }
    s += "\n";
  }
  return s;
}

}  // namespace kolb
