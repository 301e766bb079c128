# Shared helpers for the ci/ scripts (sourced, not run).

# apt-get install only what is missing, running `apt-get update` at most once.
kolb_apt_updated=0
kolb_apt_update() {
  if [ "$kolb_apt_updated" = 0 ]; then
    echo "[apt] update" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    kolb_apt_updated=1
  fi
}
kolb_apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  kolb_apt_update
  echo "[apt] installing ${missing[*]}" >&2
  local log
  log=$(mktemp)
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

# Make sure bookworm's deb-src entry (main contrib non-free) is enabled.
kolb_enable_sources() {
  local f=/etc/apt/sources.list.d/kolb-bookworm.sources
  if [ ! -f "$f" ]; then
    echo "[apt] enabling bookworm deb-src and contrib/non-free in $f" >&2
    cat > "$f" <<'SRC'
# Added by kolb's ci/lib.sh: source packages (trilinos -> Kokkos) and
# contrib/non-free (nvidia-cuda-toolkit for device compile checks).
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    kolb_apt_updated=0
  fi
}

# Fetch the trilinos source package once and unpack only packages/<name>.
# Prints the unpacked folder.
kolb_trilinos_package() {
  local src_dir=$1 name=$2
  mkdir -p "$src_dir"
  if [ ! -f "$src_dir/$name/.unpacked" ]; then
    if ! ls "$src_dir"/trilinos_*.orig.tar.* >/dev/null 2>&1; then
      kolb_enable_sources
      kolb_apt_update
      echo "[trilinos] apt-get source --download-only trilinos" >&2
      (cd "$src_dir" && apt-get source --download-only trilinos >&2)
    fi
    local tarball
    tarball=$(ls "$src_dir"/trilinos_*.orig.tar.* | head -n 1)
    local top
    # (tar is cut off by head on purpose: `|| true` keeps pipefail quiet)
    top=$({ tar tf "$tarball" || true; } | head -n 1 | cut -d/ -f1)
    echo "[trilinos] unpacking $top/packages/$name from $(basename "$tarball")" >&2
    rm -rf "$src_dir/$name" "$src_dir/$top/packages/$name"
    tar xf "$tarball" -C "$src_dir" "$top/packages/$name"
    mv "$src_dir/$top/packages/$name" "$src_dir/$name"
    rm -rf "${src_dir:?}/$top"
    touch "$src_dir/$name/.unpacked"
  fi
  echo "$src_dir/$name"
}

# Environment for Debian's CUDA 11.8 (in /usr): nvcc_wrapper takes nvcc from
# $CUDA_ROOT/bin and g++-11 as host compiler, and nvcc runs ptxas, fatbinary
# and nvlink from PATH. The preinstalled CUDA 13 (/usr/local/cuda/bin and
# wrapper scripts in /usr/local/bin) must not be found first: its tools would
# silently assemble and package the device code. So /usr/bin goes first.
kolb_cuda_env() {
  export CUDA_ROOT=/usr NVCC_WRAPPER_DEFAULT_COMPILER=g++-11
  PATH=/usr/bin:$(tr ':' '\n' <<<"$PATH" | grep -v '^/usr/local/cuda' | paste -sd:)
  export PATH
}

# Installs a finished Kokkos build into its prefix, marks the prefix complete
# (the cache test of the bootstrap scripts), drops the build tree, and prints
# the prefix.
kolb_install_kokkos() {
  local build=$1 prefix=$2
  cmake --install "$build" >&2
  touch "$prefix/.complete"
  rm -rf "$build"
  echo "[kolb] Kokkos installed to $prefix" >&2
  echo "$prefix"
}

# Builds Kokkos Kernels from the same trilinos source against the Kokkos in
# PREFIX and installs it there (marker .kokkos-kernels). No explicit
# instantiation (KokkosKernels_ADD_DEFAULT_ETI=OFF): kolb instantiates the
# few BLAS-1 calls it makes (nrm2, axpby) in one translation unit, and the
# library itself is then six files, built in seconds. Extra arguments go to
# CMake (the device builds' compiler). Prints the prefix.
kolb_install_kokkos_kernels() {
  local prefix=$1 build
  shift
  if [ -f "$prefix/.kokkos-kernels" ]; then echo "$prefix"; return 0; fi
  local src
  src=$(kolb_trilinos_package "$KOLB_DEPS/src" kokkos-kernels)
  build="$KOLB_DEPS/build/kokkos-kernels-$(basename "$prefix")"
  echo "[kolb] building Kokkos Kernels (no ETI) against $prefix" >&2
  rm -rf "$build"
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD=17 -DKokkos_ROOT="$prefix" \
    -DKokkosKernels_ADD_DEFAULT_ETI=OFF -DKokkosKernels_ENABLE_TESTS=OFF \
    -DKokkosKernels_ENABLE_EXAMPLES=OFF -DKokkosKernels_ENABLE_TPL_BLAS=OFF \
    -DKokkosKernels_ENABLE_TPL_LAPACK=OFF "$@" >&2
  cmake --build "$build" -j "${KOLB_JOBS:-2}" >&2
  cmake --install "$build" >&2
  rm -rf "$build"
  touch "$prefix/.kokkos-kernels"
  echo "$prefix"
}
