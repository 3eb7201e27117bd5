#include "io/UrdfImport.hpp"

#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <mutex>
#include <set>

#include "base/Files.hpp"
#include "base/NumberFormat.hpp"
#include "base/Text.hpp"
#include "io/ProjectFile.hpp"
#include "io/UrdfInertialText.hpp"
#include "io/XmlNesting.hpp"
#include "model/Model.hpp"
#include "model/RigidInertia.hpp"

namespace flexarm {

struct UrdfRobot::Impl {
  urdf::ModelInterfaceSharedPtr model;
  // urdfdom's links own their children (shared pointers): a loop of joints, which it accepts and the
  // import refuses, is a cycle that would never be freed. The links' links are cut first.
  ~Impl() {
    if (!model) return;
    for (auto& entry : model->links_) {
      if (!entry.second) continue;
      entry.second->child_links.clear();
      entry.second->child_joints.clear();
      entry.second->parent_joint.reset();
    }
  }
};

namespace {

std::string linkPath(const std::string& name) { return "link " + inQuotes(name); }
std::string jointPath(const std::string& name) { return "joint " + inQuotes(name); }

// Names of the URDF as a message lists them: each an excerpt (one line, cut), the first few of them
// and how many more, so that a robot of thousands of links still gets a message of one line.
std::string nameList(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 8;
  std::string out;
  for (std::size_t k = 0; k < names.size() && k < kShown; ++k) out += (k > 0 ? ", " : "") + excerpt(names[k]);
  if (names.size() > kShown) out += " and " + std::to_string(names.size() - kShown) + " more";
  return out;
}

// What urdfdom says quotes the names of the file as they are (newlines too): one line, cut.
std::string fromUrdfdom(const std::string& message) { return excerpt(message, 300); }

// A loop of joints among the links of the file: the joints on it, the last one closing it (empty:
// none). urdfdom links each joint's child link to its parent link (shared pointers) before it looks
// for the root; where it gives up after that (a loop through every link leaves no root), the loop is a
// cycle of links that own each other, which it never frees. So loops are refused before urdfdom reads
// the file. Joints and links as urdfdom takes them: <robot>'s <joint> and <link> elements.
std::vector<std::string> jointLoop(const TiXmlElement& robot) {
  struct Edge {
    std::string joint, child;
  };
  std::set<std::string> links;
  for (const TiXmlElement* l = robot.FirstChildElement("link"); l; l = l->NextSiblingElement("link"))
    if (const char* name = l->Attribute("name")) links.insert(name);
  std::map<std::string, std::vector<Edge>> below;  // by parent link, in the file's order
  std::vector<std::string> parents;
  for (const TiXmlElement* j = robot.FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
    const TiXmlElement* parent = j->FirstChildElement("parent");
    const TiXmlElement* child = j->FirstChildElement("child");
    const char* name = j->Attribute("name");
    const char* from = parent ? parent->Attribute("link") : nullptr;
    const char* to = child ? child->Attribute("link") : nullptr;
    if (!name || !from || !to || !links.count(from) || !links.count(to)) continue;
    below[from].push_back({name, to});
    parents.push_back(from);
  }
  // Depth first, without recursion: a joint to a link on the current path closes a loop.
  std::map<std::string, int> state;  // 1: on the path, 2: done
  for (const std::string& start : parents) {
    if (state[start] != 0) continue;
    std::vector<std::pair<const std::string*, std::size_t>> path{{&start, 0}};  // link, next joint below it
    std::vector<const std::string*> joints;                                     // the joint into each link after the first
    state[start] = 1;
    while (!path.empty()) {
      auto& [link, next] = path.back();
      const std::vector<Edge>& edges = below[*link];
      if (next == edges.size()) {
        state[*link] = 2;
        path.pop_back();
        if (!joints.empty() && joints.size() >= path.size()) joints.pop_back();
        continue;
      }
      const Edge& e = edges[next++];
      const int s = state[e.child];
      if (s == 1) {
        std::size_t k = 0;
        while (*path[k].first != e.child) ++k;
        std::vector<std::string> loop;
        for (std::size_t i = k; i < joints.size(); ++i) loop.push_back(*joints[i]);
        loop.push_back(e.joint);
        return loop;
      }
      if (s == 0) {
        state[e.child] = 1;
        joints.push_back(&e.joint);
        path.push_back({&e.child, 0});
      }
    }
  }
  return {};
}

// urdfdom reports through console_bridge: its messages are caught here instead of printed.
class CapturedLog : public console_bridge::OutputHandler {
 public:
  std::vector<std::string> errors, warnings;
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      errors.push_back(text);
    else if (level == console_bridge::CONSOLE_BRIDGE_LOG_WARN)
      warnings.push_back(text);
  }
};

bool isMoving(const urdf::Joint& j) {
  return j.type == urdf::Joint::REVOLUTE || j.type == urdf::Joint::CONTINUOUS || j.type == urdf::Joint::PRISMATIC;
}

Eigen::Isometry3d toIsometry(const urdf::Pose& p) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(p.position.x, p.position.y, p.position.z);
  X.linear() = Eigen::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z).normalized().toRotationMatrix();
  return X;
}

