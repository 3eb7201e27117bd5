// Writes a project's canonical JSON: save -> load -> save gives the same bytes.
#include "base/Files.hpp"
#include "io/ProjectFile.hpp"
#include "io/ProjectSchema.hpp"

namespace flexarm {
namespace {

using schema::key;

// The name of the schema's key at `path` ("links[].flex.section.width" -> "width").
std::string name(const char* path) { return key(path).name(); }

// Writes the struct's numbers that the schema lists, in its order.
template <class T>
void writeFields(Json& j, const std::vector<schema::Field<T>>& fields, const T& value) {
  for (const schema::Field<T>& f : fields) j[f.key->name()] = value.*f.field;
}
// Writes a preset's kind (under kind_key) and its dimensions.
template <class Preset>
Json presetJson(const schema::PresetSpec<Preset>& spec, const char* kind_key, const Preset& value) {
  Json j;
  j[name(kind_key)] = spec.name;
  for (const schema::Dimension<Preset>& d : spec.dimensions) j[d.key->name()] = value.*d.field;
  return j;
}

void writeLaw(Json& j, const TimeFunction& f) {
  j["law"] = lawName(f.law);
  for (const schema::LawParameter& p : schema::law(f.law).parameters) {
    if (p.list)
      j[p.key] = f.*p.list;
    else
      j[p.key] = f.*p.number;
  }
  switch (f.law) {
    case TimeFunction::Law::Table:
      j["interpolation"] = f.interpolation == TableInterpolation::Cubic ? "cubic" : "linear";
      if (!f.file.empty()) {
        j["file"] = f.file;
      } else {
        Json pts = Json::array();
        for (std::size_t k = 0; k < f.table_t.size(); ++k) pts.push_back(Json::array({f.table_t[k], f.table_value[k]}));
        j["points"] = pts;
      }
      break;
    case TimeFunction::Law::Piecewise: {
      Json pieces = Json::array();
      for (std::size_t k = 0; k < f.pieces.size(); ++k) {
        Json law;
        writeLaw(law, f.pieces[k]);
        pieces.push_back({{"from", k < f.piece_from.size() ? f.piece_from[k] : 0.0}, {"law", law}});
      }
      j["pieces"] = pieces;
      break;
    }
    default: break;  // the other laws are their parameters, written above
  }
}

Json flexToJson(const FlexibleLink& f) {
  Json fj;
  const char* section = "links[].flex.section";
  if (f.section_preset) {
    const SectionPreset& p = *f.section_preset;
    fj[name(section)] = presetJson(schema::sectionPresets()[static_cast<std::size_t>(p.kind)], "links[].flex.section.preset", p);
  } else {
    writeFields(fj[name(section)], schema::sectionProperties(), f.section);
  }
  Json& material = fj[name("links[].flex.material")];
  if (!f.material_preset.empty())
    material[name("links[].flex.material.preset")] = f.material_preset;
  else
    writeFields(material, schema::materialProperties(), f.material);
  const LinkDiscretization& d = f.discretization;
  const auto choice = [](const char* path, bool second) { return key(path).choices[second ? 1 : 0]; };
  const bool fem = d.kind == LinkDiscretization::Kind::FiniteElements;
  fj[name("links[].flex.basis")] = choice("links[].flex.basis", fem);
  if (!fem) {
    fj[name("links[].flex.modes")] = {{name("links[].flex.modes.axial"), d.axial},
                                      {name("links[].flex.modes.bending_y"), d.bending_y},
                                      {name("links[].flex.modes.bending_z"), d.bending_z},
                                      {name("links[].flex.modes.torsion"), d.torsion}};
  } else {
    fj[name("links[].flex.elements")] = d.elements;
    fj[name("links[].flex.layout")] = choice("links[].flex.layout", d.planar);
    if (!d.nodes.empty()) fj[name("links[].flex.nodes")] = d.nodes;
    if (d.free_root) fj[name("links[].flex.root")] = choice("links[].flex.root", true);
    fj[name("links[].flex.reduce_to")] = d.reduce_to;
  }
  fj[name("links[].flex.rayleigh")] = Json::array({f.damping.rayleigh_alpha, f.damping.rayleigh_beta});
  fj[name("links[].flex.modal_damping")] = f.damping.modal_ratios;
  if (!f.e0.empty()) fj[name("links[].flex.e0")] = f.e0;
  if (!f.ed0.empty()) fj[name("links[].flex.ed0")] = f.ed0;
  if (f.initial_load) fj[name("links[].flex.initial_load")] = vec3Json(*f.initial_load);
  return fj;
}

}  // namespace

Json projectToJson(const Project& project) {
  const Model& m = project.model;
  Json j;
  j[name("format")] = "flexarm-project";
  j[name("schema_version")] = Project::kSchemaVersion;
  j[name("name")] = project.name;
  j[name("description")] = project.description;
  j[name("coupling")] = couplingName(project.coupling);
  j[name("gravity")] = vec3Json(m.gravity);
  j[name("links")] = Json::array();
  for (const Link& l : m.links) {
    Json lj;
    lj[name("links[].name")] = l.name;
    lj[name("links[].length")] = l.length;
    if (l.flex) {
      lj[name("links[].flex")] = flexToJson(*l.flex);
      j[name("links")].push_back(lj);
      continue;
    }
    lj[name("links[].mass")] = l.mass;
    if (l.shape) {
      lj[name("links[].shape")] =
          presetJson(schema::shapePresets()[static_cast<std::size_t>(l.shape->kind)], "links[].shape.type", *l.shape);
    } else {
      lj[name("links[].com")] = vec3Json(l.com);
      lj[name("links[].inertia")] = inertia6Json(l.inertia);
    }
    j[name("links")].push_back(lj);
  }
  j[name("joints")] = Json::array();
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& jt = m.joints[i];
    Json jj;
    jj[name("joints[].name")] = jt.name;
    // A tree's joint names its parent link; a chain's (the previous link, the world for the first) does not.
    const int parent = m.parentOf(static_cast<int>(i));
    if (parent != static_cast<int>(i) - 1 && parent < static_cast<int>(m.links.size()))
      jj[name("joints[].parent")] =
          parent == Joint::kWorld ? std::string("world") : m.links[static_cast<std::size_t>(parent)].name;
    jj[name("joints[].type")] = jointTypeName(jt.type);
    jj[name("joints[].axis")] = vec3Json(jt.axis);
    jj[name("joints[].placement")] = {{name("joints[].placement.xyz"), vec3Json(jt.placement.xyz)},
                                      {name("joints[].placement.rpy"), vec3Json(jt.placement.rpy)}};
    jj[name("joints[].q0")] = jt.q0;
    jj[name("joints[].qd0")] = jt.qd0;
    jj[name("joints[].damping")] = jt.damping;
    jj[name("joints[].mass")] = jt.mass;
    if (jt.flex) {
      Json& fj = jj[name("joints[].flex")];
      writeFields(fj, schema::jointFlexProperties(), *jt.flex);
      if (jt.flex->torsion0 != 0.0) fj[name("joints[].flex.torsion0")] = jt.flex->torsion0;
      if (jt.flex->torsiond0 != 0.0) fj[name("joints[].flex.torsiond0")] = jt.flex->torsiond0;
    }
    Json d;
    d[name("joints[].drive.type")] = driveKindName(jt.drive.kind);
    switch (jt.drive.kind) {
      case JointDrive::Kind::Free: break;
      case JointDrive::Kind::Effort:
      case JointDrive::Kind::Prescribed: writeLaw(d, jt.drive.law); break;
      case JointDrive::Kind::PD: {
        d[name("joints[].drive.kp")] = jt.drive.kp;
        d[name("joints[].drive.kd")] = jt.drive.kd;
        Json sp;
        writeLaw(sp, jt.drive.law);
        d[name("joints[].drive.setpoint")] = sp;
        break;
      }
    }
    jj[name("joints[].drive")] = d;
    if (jt.limits.any()) {
      Json lj = Json::object();
      const std::pair<std::string, const std::optional<double>*> values[] = {
          {name("joints[].limits.lower"), &jt.limits.lower},
          {name("joints[].limits.upper"), &jt.limits.upper},
          {name("joints[].limits.effort"), &jt.limits.effort},
          {name("joints[].limits.velocity"), &jt.limits.velocity}};
      for (const auto& [key, v] : values)
        if (*v) lj[key] = **v;
      jj[name("joints[].limits")] = lj;
    }
    j[name("joints")].push_back(jj);
  }
  j[name("payloads")] = Json::array();
  for (const Payload& p : m.payloads) {
    Json pj;
    pj[name("payloads[].name")] = p.name;
    pj[name("payloads[].link")] =
        (p.link >= 0 && p.link < static_cast<int>(m.links.size())) ? m.links[p.link].name : std::string();
    pj[name("payloads[].frame")] = key("payloads[].frame").choices[static_cast<std::size_t>(p.frame)];
    pj[name("payloads[].offset")] = vec3Json(p.offset);
    pj[name("payloads[].mass")] = p.mass;
    pj[name("payloads[].inertia")] = inertia6Json(p.inertia);
    j[name("payloads")].push_back(pj);
  }
  if (!m.loads.empty()) {
    j[name("loads")] = Json::array();
    for (const Load& load : m.loads) {
      Json lj;
      lj[name("loads[].name")] = load.name;
      lj[name("loads[].link")] =
          (load.link >= 0 && load.link < static_cast<int>(m.links.size())) ? m.links[load.link].name : std::string();
      lj[name("loads[].point")] = vec3Json(load.point);
      lj[name("loads[].force")] = vec3Json(load.force);
      lj[name("loads[].torque")] = vec3Json(load.torque);
      lj[name("loads[].axes")] = key("loads[].axes").choices[static_cast<std::size_t>(load.axes)];
      Json law;
      writeLaw(law, load.law);
      lj[name("loads[].law")] = law;
      j[name("loads")].push_back(lj);
    }
  }
  if (!m.constraints.empty()) {
    j[name("constraints")] = Json::array();
    for (const Constraint& c : m.constraints) {
      Json cj;
      cj[name("constraints[].name")] = c.name;
      cj[name("constraints[].type")] = constraintKindName(c.kind);
      auto linkName = [&] {
        return (c.link >= 0 && c.link < static_cast<int>(m.links.size())) ? m.links[c.link].name : std::string();
      };
      switch (c.kind) {
        case Constraint::Kind::Coordinates: {
          Json terms = Json::object();
          for (const auto& [name, coef] : c.terms) terms[name] = coef;
          cj[name("constraints[].terms")] = terms;
          Json value;
          writeLaw(value, c.value);
          cj[name("constraints[].value")] = value;
          break;
        }
        case Constraint::Kind::Point:
        case Constraint::Kind::Revolute:
        case Constraint::Kind::Prismatic: {
          cj[name("constraints[].link")] = linkName();
          cj[name("constraints[].point")] = vec3Json(c.point);
          if (c.other_link >= 0 && c.other_link < static_cast<int>(m.links.size())) {
            cj[name("constraints[].other_link")] = m.links[static_cast<std::size_t>(c.other_link)].name;
            cj[name("constraints[].other_point")] = vec3Json(c.other_point);
          } else {
            cj[name("constraints[].world")] = vec3Json(c.world);
          }
          if (c.kind != Constraint::Kind::Point) {
            cj[name("constraints[].axis")] = vec3Json(c.axis);
            break;
          }
          std::string axes;
          for (int a = 0; a < 3; ++a)
            if (c.axes[static_cast<std::size_t>(a)]) axes += static_cast<char>('x' + a);
          cj[name("constraints[].axes")] = axes;
          break;
        }
        case Constraint::Kind::SlidingSupport:
          cj[name("constraints[].link")] = linkName();
          cj[name("constraints[].position")] = c.position;
          cj[name("constraints[].clamp_slope")] = c.clamp_slope;
          break;
      }
      j[name("constraints")].push_back(cj);
    }
  }
  if (project.inverse) {
    Json path = Json::object();
    const char* names[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
      if (!project.inverse->path[static_cast<std::size_t>(a)]) continue;
      Json law;
      writeLaw(law, *project.inverse->path[static_cast<std::size_t>(a)]);
      path[names[a]] = law;
    }
    j["inverse_dynamics"] = {{"path", path}};
  }
  if (!project.variants.empty()) {
    j[name("variants")] = Json::array();
    for (const Variant& v : project.variants) {
      Json set = Json::object();
      for (const auto& [path, value] : v.sets) set[path] = Json::parse(value);
      j[name("variants")].push_back({{"name", v.name}, {"set", set}});
    }
  }
  if (project.study) {
    if (!project.study->grid.empty()) {
      Json grid = Json::object();
      for (const auto& [path, values] : project.study->grid) {
        Json arr = Json::array();
        for (const std::string& v : values) arr.push_back(Json::parse(v));
        grid[path] = arr;
      }
      j[name("study")] = {{"grid", grid}};
    } else {
      j[name("study")] = {{"variants", project.study->variants}};
    }
  }
  const SimulationSettings& s = project.simulation;
  j[name("simulation")] = {{name("simulation.t_end"), s.t_end},
                           {name("simulation.output_rate"), s.output_rate},
                           {name("simulation.accuracy"), s.accuracy},
                           {name("simulation.divergence_ratio"), s.divergence_ratio},
                           {name("simulation.solver"),
                            {{name("simulation.solver.method"), methodName(s.method)},
                             {name("simulation.solver.rtol"), s.rtol},
                             {name("simulation.solver.atol"), s.atol},
                             {name("simulation.solver.max_step"), s.max_step},
                             {name("simulation.solver.initial_step"), s.initial_step},
                             {name("simulation.solver.max_steps"), s.max_steps},
                             {name("simulation.solver.max_order"), s.max_order},
                             {name("simulation.solver.jacobian"), jacobianName(s.jacobian)},
                             {name("simulation.solver.rho_inf"), s.rho_inf},
                             {name("simulation.solver.step"), s.step},
                             {name("simulation.solver.newmark"),
                              {{name("simulation.solver.newmark.alpha"), s.newmark_alpha},
                               {name("simulation.solver.newmark.delta"), s.newmark_delta}}},
                             {name("simulation.solver.baumgarte"),
                              {{name("simulation.solver.baumgarte.gamma"), s.baumgarte_gamma},
                               {name("simulation.solver.baumgarte.beta"), s.baumgarte_beta}}}}}};
  if (s.t_start != 0.0) {  // a continued run; written only then, so that other projects' files stay as they were
    Json simulation = {{name("simulation.t_start"), s.t_start}};
    simulation.update(j[name("simulation")]);
    j[name("simulation")] = std::move(simulation);
  }
  return j;
}

bool sameSystem(const Project& a, const Project& b) {
  Json ja = projectToJson(a), jb = projectToJson(b);
  for (const char* key : {"name", "simulation", "inverse_dynamics", "variants", "study"}) {
    ja.erase(key);
    jb.erase(key);
  }
  return ja == jb;
}

std::string projectToText(const Project& project) { return projectToJson(project).dump(2) + "\n"; }

Status saveProjectFile(const Project& project, const std::filesystem::path& file) {
  return writeFileAtomically(file, projectToText(project));
}

}  // namespace flexarm
