#include "palette.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace kestrel::report::detail {
namespace {

// Okabe & Ito (2008), "Color Universal Design"; yellow left out (unreadable on white).
constexpr std::array<const char*, 7> kOkabeIto = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                  "#E69F00", "#56B4E9", "#000000"};

struct Rgb {
    int r, g, b;
};
// matplotlib's viridis sampled at t = 0, 0.1, ..., 1 (matplotlib 3.6, cm.get_cmap("viridis")).
constexpr std::array<Rgb, 11> kViridis = {{{0x44, 0x01, 0x54}, {0x48, 0x24, 0x75}, {0x41, 0x44, 0x87},
                                           {0x35, 0x5f, 0x8d}, {0x2a, 0x78, 0x8e}, {0x21, 0x91, 0x8c},
                                           {0x22, 0xa8, 0x84}, {0x44, 0xbf, 0x70}, {0x7a, 0xd1, 0x51},
                                           {0xbd, 0xdf, 0x26}, {0xfd, 0xe7, 0x25}}};

}  // namespace

std::string series_colour(std::size_t i) { return kOkabeIto[i % kOkabeIto.size()]; }

std::string viridis(double t) {
    if (!(t >= 0)) t = 0;  // NaN too
    t = std::min(t, 1.0) * 10.0;
    const auto lo = static_cast<std::size_t>(std::min(9.0, std::floor(t)));
    const double f = t - static_cast<double>(lo);
    const auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
    const Rgb& a = kViridis[lo];
    const Rgb& b = kViridis[lo + 1];
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
    return buf;
}

bool dark_on_viridis(double t) { return !(t > 0.55); }

}  // namespace kestrel::report::detail