// Does the joint, or any joint below it, move?
bool leadsToMovingJoint(const urdf::Joint& j, const urdf::ModelInterface& m) {
  if (isMoving(j)) return true;
  const urdf::LinkConstSharedPtr child = m.getLink(j.child_link_name);
  if (!child) return false;
  return std::any_of(child->child_joints.begin(), child->child_joints.end(),
                     [&m](const urdf::JointSharedPtr& c) { return leadsToMovingJoint(*c, m); });
}

// The children of `link` through which the chain could go on.
std::vector<const urdf::Joint*> leadingJoints(const urdf::Link& link, const urdf::ModelInterface& m) {
  std::vector<const urdf::Joint*> out;
  for (const urdf::JointSharedPtr& j : link.child_joints)
    if (leadsToMovingJoint(*j, m)) out.push_back(j.get());
  return out;
}

// A name as the project format allows it (letters, digits, _ and -).
std::string projectName(const std::string& name, const std::string& path, Diagnostics& diag) {
  std::string out = name;
  for (char& c : out)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) c = '_';
  if (out.empty()) out = "_";
  if (out != name) diag.warning(path, "named " + inQuotes(out) + " in the project (names hold letters, digits, _ and -)");
  return out;
}

// A URDF link held rigidly by one body of the chain: its frame in that body's frame.
struct Attached {
  const urdf::Link* link = nullptr;
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
};

// One moving joint of the chain, its origin in the previous body's frame (the world's for the first)
// and every URDF link its child body holds.
struct Segment {
  const urdf::Joint* joint = nullptr;
  Eigen::Isometry3d X_origin = Eigen::Isometry3d::Identity();  // in its parent body's frame (the world's)
  std::vector<Attached> bodies;                                // bodies.front() is the joint's child link
  int parent = -1;                                             // the segment whose body it sits on; -1: the world
  std::optional<Eigen::Vector3d> end;                          // a leaf's tool frame origin in its body's frame
};

// The segments, parents first: a chain (each on the one before), or a whole tree.
struct Walk {
  std::vector<Segment> segments;
  std::string tip;  // a chain's tip link; empty for a tree
  // The segments that sit on segment k (or the world, k = -1).
  std::vector<int> children(int k) const {
    std::vector<int> out;
    for (std::size_t c = 0; c < segments.size(); ++c)
      if (segments[c].parent == k) out.push_back(static_cast<int>(c));
    return out;
  }
};

// The tool frame after a link: the end of a line of single fixed children (ROS-Industrial's flange
// and tool0), in the link's frame; nullopt when none follows.
std::optional<Eigen::Vector3d> toolFrame(const urdf::Link& link, const urdf::ModelInterface& m) {
  std::optional<Eigen::Vector3d> end;
  const urdf::Link* l = &link;
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  while (l->child_joints.size() == 1 && l->child_joints.front()->type == urdf::Joint::FIXED) {
    T = T * toIsometry(l->child_joints.front()->parent_to_joint_origin_transform);
    l = m.getLink(l->child_joints.front()->child_link_name).get();
    end = T.translation();
  }
  return end;
}

