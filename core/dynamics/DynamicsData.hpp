#pragma once
// Everything the dynamics algorithms compute for one state: one per thread/run, allocated once.
#include <Eigen/Cholesky>
#include <vector>

#include "base/SymmetricSolve.hpp"
#include "dynamics/ForeshorteningColumns.hpp"
#include "dynamics/MultibodySystem.hpp"

namespace flexarm {

// Kinematic state of one body's frames, as the equations of motion compute it (EquationsOfMotion.hpp).
struct BodyFrames {
  Eigen::Isometry3d X_world_body = Eigen::Isometry3d::Identity();
  Eigen::Isometry3d X_world_distal = Eigen::Isometry3d::Identity();
  // Body coordinates; a: the velocity-product part and the known accelerations' (gravity is its own
  // term, Gravity.cpp, not a base acceleration).
  Vector6d v_body = Vector6d::Zero(), a_body = Vector6d::Zero();
  Vector6d v_distal = Vector6d::Zero(), a_distal = Vector6d::Zero();  // distal-frame coordinates
  Eigen::MatrixXd J_body, J_distal;                                   // 6 x nq body Jacobians
  Eigen::Vector3d force_world = Eigen::Vector3d::Zero();              // linear d'Alembert force of all mass on this body
  Eigen::Vector3d force_distal_world = Eigen::Vector3d::Zero();       // ... of the payloads on its distal frame
  std::vector<Eigen::Vector3d> force_section_world;                   // ... of each payload on a section (Body::section_masses)
  std::vector<Eigen::Isometry3d> X_world_section;                     // the frame of each such section
  std::vector<Eigen::MatrixXd> J_section;                             // ... and its 6 x nq Jacobian (with forces)
  Eigen::Vector3d first_moment = Eigen::Vector3d::Zero();             // a flexible link's stations: sum dm r, body frame
  // `high` coupling, with forces: D e = sum dm ds/de over the stations (FlexibleBody::mass_slopes), so
  // that the first moment's gradient is d(sum dm r)/de = FlexibleBody::mass_shape - e_x (D e)^T.
  Eigen::VectorXd foreshortening_moment;
  // A pass that splits the foreshortening (ForeshorteningColumns.hpp): the sections' columns of
  // J_body, J_distal, J_section (6 x L each) while the pass runs; distal_split: J_distal was computed
  // by it.
  Eigen::MatrixXd Js_body, Js_distal;
  std::vector<Eigen::MatrixXd> Js_section;
  bool distal_split = false;
  Eigen::Vector3d tip_deformation = Eigen::Vector3d::Zero();  // r(L) - (L, 0, 0) in the body frame
  double tip_twist = 0.0;
};

struct DynamicsData {
  explicit DynamicsData(const MultibodySystem& sys);

  // Rigid recursive algorithms (RNEA, CRBA).
  std::vector<Eigen::Isometry3d> X_parent_body;  // body pose in its parent's body frame
  std::vector<Eigen::Isometry3d> X_world_body;   // body pose in the world
  std::vector<Matrix6d> X_up;                    // motion transform parent -> body
  std::vector<Vector6d> v, a, f;                 // body velocity, acceleration, force (body frame)
  std::vector<Matrix6d> I_composite;             // composite rigid-body inertia (CRBA)

  Eigen::MatrixXd M;  // mass matrix
  // Where the last evaluation with the mass matrix wrote M (EquationsOfMotion.cpp): M is zero
  // elsewhere, so the next one clears only these, and the sparse factorization reads only these
  // (SymmetricSolve) instead of the whole n x n matrix. When M_regions_valid is false, M may hold
  // entries elsewhere (the CRBA assigns it) and is cleared whole.
  std::vector<MatrixRegion> M_regions;
  bool M_regions_valid = false;
  // `high` coupling: M without the foreshortening's running-integral terms (the G_j terms of
  // LinkInertia.hpp, O(deflection) against the rest), banded per link like zero coupling's: an
  // iteration matrix for implicit integrators whose residual keeps every term (ForwardDynamicsRhs).
  bool mass_without_running_terms = false;
  // `high` coupling: the foreshortening's own columns, and (with `split`) the split mass matrix M~ of
  // a pass with M, whose M then holds M~_xx (ForeshorteningColumns.hpp).
  ForeshorteningColumns foreshortening;
  Eigen::VectorXd tau;  // RNEA output; the equations of motion's bias (sum J^T f)

