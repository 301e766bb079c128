#pragma once
// Host transfers between one block and the global interior arrays of a case
// (compact x-fastest order). The block's interior covers global x in
// [x0, x0 + n[0]) and all of y and z: x0 = 0 for the single-block solver,
// the part's offset for each block of a heterogeneous node.

#include <kolb/app/simulation.hpp>
#include <kolb/block/block.hpp>
#include <kolb/kernels/initialize.hpp>
#include <kolb/kernels/moments.hpp>

#include <stdexcept>
#include <string>

namespace kolb {

// "D2Q9/double/csoa8": the name `kolb info` lists a compiled variant by.
template <class Lattice, class Scalar, class Layout>
std::string variant_name() {
  const std::string layout = Layout::vector_length > 1
                                 ? Layout::name + std::to_string(Layout::vector_length)
                                 : std::string(Layout::name);
  return std::string(Lattice::name) + "/" + (sizeof(Scalar) == 8 ? "double" : "float") + "/" +
         layout;
}

// Sets the block's populations (both buffers) to the equilibrium of the
// global fields `rho`, `u` (3 per site) and `temperature` (thermal lattices;
// empty: T0 = 1) on its sites.
template <class Block>
void set_block_equilibrium(const typename Block::execution_space& exec, const Block& block,
                           const typename Block::value_type g[3], const std::array<int, 3>& global,
                           int x0, const std::vector<double>& rho, const std::vector<double>& u,
                           const std::vector<double>& temperature) {
  using memory_space = typename Block::memory_space;
  const Extents& e = block.extents();
  const std::size_t total = std::size_t(global[0]) * global[1] * global[2];
  if (rho.size() != total || u.size() != 3 * total)
    throw std::invalid_argument("set_fields: field sizes do not match the lattice");
  if (!temperature.empty() && temperature.size() != total)
    throw std::invalid_argument("set_fields: temperature size does not match the lattice");
  const index_t n = e.num_interior();
  Kokkos::View<double*, Kokkos::HostSpace> rho_h("kolb::rho0", n);
  Kokkos::View<double*, Kokkos::HostSpace> T_h("kolb::T0", n);
  Kokkos::View<double* [3], Kokkos::LayoutRight, Kokkos::HostSpace> u_h("kolb::u0", n);
  index_t k = 0;
  for (int z = 0; z < e.n[2]; ++z)
    for (int y = 0; y < e.n[1]; ++y)
      for (int x = 0; x < e.n[0]; ++x, ++k) {
        const std::size_t g_k =
            std::size_t(x0 + x) +
            std::size_t(global[0]) * (std::size_t(y) + std::size_t(global[1]) * z);
        rho_h(k) = rho[g_k];
        for (int a = 0; a < 3; ++a) u_h(k, a) = u[3 * g_k + a];
        T_h(k) = temperature.empty() ? 1.0 : temperature[g_k];
      }
  auto rho_d = Kokkos::create_mirror_view_and_copy(memory_space(), rho_h);
  auto u_d = Kokkos::create_mirror_view_and_copy(memory_space(), u_h);
  auto T_d = Kokkos::create_mirror_view_and_copy(memory_space(), T_h);
  using lattice = typename Block::lattice_type;
  using scalar = typename Block::value_type;
  using layout = typename Block::layout_type;
  using exec_space = typename Block::execution_space;
  InitializeEquilibrium<lattice, scalar, layout, exec_space>::apply(exec, block, g, rho_d, u_d,
                                                                    T_d);
  exec.fence();
}

// Writes the block's density, velocity, temperature (thermal lattices) and
// materials into `out` (global arrays, already sized for out.n).
template <class Block>
void gather_block_fields(const typename Block::execution_space& exec, const Block& block,
                         const typename Block::value_type g[3], int x0, HostFields& out) {
  using memory_space = typename Block::memory_space;
  using lattice = typename Block::lattice_type;
  using scalar = typename Block::value_type;
  using layout = typename Block::layout_type;
  using exec_space = typename Block::execution_space;
  const Extents& e = block.extents();
  const index_t n = e.num_interior();
  Kokkos::View<double*, memory_space> rho("kolb::rho", n);
  Kokkos::View<double* [3], Kokkos::LayoutRight, memory_space> u("kolb::u", n);
  Kokkos::View<double*, memory_space> T("kolb::T", is_thermal_v<lattice> ? n : 0);
  Moments<lattice, scalar, layout, exec_space>::apply(exec, block, g, rho, u, T);
  exec.fence();
  auto rho_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rho);
  auto u_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  auto T_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), T);
  auto mat_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block.material());
  index_t k = 0;
  for (int z = 0; z < e.n[2]; ++z)
    for (int y = 0; y < e.n[1]; ++y)
      for (int x = 0; x < e.n[0]; ++x, ++k) {
        const std::size_t g_k = out.index(x0 + x, y, z);
        out.rho[g_k] = rho_h(k);
        for (int a = 0; a < 3; ++a) out.u[3 * g_k + a] = u_h(k, a);
        if (is_thermal_v<lattice>) out.temperature[g_k] = T_h(k);
        out.material[g_k] = mat_h(e.site(x, y, z));
      }
}

// Writes the block's current populations into `out` (Q per global site,
// x-fastest, already sized).
template <class Block>
void gather_block_populations(const Block& block, const std::array<int, 3>& global, int x0,
                              std::vector<double>& out) {
  constexpr int Q = Block::lattice_type::q;
  auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block.current());
  const Extents& e = block.extents();
  for (int z = 0; z < e.n[2]; ++z)
    for (int y = 0; y < e.n[1]; ++y)
      for (int x = 0; x < e.n[0]; ++x) {
        const std::size_t g_k =
            std::size_t(x0 + x) +
            std::size_t(global[0]) * (std::size_t(y) + std::size_t(global[1]) * z);
        for (int i = 0; i < Q; ++i)
          out[g_k * Q + i] = double(f(block.layout()(e.site(x, y, z), i)));
      }
}

}  // namespace kolb