// Every moving joint of the tree, each link held by the body of the moving joint above it (or the
// world), in depth-first order: the parents before their children.
void walkTree(const urdf::Link& link, const Eigen::Isometry3d& X, int owner, const urdf::ModelInterface& m, Walk& w,
              std::vector<Attached>& base) {
  (owner < 0 ? base : w.segments[static_cast<std::size_t>(owner)].bodies).push_back({&link, X});
  for (const urdf::JointSharedPtr& j : link.child_joints) {
    const urdf::LinkConstSharedPtr child = m.getLink(j->child_link_name);
    if (!child) continue;
    const Eigen::Isometry3d Xj = X * toIsometry(j->parent_to_joint_origin_transform);
    if (!isMoving(*j)) {
      walkTree(*child, Xj, owner, m, w, base);
      continue;
    }
    Segment s;
    s.joint = j.get();
    s.X_origin = Xj;
    s.parent = owner;
    w.segments.push_back(std::move(s));
    const int k = static_cast<int>(w.segments.size()) - 1;
    walkTree(*child, Eigen::Isometry3d::Identity(), k, m, w, base);
    if (w.children(k).empty()) w.segments[static_cast<std::size_t>(k)].end = toolFrame(*child, m);
  }
}

// Adds `link` at X and, below it, every link not on the chain (moving joints there held at 0).
void attach(const urdf::Link& link, const Eigen::Isometry3d& X, const std::set<const urdf::Joint*>& chain,
            const urdf::ModelInterface& m, const std::string& owner, std::vector<Attached>& out, Diagnostics& diag) {
  out.push_back({&link, X});
  for (const urdf::JointSharedPtr& j : link.child_joints) {
    if (chain.count(j.get())) continue;
    const urdf::LinkConstSharedPtr child = m.getLink(j->child_link_name);
    if (!child) continue;
    if (isMoving(*j) && owner.empty()) {
      diag.warning(jointPath(j->name),
                   "is not on the chain to the tip: left out, with the links after it (they hang from the fixed base)");
      continue;
    }
    if (isMoving(*j))
      diag.warning(jointPath(j->name), "is not on the chain to the tip: held at 0, its link " + inQuotes(child->name) +
                                           " is merged into link " + inQuotes(owner));
    attach(*child, X * toIsometry(j->parent_to_joint_origin_transform), chain, m, owner, out, diag);
  }
}

std::string leafList(const urdf::ModelInterface& m) {
  std::vector<std::string> leaves;
  for (const auto& [name, link] : m.links_)
    if (link->child_joints.empty()) leaves.push_back(name);
  return nameList(leaves);
}

std::optional<Walk> walk(const urdf::ModelInterface& m, const std::string& tip_name, Diagnostics& diag) {
  const urdf::LinkConstSharedPtr root = m.getRoot();
  const urdf::Link* tip = nullptr;
  if (!tip_name.empty()) {
    const urdf::LinkConstSharedPtr t = m.getLink(tip_name);
    if (!t) {
      diag.error("tip", "no link is named " + inQuotes(tip_name) + " (the leaves are " + leafList(m) + ")");
      return std::nullopt;
    }
    tip = t.get();
  } else {
    const urdf::Link* link = root.get();
    while (true) {
      const std::vector<const urdf::Joint*> next = leadingJoints(*link, m);
      if (next.size() > 1) {  // the tree branches: all of it
        Walk w;
        std::vector<Attached> base;  // held by the world: not part of the model
        walkTree(*root, Eigen::Isometry3d::Identity(), -1, m, w, base);
        return w;
      }
      if (next.empty()) break;
      link = m.getLink(next.front()->child_link_name).get();
    }
    tip = link;
  }
  std::vector<const urdf::Joint*> path;
  for (const urdf::Link* l = tip; l->parent_joint; l = m.getLink(l->parent_joint->parent_link_name).get())
    path.push_back(l->parent_joint.get());
  std::reverse(path.begin(), path.end());
  const std::set<const urdf::Joint*> chain(path.begin(), path.end());

  Walk w;
  w.tip = tip->name;
  std::vector<Attached> base;  // held by the world: not part of the model
  attach(*root, Eigen::Isometry3d::Identity(), chain, m, "", base, diag);
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();  // the current URDF link in the current body's frame
  for (const urdf::Joint* j : path) {
    const urdf::Link& child = *m.getLink(j->child_link_name);
    X = X * toIsometry(j->parent_to_joint_origin_transform);
    if (isMoving(*j)) {
      w.segments.push_back({j, X, {}, static_cast<int>(w.segments.size()) - 1, std::nullopt});
      X = Eigen::Isometry3d::Identity();
    }
    if (w.segments.empty())
      attach(child, X, chain, m, "", base, diag);
    else
      attach(child, X, chain, m, w.segments.back().joint->child_link_name, w.segments.back().bodies, diag);
  }
  if (w.segments.empty()) {
    diag.error(linkPath(tip->name), "no revolute, continuous or prismatic joint between the root " + inQuotes(root->name) +
                                        " and this tip: nothing moves");
    return std::nullopt;
  }
  if (tip->name != w.segments.back().joint->child_link_name)
    w.segments.back().end = X.translation();  // the tip was reached through fixed joints: it is the tool frame
  else
    w.segments.back().end = toolFrame(*tip, m);
  return w;
}

