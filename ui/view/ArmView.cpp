#include "ui/view/ArmView.hpp"

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkDoubleArray.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkLookupTable.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPlaneSource.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkSphereSource.h>
#include <vtkTubeFilter.h>

#include <QMouseEvent>
#include <QPainter>
#include <QOpenGLWindow>
#include <QHBoxLayout>
#include <QSurfaceFormat>
#include <QWheelEvent>
#include <cmath>
#include <vector>

#include "dynamics/ExternalLoads.hpp"
#include "dynamics/Centreline.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/view/ColourBar.hpp"

namespace flexarm {
namespace {
constexpr int kSamples = 41;  // points along each link's centreline

vtkSmartPointer<vtkMatrix4x4> toVtk(const Eigen::Isometry3d& X) {
  auto m = vtkSmartPointer<vtkMatrix4x4>::New();
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m->SetElement(r, c, X.matrix()(r, c));
  return m;
}

// Rotation taking the y axis (VTK's cylinder axis) onto `axis`.
Eigen::Matrix3d alignY(const Eigen::Vector3d& axis) {
  return Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitY(), axis.normalized()).toRotationMatrix();
}

struct LinkTube {
  vtkSmartPointer<vtkPoints> points;
  vtkSmartPointer<vtkDoubleArray> field;  // curvature or strain at the samples
  vtkSmartPointer<vtkPolyData> line;
  vtkSmartPointer<vtkTubeFilter> tube;
  vtkSmartPointer<vtkPolyDataMapper> mapper;
  vtkSmartPointer<vtkActor> actor;
};

LinkTube makeTube(double radius) {
  LinkTube t;
  t.points = vtkSmartPointer<vtkPoints>::New();
  t.points->SetNumberOfPoints(kSamples);
  t.field = vtkSmartPointer<vtkDoubleArray>::New();
  t.field->SetName("field");
  t.field->SetNumberOfValues(kSamples);
  vtkNew<vtkCellArray> cells;
  cells->InsertNextCell(kSamples);
  for (int k = 0; k < kSamples; ++k) cells->InsertCellPoint(k);
  t.line = vtkSmartPointer<vtkPolyData>::New();
  t.line->SetPoints(t.points);
  t.line->SetLines(cells);
  t.line->GetPointData()->SetScalars(t.field);
  t.tube = vtkSmartPointer<vtkTubeFilter>::New();
  t.tube->SetInputData(t.line);
  t.tube->SetRadius(radius);
  t.tube->SetNumberOfSides(16);
  t.tube->CappingOn();
  t.mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  t.mapper->SetInputConnection(t.tube->GetOutputPort());
  t.actor = vtkSmartPointer<vtkActor>::New();
  t.actor->SetMapper(t.mapper);
  return t;
}

vtkSmartPointer<vtkActor> sourceActor(vtkPolyDataAlgorithm* source, double r, double g, double b) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(source->GetOutputPort());
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(r, g, b);
  return actor;
}
}  // namespace

class ArmView::Window : public QOpenGLWindow {
 public:
  explicit Window(ArmView* view) : view_(view) {}

 protected:
  void initializeGL() override { view_->initializeGL(); }
  void resizeGL(int w, int h) override { view_->resizeGL(w, h); }
  void paintGL() override { view_->paintGL(); }
  void mousePressEvent(QMouseEvent* e) override { view_->mousePress(e); }
  void mouseMoveEvent(QMouseEvent* e) override { view_->mouseMove(e); }
  void wheelEvent(QWheelEvent* e) override { view_->wheel(e); }

 private:
  ArmView* view_;
};

