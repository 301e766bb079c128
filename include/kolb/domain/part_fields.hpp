#pragma once
// PartFields: what a part's state looks like from outside: its observables,
// its physical fields and its populations as the two-buffer scheme holds
// them between steps (post-collision, each in its own slot), whatever the
// scheme holds; and the state set from fields or populations. Between AA
// step pairs the populations are post-collision with opposites swapped, and
// the observables and moments read them in place; after a pull step they
// are streamed, and a reconstructed copy is kept until the state changes.

#include <kolb/boundary/body_forces.hpp>
#include <kolb/boundary/moving_wall.hpp>
#include <kolb/domain/spaces.hpp>
#include <kolb/io/fields.hpp>
#include <kolb/kernels/aa.hpp>
#include <kolb/kernels/initialize.hpp>
#include <kolb/kernels/moments.hpp>
#include <kolb/kernels/observables.hpp>

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace kolb {

// How a part's buffer holds its state between steps.
enum class Held { stored, swapped, streamed };  // two buffers; in place: before a pull, after it

// Where a block in state `h` holds the post-collision populations.
inline PostState post_state(Held h) {
  return h == Held::stored    ? PostState::stored
         : h == Held::swapped ? PostState::swapped
                              : PostState::pushed;
}

template <class Model, class Layout, class Exec>
class PartFields {
 public:
  using Lattice = typename Model::lattice_type;
  using S = typename Model::scalar_type;
  using P = Storage<S>;
  using memory_space = typename Exec::memory_space;
  using block_type = Block<Lattice, S, Layout, memory_space>;
  using view = Kokkos::View<stored_t<S>*, memory_space>;
  static constexpr int Q = Lattice::q;

  PartFields(const Exec& exec, const Model& model, const WallTerms<Lattice, real_t<S>>& wall,
             std::array<int, 3> origin, std::array<int, 3> in_tile)
      : m_exec(exec), m_model(model), m_wall(wall), m_origin(origin), m_in_tile(in_tile) {}

  // The state changed: a reconstructed copy is stale.
  void changed() { m_fresh = false; }

  ObservableSums observe(const block_type& block, Held held, const RowSample& rows) {
    const auto [b, swapped] = readable(block, held);
    const Extents& e = b.extents();
    const RowSample local = rows.shifted(m_origin[1] - e.halo[1] + m_origin[2] - e.halo[2]);
    return reduce_sites(
        "kolb::Observables", m_exec, interior_region(e),
        Observables<Model, Layout, memory_space>{b.current(), b.material(), b.layout(),
                                                 b.site_index(), m_model, swapped, local});
  }

  // Adds the force on each body over `links` to `sum` (one per body), from
  // the block as it is after any step (no copy: cheap every step).
  void add_body_forces(const block_type& block, Held held, const BodyLinks<memory_space>& links,
                       std::vector<std::array<double, 3>>& sum) {
    if (links.first.back() == 0) return;
    const BodyForceSum<Lattice, S, Layout, memory_space> f(block.current(), block.layout(), links,
                                                           post_state(held));
    for (std::size_t k = 0; k < std::size_t(links.bodies()); ++k) {
      const BodyForce force =
          reduce_range("kolb::BodyForce", m_exec, links.first[k], links.first[k + 1], f);
      for (int a = 0; a < 3; ++a) sum[k][std::size_t(a)] += force.f[a];
    }
  }

  void gather_fields(const block_type& block, Held held, HostFields& out) {
    const auto [b, swapped] = readable(block, held);
    const Extents& e = b.extents();
    using arrays = MomentArrays<memory_space>;
    if constexpr (std::is_same<memory_space, Kokkos::HostSpace>::value) {
      // Host parts write straight into the tile's arrays (views of them, the
      // index shifted to this part's place): no staging arrays.
      InteriorIndex at(e);
      at.hx -= m_in_tile[0], at.hy -= m_in_tile[1], at.hz -= m_in_tile[2];
      at.nx = out.n[0], at.ny = out.n[1];
      const std::size_t n = out.size();
      compute_moments(
          m_exec, b, m_model, at, swapped,
          arrays{decltype(arrays::rho)(out.rho.data(), n), decltype(arrays::u)(out.u.data(), n),
                 decltype(arrays::T)(out.temperature.data(), out.temperature.size()),
                 decltype(arrays::material)(out.material.data(), n)});
      m_exec.fence();
    } else {
      // Device parts: compact arrays in the part's memory, copied to the
      // host and placed in the tile there (every entry is written).
      const index_t n = e.num_interior();
      const auto no_fill = [](const char* label) {
        return Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing);
      };
      const arrays moments{decltype(arrays::rho)(no_fill("kolb::rho"), n),
                           decltype(arrays::u)(no_fill("kolb::u"), n),
                           decltype(arrays::T)(no_fill("kolb::T"), Model::has_temperature ? n : 0),
                           decltype(arrays::material)(no_fill("kolb::material"), n)};
      compute_moments(m_exec, b, m_model, InteriorIndex(e), swapped, moments);
      m_exec.fence();
      auto rho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), moments.rho);
      auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), moments.u);
      auto T = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), moments.T);
      auto mat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), moments.material);
      for_each_interior(e, [&](index_t k, int x, int y, int z) {
        const std::size_t g = tile_index(out.n, x, y, z);
        out.rho[g] = rho(k);
        for (int a = 0; a < 3; ++a) out.u[3 * g + a] = u(k, a);
        if (Model::has_temperature) out.temperature[g] = T(k);
        out.material[g] = mat(k);
      });
    }
  }

  void gather_populations(const block_type& block, Held held, std::vector<double>& out,
                          const std::array<int, 3>& tile) {
    const block_type b = post_collision(block, held);
    auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.current());
    for_each_interior(b.extents(), [&](index_t, int x, int y, int z) {
      const std::size_t g = tile_index(tile, x, y, z);
      for (int i = 0; i < Q; ++i)
        out[g * Q + i] = P::template exact<Lattice>(f(b.layout()(b.extents().site(x, y, z), i)), i);
    });
  }

  // The state from populations as gather_populations gives them (`held`:
  // swapped for a part in place, else stored).
  void set_populations(const block_type& block, Held held, const std::vector<double>& in,
                       const std::array<int, 3>& tile) {
    m_fresh = false;
    m_exec.fence();
    auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block.current());
    const Extents& e = block.extents();
    for_each_interior(e, [&](index_t, int x, int y, int z) {
      const std::size_t g = tile_index(tile, x, y, z);
      for (int i = 0; i < Q; ++i)
        f(block.layout()(e.site(x, y, z), i)) = P::template from_exact<Lattice>(in[g * Q + i], i);
    });
    Kokkos::deep_copy(block.current(), f);
    if (held == Held::swapped) swap_opposites(block, block.current());
    m_exec.fence();
  }

  // The equilibrium of the tile's fields `in`.
  void set_fields(const block_type& block, Held held, const HostFields& in) {
    m_fresh = false;
    const Extents& e = block.extents();
    const index_t n = e.num_interior();
    Kokkos::View<double*, Kokkos::HostSpace> rho_h("kolb::rho0", n), T_h("kolb::T0", n);
    Kokkos::View<double* [3], Kokkos::LayoutRight, Kokkos::HostSpace> u_h("kolb::u0", n);
    for_each_interior(e, [&](index_t k, int x, int y, int z) {
      const std::size_t g = tile_index(in.n, x, y, z);
      rho_h(k) = in.rho[g];
      for (int a = 0; a < 3; ++a) u_h(k, a) = in.u[3 * g + a];
      T_h(k) = in.temperature.empty() ? 1.0 : in.temperature[g];
    });
    auto rho = Kokkos::create_mirror_view_and_copy(memory_space(), rho_h);
    auto u = Kokkos::create_mirror_view_and_copy(memory_space(), u_h);
    auto T = Kokkos::create_mirror_view_and_copy(memory_space(), T_h);
    for (const view& f : {block.current(), block.next()})
      for_each_site("kolb::InitializeEquilibrium", m_exec, interior_region(e),
                    InitializeEquilibrium<Model, Layout, memory_space>{
                        f, block.material(), rho, u, T, block.layout(), block.site_index(),
                        InteriorIndex(e), m_model});
    if (held == Held::swapped) swap_opposites(block, block.current());
    m_exec.fence();
  }

 private:
  // What the reductions read: the block in place where it holds the AA
  // state between step pairs (`swapped`: population i in slot opposite(i))
  // and no copy is kept, else post_collision's.
  std::pair<block_type, bool> readable(const block_type& block, Held held) {
    const bool swapped = held == Held::swapped && !m_fresh;
    return {swapped ? block : post_collision(block, held), swapped};
  }

  // The block as the two-buffer scheme holds it between steps; a copy
  // (kept while the state does not change) for states in place.
  block_type post_collision(const block_type& block, Held held) {
    if (held == Held::stored) return block;
    if (m_fresh) return block.with_current(m_scratch);
    const Extents& e = block.extents();
    if (m_scratch.size() != block.current().size())
      m_scratch = view("kolb::post_collision", block.current().size());
    if (held == Held::streamed) {  // reads what the pull pushed into halos there
      for_each_site(
          "kolb::AAUnstream", m_exec, interior_region(e),
          AAUnstream<Lattice, S, Layout, memory_space>{block.current(), m_scratch, block.material(),
                                                       block.layout(), m_wall, block.site_index()});
    } else {
      Kokkos::deep_copy(m_exec, m_scratch, block.current());
      swap_opposites(block, m_scratch);
    }
    m_fresh = true;
    return block.with_current(m_scratch);
  }

  void swap_opposites(const block_type& block, const view& f) {
    for_each_site("kolb::SwapOpposites", m_exec, interior_region(block.extents()),
                  SwapOpposites<Lattice, stored_t<S>, Layout, memory_space>{f, block.layout(),
                                                                            block.site_index()});
  }

  // f(k, x, y, z) for every interior site (interior coordinates) in compact
  // order k = x + nx (y + ny z).
  template <class F>
  static void for_each_interior(const Extents& e, F&& f) {
    index_t k = 0;
    for (int z = 0; z < e.n[2]; ++z)
      for (int y = 0; y < e.n[1]; ++y)
        for (int x = 0; x < e.n[0]; ++x, ++k) f(k, x, y, z);
  }
  // Index of interior site (x, y, z) of this part in its tile's arrays.
  std::size_t tile_index(const std::array<int, 3>& n, int x, int y, int z) const {
    const std::size_t tx = m_in_tile[0] + x, ty = m_in_tile[1] + y, tz = m_in_tile[2] + z;
    return tx + std::size_t(n[0]) * (ty + std::size_t(n[1]) * tz);
  }

  Exec m_exec;
  Model m_model;
  WallTerms<Lattice, real_t<S>> m_wall;
  std::array<int, 3> m_origin, m_in_tile;
  view m_scratch;        // the reconstructed post-collision state
  bool m_fresh = false;  // m_scratch matches the block
};

}  // namespace kolb