// Where segment k's link reaches: its one child joint's origin, or its tool frame (a leaf); nullopt
// where nothing follows it, or where several joints sit on it (a branching link keeps the URDF frame and
// no length: each child's placement holds where it sits).
std::optional<Eigen::Vector3d> nextOrigin(const Walk& w, int k) {
  const std::vector<int> children = w.children(k);
  if (children.size() == 1) return w.segments[static_cast<std::size_t>(children.front())].X_origin.translation();
  if (children.empty()) return w.segments[static_cast<std::size_t>(k)].end;
  return std::nullopt;
}

std::optional<RigidInertia> inertiaOf(const Attached& a, Diagnostics& diag) {
  const urdf::Inertial& i = *a.link->inertial;
  RigidInertia body;
  body.mass = i.mass;
  body.inertia_com = inertiaFromComponents(i.ixx, i.iyy, i.izz, i.ixy, i.ixz, i.iyz);
  const std::string path = linkPath(a.link->name);
  if (!std::isfinite(i.mass) || i.mass < 0.0) {
    diag.error(path, "<inertial> mass must be >= 0, got " + formatNumber(i.mass));
    return std::nullopt;
  }
  if (const Status ok = checkInertia(body.inertia_com); !ok) {
    diag.error(path, "<inertial> inertia: " + ok.error().message);
    return std::nullopt;
  }
  return transformInertia(a.X * toIsometry(i.origin), body);
}

// The default length of a flexible link with nothing after it to take its length from [m].
constexpr double kDefaultTipBeamLength = 0.5;

// The length of a flexible link's beam: `length` holds the distance to what follows it on the chain,
// `next_name` (empty: nothing), at `next` in the link's frame (nullopt: nothing, or at the link's
// origin). A length the spec gives that differs from it, and one taken from nowhere, are said with the numbers.
void beamLength(const FlexibleLinkSpec& spec, const std::optional<Eigen::Vector3d>& next, const std::string& next_name,
                const std::string& path, double& length, Diagnostics& diag) {
  if (next) {
    const double geometric = length;
    if (!spec.length || std::abs(*spec.length - geometric) <= 1e-9 * geometric) return;
    length = *spec.length;
    const Eigen::Vector3d& p = *next;
    diag.warning(path, "the beam is " + formatNumber(length) + " m long as given, but " + next_name + " is " +
                           formatNumber(geometric) + " m away along (" + formatShort(p.x()) + ", " + formatShort(p.y()) + ", " +
                           formatShort(p.z()) + ") in the link's frame: the beam runs toward it and " +
                           (length < geometric ? "ends " + formatShort(geometric - length) + " m short of it"
                                               : "passes it by " + formatShort(length - geometric) + " m") +
                           ", a rigid offset keeps it where the URDF puts it (leave length= out to end the beam there)");
    return;
  }
  const std::string why =
      next_name.empty() ? "no joint or tool frame follows this link on the chain" : next_name + " sits at this link's origin";
  if (spec.length) {
    length = *spec.length;
    diag.warning(path, why + ", so the beam runs along the link frame's x axis, " + formatNumber(length) + " m long as given");
    return;
  }
  length = kDefaultTipBeamLength;
  diag.warning(path, why + ", so the beam runs along the link frame's x axis with the default length " + formatNumber(length) +
                         " m: give its length in the link's spec (--flexible LINK=length=L,...), or end the URDF's "
                         "chain with a fixed tool link at the beam's end");
}