struct ArmView::Scene {
  vtkNew<vtkGenericOpenGLRenderWindow> window;
  vtkNew<vtkRenderer> renderer;
  vtkNew<vtkLookupTable> lut;
  std::vector<LinkTube> links, ghosts;
  std::vector<vtkSmartPointer<vtkActor>> joints, payloads;
  std::vector<vtkSmartPointer<vtkActor>> section_payloads;  // Body::section_masses, body by body
  std::vector<vtkSmartPointer<vtkActor>> loads;             // an arrow per load: its force (else its torque), tip on its point
  std::vector<vtkSmartPointer<vtkAxesActor>> frames;
  std::vector<vtkSmartPointer<vtkActor>> supports;  // sliding supports, fixed in their joint's frame
  std::vector<vtkSmartPointer<vtkActor>> closures;  // loop closures: fixed in the world, or riding on a link
  vtkSmartPointer<vtkActor> grid, base;
  bool gl_ready = false;
};

void ArmView::setDefaultSurfaceFormat() {
  QSurfaceFormat f;
  f.setRenderableType(QSurfaceFormat::OpenGL);
  f.setVersion(3, 2);
  f.setProfile(QSurfaceFormat::CoreProfile);
  f.setDepthBufferSize(24);
  f.setStencilBufferSize(8);
  f.setAlphaBufferSize(8);
  f.setSamples(0);
  f.setSwapInterval(0);  // never wait for a vertical retrace: the timeline paces the frames
  QSurfaceFormat::setDefaultFormat(f);
}

ArmView::ArmView(QWidget* parent) : QWidget(parent), scene_(std::make_unique<Scene>()) {
  Scene& s = *scene_;
  s.window->AddRenderer(s.renderer);
  s.renderer->SetBackground(0.97, 0.97, 0.98);
  s.renderer->SetBackground2(0.80, 0.84, 0.90);
  s.renderer->GradientBackgroundOn();
  s.lut->SetHueRange(0.667, 0.0);  // blue (straight) to red (most curved)
  s.lut->Build();                  // ColourBar::colourAt draws the same hues
  window_ = new Window(this);
  scene_widget_ = QWidget::createWindowContainer(window_, this);
  scene_widget_->setMinimumSize(240, 240);
  scene_widget_->setFocusPolicy(Qt::StrongFocus);
  bar_ = new ColourBar(this);
  bar_->setVisible(false);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(scene_widget_, 1);
  layout->addWidget(bar_);
}

ArmView::~ArmView() {
  if (!scene_->gl_ready) return;
  window_->makeCurrent();
  scene_->renderer->RemoveAllViewProps();
  scene_->window->Finalize();
  window_->doneCurrent();
}

QImage ArmView::grabFramebuffer() { return window_->grabFramebuffer(); }

void ArmView::requestRender() { window_->update(); }

void ArmView::initializeGL() {
  Scene& s = *scene_;
  s.window->SetOwnContext(false);
  s.window->SetIsCurrent(true);
  s.window->SetFrameBlitModeToBlitToCurrent();
  s.window->SetMultiSamples(0);
  s.window->OpenGLInitContext();
  s.gl_ready = true;
}

void ArmView::resizeGL(int w, int h) {
  const double dpr = window_->devicePixelRatio();
  scene_->window->SetSize(static_cast<int>(w * dpr), static_cast<int>(h * dpr));
}

void ArmView::paintGL() {
  Scene& s = *scene_;
  if (!s.gl_ready) return;
  s.window->SetIsCurrent(true);
  s.window->SetReadyForRendering(true);
  s.window->Render();
  s.window->SetReadyForRendering(false);
  ++frames_rendered_;
}

namespace {

// A turn that takes the x axis onto the unit vector d.
Eigen::Matrix3d alongX(const Eigen::Vector3d& d) {
  return Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitX(), d).toRotationMatrix();
}

}  // namespace

