#include "dynamics/MultibodySystem.hpp"

#include <cassert>

#include "discretization/FlexibleBody.hpp"
#include "model/Names.hpp"

namespace flexarm {

Eigen::Isometry3d MultibodySystem::jointMotion(JointType type, const Eigen::Vector3d& axis, double q) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  if (type == JointType::Revolute)
    X.linear() = Eigen::AngleAxisd(q, axis).toRotationMatrix();
  else
    X.translation() = q * axis;
  return X;
}

bool MultibodySystem::isRigid() const {
  for (const Body& b : bodies)
    if (b.isFlexible() || b.hasFlexibleJoint()) return false;
  return true;
}

std::string MultibodySystem::describeCoordinate(int k) const {
  if (k < 0 || k >= coordinates.size()) return {};
  if (coordinates.kinds[static_cast<std::size_t>(k)] == CoordinateKind::Elastic)
    for (const Body& b : bodies)
      if (b.flexible && k >= b.e_index && k < b.e_index + b.e_count)
        return coordinates.names[static_cast<std::size_t>(k)] + " (" + b.flexible->basis->coordinateName(k - b.e_index) + ")";
  return coordinates.names[static_cast<std::size_t>(k)];
}

MultibodySystem MultibodySystem::withDrives(const Model& model, CouplingOrder coupling_order) const {
  MultibodySystem sys = *this;
  sys.model = std::make_shared<const Model>(model);
  sys.coupling = coupling_order;
  for (std::size_t i = 0; i < sys.bodies.size() && i < model.joints.size(); ++i) {
    sys.bodies[i].drive = model.joints[i].drive;
    sys.bodies[i].drive.law.prepare();
  }
  return sys;
}