Json jointJson(const urdf::Joint& j, const std::string& name, const Placement& placement, const Eigen::Vector3d& axis,
               Diagnostics& diag) {
  const std::string path = jointPath(j.name);
  Json out;
  out["name"] = name;
  out["type"] = j.type == urdf::Joint::PRISMATIC ? "prismatic" : "revolute";
  out["axis"] = vec3Json(axis);
  out["placement"] = {{"xyz", vec3Json(placement.xyz)}, {"rpy", vec3Json(placement.rpy)}};
  if (j.dynamics) {
    out["damping"] = j.dynamics->damping;
    if (j.dynamics->friction != 0.0)
      diag.warning(path,
                   "friction " + formatNumber(j.dynamics->friction) + " is ignored (FlexArm has viscous joint damping only)");
  }
  if (j.limits) {
    Json l = Json::object();
    if (j.type != urdf::Joint::CONTINUOUS) l["lower"] = j.limits->lower, l["upper"] = j.limits->upper;
    l["effort"] = j.limits->effort;
    l["velocity"] = j.limits->velocity;
    out["limits"] = l;
  }
  if (j.mimic) diag.warning(path, "mimics joint " + inQuotes(j.mimic->joint_name) + ": ignored, the joint moves freely");
  return out;
}

}  // namespace

std::optional<UrdfRobot> UrdfRobot::parse(const std::string& xml, Diagnostics& diag) {
  // Before any XML library sees it: TinyXML recurses once per level (and takes time quadratic in the depth).
  if (const Status nesting = checkXmlNesting(xml); !nesting) {
    diag.error(nesting.error().where, "not read as a URDF: " + nesting.error().message);
    return std::nullopt;
  }
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  if (doc.Error()) {
    diag.error("line " + std::to_string(doc.ErrorRow()), std::string("not well-formed XML: ") + doc.ErrorDesc());
    return std::nullopt;
  }
  if (!doc.RootElement() || doc.RootElement()->ValueStr() != "robot") {
    diag.error("", "not a URDF robot: the document's element must be <robot>");
    return std::nullopt;
  }
  checkInertialText(*doc.RootElement(), diag);
  if (const std::vector<std::string> loop = jointLoop(*doc.RootElement()); !loop.empty())
    diag.error(jointPath(loop.back()), "closes a loop of joints (" + nameList(loop) +
                                           "): the robot has a closed loop, and URDF (and FlexArm) describe trees");
  if (diag.hasErrors()) return std::nullopt;
  auto impl = std::make_shared<Impl>();
  CapturedLog log;
  {
    static std::mutex console;  // console_bridge's handler is global
    const std::lock_guard<std::mutex> lock(console);
    console_bridge::useOutputHandler(&log);
    try {
      impl->model = urdf::parseURDF(xml);
    } catch (const std::exception& e) {
      log.errors.push_back(e.what());
    }
    console_bridge::restorePreviousOutputHandler();
  }
  if (!impl->model) {
    for (const std::string& e : log.errors) diag.error("", fromUrdfdom(e));
    if (log.errors.empty()) diag.error("", "urdfdom could not read the robot");
    return std::nullopt;
  }
  // With a model, what urdfdom logged as errors is what it skipped: about <inertial>, already checked
  // (checkInertialText); about visual and collision geometry, which FlexArm ignores.
  for (const std::string& e : log.errors)
    if (e.rfind("Inertial", 0) != 0 && e.rfind("Could not parse inertial element", 0) != 0)
      diag.warning("", "urdfdom: " + fromUrdfdom(e));
  for (const std::string& w : log.warnings) diag.warning("", fromUrdfdom(w));
  // urdfdom keeps one parent of a link that several joints name as their child (a closed loop): refused.
  std::map<std::string, std::vector<std::string>> parents;
  for (const auto& [name, joint] : impl->model->joints_) parents[joint->child_link_name].push_back(name);
  for (const auto& [link, joints] : parents) {
    if (joints.size() < 2) continue;
    diag.error(linkPath(link), "is the child of several joints (" + nameList(joints) +
                                   "): the robot has a closed loop, and URDF (and FlexArm) describe trees");
  }
  // A loop of joints that does not pass through the root (each of its links with one parent) is
  // taken by urdfdom; the way up from its links to the root would never end. Every link must be
  // reached from the root.
  std::set<const urdf::Link*> reached{impl->model->root_link_.get()};
  for (std::vector<const urdf::Link*> todo{impl->model->root_link_.get()}; !todo.empty();) {
    const urdf::Link* link = todo.back();
    todo.pop_back();
    for (const urdf::LinkSharedPtr& child : link->child_links)
      if (child && reached.insert(child.get()).second) todo.push_back(child.get());
  }
  if (reached.size() < impl->model->links_.size()) {
    for (const auto& [name, link] : impl->model->links_) {
      if (reached.count(link.get())) continue;
      diag.error(linkPath(name), "is not reached from the root link " + inQuotes(impl->model->root_link_->name) + " (" +
                                     std::to_string(impl->model->links_.size() - reached.size()) +
                                     " links are not): its joints form a closed loop, and URDF (and FlexArm) describe trees");
      break;
    }
  }
  for (const auto& [name, joint] : impl->model->joints_) {
    if (joint->type == urdf::Joint::FLOATING || joint->type == urdf::Joint::PLANAR)
      diag.error(jointPath(name),
                 std::string("is a ") + (joint->type == urdf::Joint::FLOATING ? "floating" : "planar") +
                     " joint: FlexArm imports fixed-base chains of revolute, continuous, prismatic and fixed joints");
  }
  if (diag.hasErrors()) return std::nullopt;
  UrdfRobot robot;
  robot.impl_ = impl;
  return robot;
}