std::vector<ArmView::ClosureMark> ArmView::closureMarks(const Model& model, const MultibodySystem& sys,
                                                        const Eigen::VectorXd& q0) {
  std::vector<ClosureMark> marks;
  for (const Constraint& c : model.constraints) {
    if (c.kind != Constraint::Kind::Point && c.kind != Constraint::Kind::Revolute && c.kind != Constraint::Kind::Prismatic)
      continue;
    if (c.link < 0 || c.link >= static_cast<int>(sys.bodies.size())) continue;
    ClosureMark m{std::nullopt, std::nullopt, Eigen::Isometry3d::Identity(), Eigen::Vector3d::Zero()};
    if (c.kind == Constraint::Kind::Point) {  // in the world's axes, or the other link's
      for (int a = 0; a < 3; ++a) m.size(a) = c.axes[static_cast<std::size_t>(a)] ? 1.5 : 12.0;
    } else {  // along the axis: a peg (revolute) or a rail (prismatic)
      m.size = c.kind == Constraint::Kind::Revolute ? Eigen::Vector3d(12.0, 2.5, 2.5) : Eigen::Vector3d(30.0, 1.5, 3.0);
      m.pose.linear() = alongX(c.axis.normalized());
    }
    if (c.other_link >= 0) {
      m.rides.emplace(sys, c.link, c.point);
      if (c.kind == Constraint::Kind::Point)
        m.turns.emplace(sys, c.other_link, c.other_point);
      else
        m.turns = m.rides;
    } else {
      if (c.kind != Constraint::Kind::Point)  // the axis where the link had it in the initial state
        m.pose.linear() = LinkPoint(sys, c.link, c.point).frame(q0).linear() * m.pose.linear();
      m.pose.translation() = c.world;
    }
    marks.push_back(std::move(m));
  }
  return marks;
}

void ArmView::setProject(const Project& project, std::shared_ptr<const MultibodySystem> system, bool keep_camera) {
  const double before = reach_;
  data_.reset();  // before the system it refers to
  system_ = system ? std::move(system) : buildSystem(project);
  supports_.clear();
  for (const Constraint& c : project.model.constraints)
    if (c.kind == Constraint::Kind::SlidingSupport) supports_.push_back({c.link, c.position});
  data_ = std::make_unique<DynamicsData>(*system_);
  Eigen::VectorXd qd;
  system_->initialState(project.model, q_, qd);
  closures_ = closureMarks(project.model, *system_, q_);
  reach_ = 0.0;
  for (const Body& b : system_->bodies) reach_ += std::max(b.length, 0.05);
  // No links yet (the empty chain): a 1 m scene, its grid and the small base where the first joint goes.
  reach_ = system_->bodies.empty() ? 1.0 : std::max(reach_, 0.2);
  swept_radius_ = 0.0;
  colour_floor_ = 0.0;
  rebuildScene();
  resetColourRange();
  updateGeometry();
  if (!keep_camera || frames_rendered_ == 0 || reach_ >= 1.5 * before || reach_ <= before / 3) {
    fitArm();
  } else {
    scene_->renderer->ResetCameraClippingRange();
    requestRender();
  }
}