MultibodySystem MultibodySystem::fromModel(const Model& model, CouplingOrder coupling) {
  MultibodySystem sys;
  sys.model = std::make_shared<const Model>(model);
  sys.gravity = model.gravity;
  sys.coupling = coupling;
  const int n = static_cast<int>(model.links.size());
  sys.bodies.resize(n);
  sys.coordinates = Coordinates::of(model);
  sys.nq = sys.coordinates.size();
  // The coordinates that move frames: all but the motors.
  sys.frame_coordinates_below.push_back(0);
  for (int k = 0; k < sys.nq; ++k) {
    if (sys.coordinates.kinds[static_cast<std::size_t>(k)] != CoordinateKind::Motor) sys.frame_coordinates.push_back(k);
    sys.frame_coordinates_below.push_back(static_cast<int>(sys.frame_coordinates.size()));  // below k + 1
  }
  for (int i = 0; i < n; ++i) {
    const Link& link = model.links[i];
    const Joint& joint = model.joints[i];
    Body& b = sys.bodies[i];
    b.name = link.name;
    b.joint_name = joint.name;
    b.parent = model.parentOf(i);  // an earlier link (the reader sees to it), or the world
    b.placement = joint.placement.transform();
    Eigen::Isometry3d parent_distal = Eigen::Isometry3d::Identity();
    if (b.parent >= 0) parent_distal = sys.bodies[static_cast<std::size_t>(b.parent)].X_body_distal;
    b.X_parent_joint = parent_distal * b.placement;
    b.joint_type = joint.type;
    b.axis = joint.axis.normalized();
    if (joint.type == JointType::Revolute)
      b.S.head<3>() = b.axis;
    else
      b.S.tail<3>() = b.axis;
    b.length = link.length;
    b.X_body_distal = Eigen::Isometry3d::Identity();
    b.X_body_distal.translation() = Eigen::Vector3d(link.length, 0.0, 0.0);
    b.drive = joint.drive;
    b.drive.law.prepare();
    b.joint_damping = joint.damping;

    // Coordinates: joint, motor, elastic (Coordinates::of).
    const Coordinates::OfLink& at = sys.coordinates.links[static_cast<std::size_t>(i)];
    b.q_index = at.q;
    b.motor_index = at.motor;
    if (joint.flex) b.joint_flex = *joint.flex;
    b.e_index = at.e_first;
    if (link.flex) {
      b.flexible = FlexibleBody::build(*link.flex, link.length);
      b.e_count = b.flexible->m;
      assert(b.e_count == at.e_count);
    }
    b.end_index = at.e_first + at.e_count;

    // Rigid inertia carried by the body frame.
    double mass = 0.0;
    Eigen::Vector3d first_moment = Eigen::Vector3d::Zero();
    auto add = [&](Matrix6d& I, double& m_total, Eigen::Vector3d& moment, double m, const Eigen::Vector3d& c,
                   const Eigen::Matrix3d& Ic) {
      I += spatialInertia(m, c, Ic);
      m_total += m;
      moment += m * c;
    };
    if (!link.flex) {
      const RigidInertia ri = link.rigidInertia();
      add(b.inertia, mass, first_moment, ri.mass, ri.com, ri.inertia_com);
    }
    if (joint.mass > 0.0) add(b.inertia, mass, first_moment, joint.mass, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Zero());
    Eigen::Vector3d distal_moment = Eigen::Vector3d::Zero();
    for (const Payload& p : model.payloads) {
      if (p.link != i) continue;
      if (p.frame == Payload::Frame::Distal && link.flex) {
        add(b.distal_inertia, b.distal_mass, distal_moment, p.mass, p.offset, p.inertia);
      } else if (p.frame == Payload::Frame::Section && link.flex) {
        Body::SectionMass sm;
        sm.section = SectionPoint::build(*b.flexible, p.offset.x());
        sm.mass = p.mass;
        sm.com = Eigen::Vector3d(0.0, p.offset.y(), p.offset.z());
        sm.inertia = spatialInertia(p.mass, sm.com, p.inertia);
        b.section_masses.push_back(std::move(sm));
      } else {
        const Eigen::Vector3d c = p.frame == Payload::Frame::Distal ? Eigen::Vector3d(b.X_body_distal * p.offset) : p.offset;
        add(b.inertia, mass, first_moment, p.mass, c, p.inertia);
      }
    }
    b.mass = mass;
    b.com = mass > 0.0 ? Eigen::Vector3d(first_moment / mass) : Eigen::Vector3d::Zero();
    b.distal_com = b.distal_mass > 0.0 ? Eigen::Vector3d(distal_moment / b.distal_mass) : Eigen::Vector3d::Zero();
  }
  for (const Load& load : model.loads)
    sys.loads.push_back(LoadPoint::build(load, load.link, sys.bodies[static_cast<std::size_t>(load.link)].flexible.get()));
  return sys;
}

void MultibodySystem::initialState(const Model& model, Eigen::VectorXd& q, Eigen::VectorXd& qd) const {
  q = Eigen::VectorXd::Zero(nq);
  qd = Eigen::VectorXd::Zero(nq);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    q(b.q_index) = model.joints[i].q0;
    qd(b.q_index) = model.joints[i].qd0;
    if (b.motor_index >= 0) {  // torsion = motor / N - link
      const JointFlex& f = *model.joints[i].flex;
      q(b.motor_index) = b.joint_flex.gear_ratio * (model.joints[i].q0 + f.torsion0);
      qd(b.motor_index) = b.joint_flex.gear_ratio * (model.joints[i].qd0 + f.torsiond0);
    }
    if (b.isFlexible() && model.links[i].flex) {
      const auto& e0 = model.links[i].flex->e0;
      for (int k = 0; k < b.e_count && k < static_cast<int>(e0.size()); ++k) q(b.e_index + k) = e0[k];
      const auto& ed0 = model.links[i].flex->ed0;
      for (int k = 0; k < b.e_count && k < static_cast<int>(ed0.size()); ++k) qd(b.e_index + k) = ed0[k];
    }
  }
}

}  // namespace flexarm