std::optional<UrdfRobot> UrdfRobot::read(const std::filesystem::path& file, Diagnostics& diag) {
  const Result<std::string> text = readRegularFile(file);
  if (!text) {
    diag.error("", "cannot open URDF file " + inQuotes(file.string(), 200) + ": " + text.error().message);
    return std::nullopt;
  }
  return parse(*text, diag);
}

const std::string& UrdfRobot::name() const { return impl_->model->name_; }
const std::string& UrdfRobot::root() const { return impl_->model->root_link_->name; }

std::vector<std::string> UrdfRobot::leaves() const {
  std::vector<std::string> out;
  for (const auto& [name, link] : impl_->model->links_)
    if (link->child_joints.empty()) out.push_back(name);
  return out;
}

std::string UrdfRobot::branchingLink() const {
  const urdf::ModelInterface& m = *impl_->model;
  for (const urdf::Link* link = m.root_link_.get();;) {
    const std::vector<const urdf::Joint*> next = leadingJoints(*link, m);
    if (next.size() > 1) return link->name;
    if (next.empty()) return {};
    link = m.getLink(next.front()->child_link_name).get();
  }
}

std::optional<std::vector<UrdfChainLink>> UrdfRobot::chain(const std::string& tip, Diagnostics& diag) const {
  const std::optional<Walk> w = walk(*impl_->model, tip, diag);
  if (!w) return std::nullopt;
  std::vector<UrdfChainLink> out;
  for (std::size_t k = 0; k < w->segments.size(); ++k) {
    const Segment& s = w->segments[k];
    const std::optional<Eigen::Vector3d> next = nextOrigin(*w, static_cast<int>(k));
    out.push_back({s.joint->child_link_name, s.joint->name, next ? next->norm() : 0.0});
  }
  return out;
}