void ArmView::rebuildScene() {
  Scene& s = *scene_;
  for (auto& t : s.links) s.renderer->RemoveActor(t.actor);
  for (auto& t : s.ghosts) s.renderer->RemoveActor(t.actor);
  for (auto& a : s.joints) s.renderer->RemoveActor(a);
  for (auto& a : s.payloads) s.renderer->RemoveActor(a);
  for (auto& a : s.section_payloads) s.renderer->RemoveActor(a);
  for (auto& a : s.loads) s.renderer->RemoveActor(a);
  for (auto& a : s.frames) s.renderer->RemoveActor(a);
  for (auto& a : s.supports) s.renderer->RemoveActor(a);
  for (auto& a : s.closures) s.renderer->RemoveActor(a);
  if (s.grid) s.renderer->RemoveActor(s.grid);
  if (s.base) s.renderer->RemoveActor(s.base);
  s.links.clear();
  s.ghosts.clear();
  s.joints.clear();
  s.payloads.clear();
  s.section_payloads.clear();
  s.loads.clear();
  s.frames.clear();
  s.supports.clear();
  s.closures.clear();
  const double radius = 0.008 * reach_;
  for (const ClosureMark& m : closures_) {
    // A pin of a planar mechanism (x and y held) is a peg along z, a roller (y held) a plate in x and z.
    vtkNew<vtkCubeSource> c;
    c->SetXLength(m.size.x() * radius);
    c->SetYLength(m.size.y() * radius);
    c->SetZLength(m.size.z() * radius);
    auto a = sourceActor(c, 0.30, 0.33, 0.36);
    a->SetUserMatrix(toVtk(m.pose));
    s.renderer->AddActor(a);
    s.closures.push_back(a);
  }
  for (std::size_t k = 0; k < supports_.size(); ++k) {
    vtkNew<vtkCubeSource> c;  // a sleeve around the beam
    c->SetXLength(3.0 * radius);
    c->SetYLength(5.0 * radius);
    c->SetZLength(5.0 * radius);
    auto a = sourceActor(c, 0.95, 0.70, 0.10);
    a->GetProperty()->SetOpacity(0.85);
    s.renderer->AddActor(a);
    s.supports.push_back(a);
  }
  for (const Body& b : system_->bodies) {
    LinkTube t = makeTube(radius);
    t.mapper->SetLookupTable(s.lut);
    t.mapper->SetScalarVisibility(b.isFlexible() && colouring_ != Colouring::None);
    t.actor->GetProperty()->SetColor(0.55, 0.58, 0.62);
    t.actor->GetProperty()->SetSpecular(0.3);
    s.renderer->AddActor(t.actor);
    s.links.push_back(t);
    // The ghost (the undeformed arm) and the grid are opaque in pale colours rather than translucent:
    // one translucent actor makes VTK add its order-independent transparency passes, which took 13 of
    // the 20 ms of a software-rendered frame during a run. Thinner than the link, the ghost shows
    // where the deformed link leaves it.
    LinkTube g = makeTube(radius * 0.85);
    g.mapper->ScalarVisibilityOff();
    g.actor->GetProperty()->SetColor(0.70, 0.71, 0.75);
    g.actor->SetVisibility(ghost_);
    s.renderer->AddActor(g.actor);
    s.ghosts.push_back(g);

    vtkSmartPointer<vtkActor> joint;
    if (b.joint_type == JointType::Revolute) {
      vtkNew<vtkCylinderSource> c;
      c->SetRadius(2.2 * radius);
      c->SetHeight(5.0 * radius);
      c->SetResolution(24);
      joint = sourceActor(c, 0.20, 0.45, 0.80);
    } else {
      vtkNew<vtkCubeSource> c;
      c->SetXLength(4.0 * radius);
      c->SetYLength(6.0 * radius);
      c->SetZLength(4.0 * radius);
      joint = sourceActor(c, 0.85, 0.55, 0.15);
    }
    if (b.hasFlexibleJoint()) joint->GetProperty()->SetColor(0.55, 0.25, 0.75);
    s.renderer->AddActor(joint);
    s.joints.push_back(joint);

    auto payloadSphere = [&] {
      vtkNew<vtkSphereSource> sp;
      sp->SetRadius(2.5 * radius);
      sp->SetThetaResolution(24);
      sp->SetPhiResolution(16);
      return sourceActor(sp, 0.85, 0.25, 0.20);
    };
    if (b.distal_mass > 0.0 || b.mass > 0.0) {
      auto a = payloadSphere();
      a->SetVisibility(b.distal_mass > 0.0);
      s.renderer->AddActor(a);
      s.payloads.push_back(a);
    } else {
      s.payloads.push_back(nullptr);
    }
    for (std::size_t k = 0; k < b.section_masses.size(); ++k) {
      auto a = payloadSphere();
      s.renderer->AddActor(a);
      s.section_payloads.push_back(a);
    }
    auto axes = vtkSmartPointer<vtkAxesActor>::New();
    axes->SetTotalLength(0.1 * reach_, 0.1 * reach_, 0.1 * reach_);
    axes->AxisLabelsOff();
    axes->SetVisibility(frames_);
    s.renderer->AddActor(axes);
    s.frames.push_back(axes);
  }
  for (const LoadPoint& lp : system_->loads) {
    vtkNew<vtkArrowSource> arrow;  // along +x from 0 to 1
    arrow->SetTipResolution(16);
    arrow->SetShaftResolution(12);
    const bool force = !lp.force.isZero(0.0);
    auto a = force ? sourceActor(arrow, 0.10, 0.60, 0.25) : sourceActor(arrow, 0.60, 0.20, 0.70);
    a->SetScale(0.15 * reach_);
    s.renderer->AddActor(a);
    s.loads.push_back(a);
  }
  vtkNew<vtkCubeSource> base;
  base->SetXLength(6 * radius);
  base->SetYLength(6 * radius);
  base->SetZLength(6 * radius);
  s.base = sourceActor(base, 0.25, 0.25, 0.28);
  s.renderer->AddActor(s.base);
  vtkNew<vtkPlaneSource> plane;
  plane->SetOrigin(-reach_ * 1.3, -reach_ * 1.3, -reach_ * 0.35);
  plane->SetPoint1(reach_ * 1.3, -reach_ * 1.3, -reach_ * 0.35);
  plane->SetPoint2(-reach_ * 1.3, reach_ * 1.3, -reach_ * 0.35);
  plane->SetResolution(20, 20);
  s.grid = sourceActor(plane, 0.66, 0.68, 0.72);  // opaque (see the ghost above), pale
  s.grid->GetProperty()->SetRepresentationToWireframe();
  s.grid->GetProperty()->LightingOff();
  s.renderer->AddActor(s.grid);
}

