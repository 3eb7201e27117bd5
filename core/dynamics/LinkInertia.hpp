#pragma once
// The distributed mass of one flexible link, gathered in its body frame at a cost linear in the
// number of its elements (the composite evaluation's part for one link; EquationsOfMotion.hpp).
//
// A Gauss station k at x_k touches only its own element's coordinates, except through the
// foreshortening of `high` coupling: r_x = x + u - s(x) with s(x) = 1/2 int_0^x (v'^2 + w'^2), whose
// gradient g(x) = ds/de is a running integral over every element before x. Writing
// g(x_k) = G_j + iota_k (G_j: the whole intervals before the station's interval j, iota_k: the rest),
// every sum over the stations of a term linear in g becomes a sum over the intervals of their own
// slope gradient phi_j times a suffix sum of what the later stations carry (their axial forces, their
// moments, their masses): O(elements) for the forces and the link's coupling rows, and O(m) per
// interval (O(m^2) in all, the size of the block itself) for the elastic block of the mass matrix
//   C = M_transverse + sum_k dm (l_k - G_j)(l_k - G_j)^T,   l_k = Psi_u(x_k) - iota_k.
// No heap allocation.
#include "dynamics/DeformedLink.hpp"

namespace flexarm {

// For flexible body `b` with its elastic coordinates and rates in data.e, data.ed (first m) and its
// body frame's motion in `frames`: fills data.station_wrench, station_force_e, with_mass_matrix
// station_inertia and station_coupling (B^T), and with_mass_matrix and `high` the full elastic block
// station_mass (without foreshortening that block is the structural mass FlexibleBody::M_sparse, not
// copied); adds the stations' d'Alembert force to frames.force_world and their kinetic energy
// (1/2 dm |v|^2 + 1/2 Jp w_x^2 each) to data.kinetic, and sets frames.first_moment (sum dm r).
// Returns the foreshortening at the tip, s(L) and sdd, with its gradient g(L) in data.g_start.
// Without `forces` (a kinematics pass) only the energy, the first moment, the foreshortening and
// data.g_start: no inertia, wrench or forces.
TipForeshortening gatherLinkStations(const Body& b, bool high, bool with_mass_matrix, bool forces, BodyFrames& frames,
                                     DynamicsData& data);

}  // namespace flexarm
