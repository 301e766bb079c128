// VTK output: a snapshot written by write_vti and read back equals the
// fields in memory (bit for bit in double, to float rounding in float).
#include <kolb/io/vtk.hpp>

#include "support/cases.hpp"
#include "support/read_vti.hpp"

#include <gtest/gtest.h>

namespace {

TEST(Vtk, RoundTripMatchesFieldsInMemory) {
  for (const std::string precision : {"double", "float"}) {
    if (!kolb::test::compiled("D3Q19", precision)) continue;
    const std::string yaml = "lattice: D3Q19\nprecision: " + precision +
                             "\ndomain: {size: [12, 9, 7]}\nphysics: {tau: 0.7}\n"
                             "boundaries: {x-: wall, x+: wall, y-: periodic, y+: periodic, "
                             "z-: periodic, z+: periodic}\n"
                             "obstacles: [{type: sphere, center: [6, 4.5, 3.5], radius: 2.5}]\n"
                             "initial: {type: taylor_green, amplitude: 0.02, plane: yz}\n"
                             "run: {steps: 0}\noutput: {folder: unused}\n";
    auto sim = kolb::make_domain(kolb::test::make_case(yaml));
    sim->advance(5);
    const auto mem = sim->fields();
    const std::string path = ::testing::TempDir() + "kolb_vtk_" + precision + ".vti";
    kolb::write_vti(path, mem, precision == "float");
    const auto disk = kolb::test::read_vti(path);
    ASSERT_EQ(disk.n, mem.n);
    ASSERT_EQ(disk.rho.size(), mem.rho.size());
    const double tol = precision == "float" ? 1e-7 : 0.0;
    int solid = 0;
    for (std::size_t k = 0; k < mem.rho.size(); ++k) {
      EXPECT_NEAR(disk.rho[k], mem.rho[k], tol * std::abs(mem.rho[k]));
      for (int a = 0; a < 3; ++a) EXPECT_NEAR(disk.u[3 * k + a], mem.u[3 * k + a], tol);
      EXPECT_EQ(disk.material[k] != kolb::kFluid, mem.material[k] != kolb::kFluid);
      solid += mem.material[k] != kolb::kFluid;
    }
    EXPECT_GT(solid, 0) << "the sphere must appear in the mask";
    std::remove(path.c_str());
  }
}

}  // namespace