void ArmView::updateGeometry() {
  if (!system_) return;
  Scene& s = *scene_;
  const MultibodySystem& sys = *system_;
  // Drawn state: the elastic coordinates scaled so that small deflections can be seen.
  Eigen::VectorXd shown = q_;
  for (int i = 0; i < sys.nq; ++i)
    if (sys.coordinates.kinds[i] == CoordinateKind::Elastic) shown(i) *= scale_;
  Eigen::VectorXd rigid = q_;
  for (int i = 0; i < sys.nq; ++i)
    if (sys.coordinates.kinds[i] == CoordinateKind::Elastic) rigid(i) = 0.0;

  const auto ghost_lines = deformedCentrelines(sys, *data_, rigid, kSamples);
  const auto lines = deformedCentrelines(sys, *data_, shown, kSamples);  // leaves the frames of `shown` in data_
  const bool strain = colouring_ == Colouring::Strain;
  const auto field = sampleLinkField(sys, q_, kSamples, strain ? LinkField::Strain : LinkField::Curvature);
  // The colour range only grows (to a 1-2-5 step above the largest value shown since the project or
  // the colouring changed): colours stay comparable between frames, and the bar's labels are not
  // re-rendered on every frame.
  double fmax = 0.0;
  for (const auto& c : field)
    for (double k : c) fmax = std::max(fmax, k);
  if (fmax > colour_range_) {
    const double decade = std::pow(10.0, std::floor(std::log10(fmax)));
    setColourRange(fmax <= decade ? decade : fmax <= 2 * decade ? 2 * decade : fmax <= 5 * decade ? 5 * decade : 10 * decade);
    emit colourRangeChanged(colour_range_);
  }
  bar_->setScale(strain ? "strain [-]" : "curvature [1/m]", colour_range_, strain);
  bar_->setVisible(colouring_ != Colouring::None && !sys.isRigid());
  const Eigen::Vector3d centre = envelope().centre;
  for (const auto& line : lines)
    for (const Eigen::Vector3d& p : line) swept_radius_ = std::max(swept_radius_, (p - centre).norm());
  std::size_t section_payload = 0;  // the next of s.section_payloads
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    for (int k = 0; k < kSamples; ++k) {
      const Eigen::Vector3d& p = lines[i][k];
      s.links[i].points->SetPoint(k, p.x(), p.y(), p.z());
      s.links[i].field->SetValue(k, field[i][k]);
      const Eigen::Vector3d& g = ghost_lines[i][k];
      s.ghosts[i].points->SetPoint(k, g.x(), g.y(), g.z());
    }
    s.links[i].points->Modified();
    s.links[i].field->Modified();
    s.ghosts[i].points->Modified();
    const Body& b = sys.bodies[i];
    const Eigen::Isometry3d X_parent =
        b.parent < 0 ? Eigen::Isometry3d::Identity() : data_->frames[static_cast<std::size_t>(b.parent)].X_world_distal;
    Eigen::Isometry3d X_joint = X_parent * b.placement;
    Eigen::Isometry3d X_part = X_joint;
    X_part.linear() = X_joint.linear() * alignY(b.axis);
    s.joints[i]->SetUserMatrix(toVtk(X_part));
    if (s.payloads[i]) s.payloads[i]->SetUserMatrix(toVtk(data_->frames[i].X_world_distal * Eigen::Translation3d(b.distal_com)));
    for (std::size_t k = 0; k < b.section_masses.size(); ++k, ++section_payload) {
      const Body::SectionMass& sm = b.section_masses[k];
      const Eigen::Isometry3d X = data_->frames[i].X_world_body *
                                  sm.section.pose(shown.segment(b.e_index, b.e_count), sys.coupling == CouplingOrder::High) *
                                  Eigen::Translation3d(sm.com);
      s.section_payloads[section_payload]->SetUserMatrix(toVtk(X));
    }
    s.frames[i]->SetUserMatrix(toVtk(data_->frames[i].X_world_body));
    for (std::size_t k = 0; k < supports_.size(); ++k)
      if (supports_[k].body == static_cast<int>(i))
        s.supports[k]->SetUserMatrix(toVtk(X_joint * Eigen::Translation3d(supports_[k].position * b.axis)));
  }
  for (std::size_t k = 0; k < closures_.size() && k < s.closures.size(); ++k) {
    const ClosureMark& m = closures_[k];
    if (!m.rides) continue;
    Eigen::Isometry3d X = m.rides->frame(shown);
    X.linear() = m.turns->frame(shown).linear() * m.pose.linear();
    s.closures[k]->SetUserMatrix(toVtk(X));
  }
  // Each load's arrow ends on its point (a force pushes there); a torque's starts there, along its axis.
  for (std::size_t k = 0; k < s.loads.size() && k < sys.loads.size(); ++k) {
    const LoadState st = loadState(sys, *data_, LoadFrames::Equations, static_cast<int>(k), 0.0, shown);
    const bool force = !st.force.isZero(0.0);
    const Eigen::Vector3d v = force ? st.force : st.torque;
    s.loads[k]->SetVisibility(!v.isZero(0.0));
    if (v.isZero(0.0)) continue;
    const Eigen::Vector3d d = v.normalized();
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    X.linear() = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitX(), d).toRotationMatrix();
    X.translation() = force ? Eigen::Vector3d(st.position - 0.15 * reach_ * d) : st.position;
    s.loads[k]->SetUserMatrix(toVtk(X));
  }
  requestRender();
}

