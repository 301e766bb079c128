#pragma once
// SiteFields: the physical fields of one site, as a model reads them from
// the stored populations and builds populations from them.

#include <kolb/core/macros.hpp>

namespace kolb {

template <class T>
struct SiteFields {
  T rho = 0;
  T u[3] = {0, 0, 0};
  T temperature = 0;  // models with a temperature (D2Q37: T^H); 0 otherwise
};

}  // namespace kolb