  // Reference evaluation work space.
  std::vector<BodyFrames> frames;
  // The composite evaluation computes the last body's J_distal only for a payload on that frame (no
  // other term reads it: about a tenth of a residual on the cantilever), or when this asks for it
  // (the check against the independent equations). Otherwise it keeps an older state's.
  bool every_distal_jacobian = false;
  Eigen::MatrixXd IJ;                // 6 x nq: a Jacobian times an inertia
  Eigen::MatrixXd dr_de;             // 3 x m_max
  Eigen::VectorXd g_start, g_point;  // m_max: d s / d e at an interval start and at a station
  Eigen::VectorXd e, ed, edd;        // m_max: a link's elastic coordinates, rates, known accelerations
  // Composite evaluation: a link's Gauss stations gathered in its body frame.
  Matrix6d station_inertia = Matrix6d::Zero();  // sum of the stations' spatial inertia
  // m_max x 6: row j the momentum of the stations per unit rate of elastic coordinate j (the coupling
  // block of M, transposed: a station adds to its columns, which are contiguous)
  Eigen::MatrixXd station_coupling;
  Eigen::MatrixXd station_mass;                // m_max x m_max: elastic block of M from the stations
  Vector6d station_wrench = Vector6d::Zero();  // d'Alembert wrench of the stations about the body origin
  Eigen::VectorXd station_force_e;             // m_max: their generalized force on the elastic coordinates
  // Per interval of a link (LinkInertia.cpp): the foreshortening gradient of the whole interval
  // (window x intervals), and the sums over its stations that the other stations' terms need.
  Eigen::MatrixXd interval_slope, interval_lever;          // w_max x n_max: phi_k, L_k = sum dm (u - iota)
  Eigen::MatrixXd interval_moment;                         // 6 x n_max: C_k = sum dm [r x e_x; e_x]
  Eigen::VectorXd interval_force, interval_mass;           // n_max: F_k = sum of axial d'Alembert forces, mu_k = sum dm
  Eigen::Matrix<double, Eigen::Dynamic, 3> window_states;  // w_max x 3 work: e, ed, edd on an interval's window
  Eigen::VectorXd window_gradient;                         // w_max work: a stretch's slope gradient S e
  // w_max x 2 work: [e ed] and [S e, S ed] on an interval's slope coordinates (Interval::slope_dofs)
  Eigen::Matrix<double, Eigen::Dynamic, 2> slope_states, slope_products;
  Eigen::VectorXd window_lever;                                        // w_max work
  Eigen::VectorXd prefix_slope, suffix_slope, suffix_lever, row_work;  // m_max work
  double gravity_potential = 0.0;                                      // [J] the gravity term's (internalForces)
  // [J] 1/2 qd^T M qd of the pass's rates, summed over its mass elements and stations (1/2 v^T I v each) and rotors
  double kinetic = 0.0;
  // The generalized forces Q by term (ForceTerms.hpp), each in its own vector, as MuJoCo's qfrc_spring,
  // qfrc_damper, ...; the bias above (tau) is the inertia's alone.
  Eigen::VectorXd gravity_force;        // the weight of every mass element
  Eigen::VectorXd structural_force;     // the links' elasticity and structural damping: -K e - C ed
  Eigen::VectorXd joint_spring_force;   // the flexible joints' springs and dampers
  Eigen::VectorXd joint_damping_force;  // the joints' viscous dampers
  Eigen::VectorXd geometric_force;      // `geometric` coupling's axial-force term
  Eigen::VectorXd drive_force;          // the drives' efforts (the forward dynamics' last evaluation)
  Eigen::VectorXd internal;             // the sum of the above but the drives' (internalForces)
  Eigen::VectorXd external;             // the loads on links (ExternalLoads.hpp)
  double elastic_potential = 0.0;       // [J] the sum of the other terms' potentials (links, joint springs, axial force)
  // Which pass filled the frames: the composite equations (data.frames, EquationsOfMotion.hpp) or the
  // rigid recursive algorithms (X_world_body, X_up: Rnea.hpp, Kinematics.hpp).
  bool composite_frames = false;
  // The gravity term's work space on a rigid system: each body's weight and what hangs below it.
  mutable std::vector<Vector6d> subtree_weight;
};

}  // namespace flexarm