void ArmView::showState(const Eigen::VectorXd& q) {
  if (!system_ || q.size() != system_->nq) return;
  q_ = q;
  updateGeometry();
}

Eigen::Vector3d ArmView::drawnTip(int link) const {
  double p[3];
  scene_->links.at(static_cast<std::size_t>(link)).points->GetPoint(kSamples - 1, p);
  return Eigen::Vector3d(p[0], p[1], p[2]);
}

std::vector<Eigen::Vector3d> ArmView::drawnSectionPayloads() const {
  std::vector<Eigen::Vector3d> out;
  for (const auto& a : scene_->section_payloads) {
    vtkMatrix4x4* m = a->GetUserMatrix();
    out.emplace_back(m->GetElement(0, 3), m->GetElement(1, 3), m->GetElement(2, 3));
  }
  return out;
}

void ArmView::setDeformationScale(double scale) {
  scale_ = std::clamp(scale, 1.0, 1000.0);
  swept_radius_ = 0.0;  // the envelope is of what is drawn at this scale
  updateGeometry();
}

void ArmView::setGhostVisible(bool visible) {
  ghost_ = visible;
  for (auto& g : scene_->ghosts) g.actor->SetVisibility(visible);
  requestRender();
}

void ArmView::setFramesVisible(bool visible) {
  frames_ = visible;
  for (auto& a : scene_->frames) a->SetVisibility(visible);
  requestRender();
}