std::optional<Json> UrdfRobot::toProject(const UrdfImportOptions& options, Diagnostics& diag) const {
  const urdf::ModelInterface& m = *impl_->model;
  const std::optional<Walk> w = walk(m, options.tip, diag);
  if (!w) return std::nullopt;
  const std::size_t n = w->segments.size();

  std::vector<const FlexibleLinkSpec*> flexible(n, nullptr);
  for (const FlexibleLinkSpec& spec : options.flexible) {
    const auto it = std::find_if(w->segments.begin(), w->segments.end(),
                                 [&spec](const Segment& s) { return s.joint->child_link_name == spec.link; });
    if (it == w->segments.end()) {
      std::vector<std::string> moved;
      for (const Segment& s : w->segments) moved.push_back(s.joint->child_link_name);
      diag.error(linkPath(spec.link),
                 "cannot be made flexible: it is not a link that a joint of the chain moves (" + nameList(moved) + ")");
      continue;
    }
    flexible[static_cast<std::size_t>(it - w->segments.begin())] = &spec;
  }

  // Lengths and frames. A link reaches from its joint to the next joint's origin (the last one to the
  // tool frame): where that is not on its +x axis, its body frame is the URDF frame turned by the
  // smallest rotation that points x at it. Its inertia, payloads and the next joint's placement are
  // turned with it, so the arm stays where the URDF puts it and the dynamics are the same. A flexible
  // link is a beam along that axis (its section's y and z are the link frame's, turned the same way).
  std::vector<double> length(n, 0.0);
  std::vector<std::optional<Eigen::Matrix3d>> turn(n);  // nullopt: the URDF frame as it is
  Diagnostics ignored;                                  // names already said once
  for (std::size_t k = 0; k < n; ++k) {
    const std::vector<int> children = w->children(static_cast<int>(k));
    if (flexible[k] && children.size() > 1) {
      std::vector<std::string> carried;
      for (int c : children) carried.push_back(w->segments[static_cast<std::size_t>(c)].joint->name);
      diag.error(linkPath(w->segments[k].joint->child_link_name),
                 "cannot be made flexible: it carries " + std::to_string(children.size()) + " joints (" + nameList(carried) +
                     "), and a flexible link carries one, at the end of its beam");
      continue;
    }
    const std::optional<Eigen::Vector3d> next = nextOrigin(*w, static_cast<int>(k));
    const bool has_axis = next && next->norm() > 0.0;
    if (has_axis) {
      const Eigen::Vector3d& p = *next;
      if (p.y() == 0.0 && p.z() == 0.0 && p.x() > 0.0) {
        length[k] = p.x();
      } else {
        turn[k] = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitX(), p).toRotationMatrix();
        length[k] = p.norm();
      }
    }
    if (flexible[k]) {
      const std::string next_name = children.size() == 1
                                        ? "joint " + inQuotes(w->segments[static_cast<std::size_t>(children.front())].joint->name)
                                    : next ? "the tool frame"
                                           : "";
      beamLength(*flexible[k], has_axis ? next : std::nullopt, next_name, linkPath(w->segments[k].joint->child_link_name),
                 length[k], diag);
    }
  }
  const auto turned = [&turn](std::size_t k) {
    Eigen::Isometry3d Q = Eigen::Isometry3d::Identity();
    if (turn[k]) Q.linear() = *turn[k];
    return Q;
  };

  Json links = Json::array(), joints = Json::array(), payloads = Json::array();
  for (std::size_t k = 0; k < n; ++k) {
    const Segment& s = w->segments[k];
    const urdf::Link& own = *s.bodies.front().link;
    const std::string name = projectName(own.name, linkPath(own.name), diag);
    // The joint frame in its parent link's distal frame (both turned where they are).
    const int p = s.parent;
    Eigen::Isometry3d X = s.X_origin;
    if (p >= 0 && turn[static_cast<std::size_t>(p)]) X = turned(static_cast<std::size_t>(p)).inverse() * X;
    if (turn[k]) X = X * turned(k);
    if (p >= 0) X.translation().x() -= length[static_cast<std::size_t>(p)];
    Eigen::Vector3d axis(s.joint->axis.x, s.joint->axis.y, s.joint->axis.z);
    if (turn[k]) axis = turn[k]->transpose() * axis;
    joints.push_back(
        jointJson(*s.joint, projectName(s.joint->name, jointPath(s.joint->name), diag), Placement::fromTransform(X), axis, diag));
    if (p != static_cast<int>(k) - 1)  // a tree's joint off the previous link
      joints.back()["parent"] =
          p < 0 ? std::string("world")
                : projectName(w->segments[static_cast<std::size_t>(p)].joint->child_link_name, linkPath(""), ignored);
    std::vector<Attached> bodies = s.bodies;
    if (turn[k])
      for (Attached& a : bodies) a.X = turned(k).inverse() * a.X;

    for (const Attached& a : bodies)
      if (a.link->visual || a.link->collision || !a.link->visual_array.empty() || !a.link->collision_array.empty())
        diag.warning(linkPath(a.link->name),
                     "visual and collision geometry is ignored (FlexArm draws each link as its centreline)");
    Json link;
    link["name"] = name;
    link["length"] = length[k];
    if (flexible[k]) {
      link["flex"] = flexible[k]->flex;
      if (own.inertial)
        diag.warning(linkPath(own.name), "is flexible: its <inertial> (" + formatNumber(own.inertial->mass) +
                                             " kg) is replaced by the beam's mass (rho A length)");
      for (std::size_t b = 1; b < bodies.size(); ++b) {
        if (!bodies[b].link->inertial) continue;
        const std::optional<RigidInertia> ri = inertiaOf(bodies[b], diag);
        if (!ri || ri->mass <= 0.0) continue;
        const bool distal = ri->com.x() >= length[k];
        payloads.push_back({{"name", projectName(bodies[b].link->name, linkPath(bodies[b].link->name), diag)},
                            {"link", name},
                            {"frame", distal ? "distal" : "body"},
                            {"offset", vec3Json(distal ? Eigen::Vector3d(ri->com - Eigen::Vector3d(length[k], 0, 0)) : ri->com)},
                            {"mass", ri->mass},
                            {"inertia", inertia6Json(ri->inertia_com)}});
      }
      links.push_back(link);
      continue;
    }
    if (!own.inertial) {
      diag.error(linkPath(own.name), "has no <inertial>: a link that a joint moves needs its mass, centre of mass and inertia");
      continue;
    }
    if (!(own.inertial->mass > 0.0)) {
      diag.error(linkPath(own.name), "<inertial> mass must be > 0, got " + formatNumber(own.inertial->mass));
      continue;
    }
    std::vector<RigidInertia> parts;
    for (const Attached& a : bodies) {
      if (!a.link->inertial) continue;
      if (const std::optional<RigidInertia> ri = inertiaOf(a, diag)) parts.push_back(*ri);
    }
    const RigidInertia total = combineInertias(parts);
    link["mass"] = total.mass;
    link["com"] = vec3Json(total.com);
    link["inertia"] = inertia6Json(total.inertia_com);
    links.push_back(link);
  }
  if (diag.hasErrors()) return std::nullopt;

  Json doc;
  doc["format"] = "flexarm-project";
  doc["schema_version"] = Project::kSchemaVersion;
  doc["name"] = options.name.empty() ? m.name_ : options.name;
  doc["description"] = "Imported from the URDF robot " + inQuotes(m.name_, 200) + ": " +
                       (w->tip.empty() ? "the whole tree from " + inQuotes(m.root_link_->name)
                                       : "the chain from " + inQuotes(m.root_link_->name) + " to " + inQuotes(w->tip)) +
                       " (" + std::to_string(n) + " joints; no drives yet).";
  doc["gravity"] = Json::array({0.0, 0.0, -9.81});
  doc["links"] = links;
  doc["joints"] = joints;
  if (!payloads.empty()) doc["payloads"] = payloads;
  Diagnostics check;
  projectFromJson(doc, {}, check);
  for (const Diagnostic& d : check.all()) {
    if (d.severity == Diagnostic::Severity::Error)
      diag.error(d.path, d.message);
    else
      diag.warning(d.path, d.message);
  }
  if (diag.hasErrors()) return std::nullopt;
  return doc;
}

}  // namespace flexarm
