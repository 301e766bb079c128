#pragma once
// Checkpoints: a run's state (the populations, in the case's precision, in
// the layout-free order of Domain::populations()) at one time step, so that
// `kolb run CASE --restart DIR` continues bit for bit, also with another
// layout, host/accelerator split or number of MPI ranks.
//
// <output>/checkpoints/step_<step>/ holds one piece per rank (rank_<r>.bin,
// its tile's populations, and rank_<r>.json: the tile and an FNV-1a
// checksum) and manifest.json (kolb version, step, the case's fingerprint:
// its dynamics sections and digests of what it reads from files, the
// lattice). A checkpoint is written into a .tmp folder and renamed when
// complete, so an interrupted write never replaces a good one.

#include <kolb/io/case.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kolb {

class Domain;

// Digests of what a case reads from files beyond its YAML, by the YAML key
// naming the file (`obstacles[0].file`, `boundaries.x-.file`): an STL
// mesh's placed triangles, a mask image as decoded, an inlet profile
// table's velocities at every half site across its face. A checkpoint keeps
// them and a restart whose files give other data is refused; an edit the
// run does not read (a comment, an STL solid's name) passes.
using InputDigests = std::vector<std::pair<std::string, std::string>>;

// The digests of `c`'s files as they are now. A run takes them when it
// reads its files (before building its domain), so that a file edited
// while it runs is not taken for the one it read.
InputDigests input_digests(const Case& c);

// Writes the domain's state at its current step (every rank together) with
// the digests of the files the run read; keeps the newest
// `c.output.checkpoints_kept` checkpoints. Returns the folder. Only at
// steps where checkpoint_step_exact() holds.
std::string write_checkpoint(const Case& c, Domain& domain, const InputDigests& inputs);

// Whether the state at `step` is saved exactly: always, except with AA
// streaming after an odd step, where the buffer holds streamed populations
// whose post-collision values are rebuilt, inexactly at moving walls.
bool checkpoint_step_exact(const Case& c, std::int64_t step);

// The newest complete checkpoint under `path`: a checkpoint folder, a
// run's output folder or its checkpoints/ folder. ConfigError when none.
std::string find_checkpoint(const std::string& path);

// Removes the checkpoints of c.output.folder after `step` (rank 0): a run
// restarted from an earlier one makes them stale.
void drop_checkpoints_after(const Case& c, std::int64_t step);

// Loads a checkpoint folder into the domain (every rank together) and sets
// its step. ConfigError when it is corrupt, unreadable or was written for
// another case (the lattice, domain, physics, boundaries or obstacles
// differ, or the data `inputs`, the run's files, give).
std::int64_t read_checkpoint(const std::string& folder, const Case& c, Domain& domain,
                             const InputDigests& inputs);

}  // namespace kolb