void ArmView::resetColourRange() {
  setColourRange(colouring_ == Colouring::Strain ? 1e-9 : 1e-6);  // the smallest range shown
}

void ArmView::setColourRange(double upper) {
  colour_range_ = std::max(upper, colour_floor_);
  scene_->lut->SetTableRange(0.0, colour_range_);
  for (auto& t : scene_->links) t.mapper->SetScalarRange(0.0, colour_range_);
}

void ArmView::setColourFloor(double floor) {
  const bool lowered = floor < colour_floor_;
  colour_floor_ = floor;
  if (lowered)
    resetColourRange();  // the view's own range, from the state it shows
  else if (floor > colour_range_)
    setColourRange(floor);
  else
    return;
  updateGeometry();
}

void ArmView::setColouring(Colouring colouring) {
  colouring_ = colouring;
  resetColourRange();
  if (system_)
    for (std::size_t i = 0; i < scene_->links.size(); ++i)
      scene_->links[i].mapper->SetScalarVisibility(colouring != Colouring::None && system_->bodies[i].isFlexible());
  updateGeometry();
}

void ArmView::viewPreset(Preset preset) {
  vtkCamera* cam = scene_->renderer->GetActiveCamera();
  cam->SetFocalPoint(0, 0, 0);
  switch (preset) {
    case Preset::Front:
      cam->SetPosition(0, -1, 0);
      cam->SetViewUp(0, 0, 1);
      break;
    case Preset::Top:
      cam->SetPosition(0, 0, 1);
      cam->SetViewUp(0, 1, 0);
      break;
    case Preset::Iso:
      cam->SetPosition(1, -1.2, 0.8);
      cam->SetViewUp(0, 0, 1);
      break;
  }
  fitArm();
}

ArmView::Envelope ArmView::Envelope::united(const Envelope& other) const {
  const double d = (other.centre - centre).norm();
  if (d + other.radius <= radius) return *this;
  if (d + radius <= other.radius) return other;
  const double r = 0.5 * (d + radius + other.radius);
  return {centre + (other.centre - centre) * ((r - radius) / d), r};
}

ArmView::Envelope ArmView::envelope() const {
  Envelope e;
  if (system_ && !system_->bodies.empty()) e.centre = system_->bodies.front().placement.translation();
  // Joints (2.2 tube radii), payloads (2.5) and the base (3) stand out of the links' centrelines by at
  // most 3 tube radii, 0.024 of the reach.
  e.radius = std::max(reach_, swept_radius_) + 0.03 * reach_;
  return e;
}

void ArmView::fitEnvelope(const Envelope& e) {
  if (QLayout* l = layout()) l->activate();  // the scene's size with the colour bar as it is now shown
  vtkCamera* cam = scene_->renderer->GetActiveCamera();
  double fp[3], pos[3];
  cam->GetFocalPoint(fp);
  cam->GetPosition(pos);
  Eigen::Vector3d back(pos[0] - fp[0], pos[1] - fp[1], pos[2] - fp[2]);
  if (back.norm() < 1e-12) back = Eigen::Vector3d::UnitZ();
  back.normalize();
  // The half-angle that sees least: the vertical one, or the horizontal one in a tall view.
  const double aspect = sceneAspect();
  const double half_v = cam->GetViewAngle() * M_PI / 360.0;
  const double half = std::min(half_v, std::atan(std::tan(half_v) * aspect));
  const double distance = 1.04 * e.radius / std::sin(half);  // a little room at the edges
  const Eigen::Vector3d at = e.centre + distance * back;
  cam->SetFocalPoint(e.centre.x(), e.centre.y(), e.centre.z());
  cam->SetPosition(at.x(), at.y(), at.z());
  scene_->renderer->ResetCameraClippingRange();
  requestRender();
  emit cameraChanged();
}

void ArmView::fitArm() { fitEnvelope(envelope()); }

double ArmView::sceneAspect() const {
  return static_cast<double>(std::max(scene_widget_->width(), 1)) / std::max(scene_widget_->height(), 1);
}

bool ArmView::inView(const Eigen::Vector3d& p) const {
  const double aspect = sceneAspect();
  vtkMatrix4x4* m = scene_->renderer->GetActiveCamera()->GetCompositeProjectionTransformMatrix(aspect, -1, 1);
  const double in[4] = {p.x(), p.y(), p.z(), 1.0};
  double out[4];
  m->MultiplyPoint(in, out);
  return out[3] > 0 && std::abs(out[0] / out[3]) <= 1.0 && std::abs(out[1] / out[3]) <= 1.0;
}

Eigen::Vector3d ArmView::cameraPosition() const {
  double p[3];
  scene_->renderer->GetActiveCamera()->GetPosition(p);
  return {p[0], p[1], p[2]};
}

void ArmView::setCameraFrom(const ArmView& other) {
  if (&other == this) return;
  vtkCamera* from = other.scene_->renderer->GetActiveCamera();
  vtkCamera* to = scene_->renderer->GetActiveCamera();
  to->SetPosition(from->GetPosition());
  to->SetFocalPoint(from->GetFocalPoint());
  to->SetViewUp(from->GetViewUp());
  to->SetViewAngle(from->GetViewAngle());
  scene_->renderer->ResetCameraClippingRange();
  requestRender();
}

QImage grabWithViews(QWidget* widget, const std::vector<ArmView*>& views) {
  QImage image = widget->grab().toImage();
  QPainter painter(&image);
  for (ArmView* v : views) {
    if (!v->isVisible()) continue;
    QWidget* scene = v->sceneWidget();
    const QPoint at = scene->mapTo(widget, QPoint(0, 0));
    painter.drawImage(QRectF(at, QSizeF(scene->size())), v->grabFramebuffer());
  }
  return image;
}

void ArmView::mousePress(QMouseEvent* e) { last_mouse_ = e->position().toPoint(); }

void ArmView::mouseMove(QMouseEvent* e) {
  const QPoint p = e->position().toPoint();
  const QPoint d = p - last_mouse_;
  last_mouse_ = p;
  vtkCamera* cam = scene_->renderer->GetActiveCamera();
  if ((e->buttons() & Qt::MiddleButton) || ((e->buttons() & Qt::LeftButton) && (e->modifiers() & Qt::ShiftModifier))) {
    // Pan: move camera and focal point in the view plane.
    double fp[3], pos[3], up[3];
    cam->GetFocalPoint(fp);
    cam->GetPosition(pos);
    cam->GetViewUp(up);
    const Eigen::Vector3d f(fp[0], fp[1], fp[2]), c(pos[0], pos[1], pos[2]), u(up[0], up[1], up[2]);
    const Eigen::Vector3d view = (f - c).normalized(), right = view.cross(u).normalized(), upv = right.cross(view);
    const double scale =
        (f - c).norm() * 2.0 * std::tan(cam->GetViewAngle() * 3.14159265358979 / 360.0) / std::max(window_->height(), 1);
    const Eigen::Vector3d shift = (-d.x() * right + d.y() * upv) * scale;
    const Eigen::Vector3d nf = f + shift, nc = c + shift;
    cam->SetFocalPoint(nf.x(), nf.y(), nf.z());
    cam->SetPosition(nc.x(), nc.y(), nc.z());
  } else if (e->buttons() & Qt::LeftButton) {
    cam->Azimuth(-0.4 * d.x());
    cam->Elevation(0.4 * d.y());
    cam->OrthogonalizeViewUp();
  } else if (e->buttons() & Qt::RightButton) {
    cam->Dolly(std::pow(1.01, -d.y()));
  }
  scene_->renderer->ResetCameraClippingRange();
  requestRender();
  emit cameraChanged();
}

void ArmView::wheel(QWheelEvent* e) {
  scene_->renderer->GetActiveCamera()->Dolly(std::pow(1.0015, e->angleDelta().y()));
  scene_->renderer->ResetCameraClippingRange();
  requestRender();
  emit cameraChanged();
}

}  // namespace flexarm
