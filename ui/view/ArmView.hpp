#pragma once
// The 3D view of the arm: VTK rendered through a vtkGenericOpenGLRenderWindow into a Qt6
// QOpenGLWindow embedded with QWidget::createWindowContainer (Debian's VTK Qt module is built for
// Qt5, so the bridge is here). A native GL child window, rather than a QOpenGLWidget, spares the
// software renderer the composition of the whole main window on every frame.
// Links are tubes along their deformed centrelines, coloured by bending curvature or by surface
// strain magnitude (with a colour bar beside the scene, ColourBar); joints are
// cylinders (revolute) or boxes (prismatic) on their axes; payloads are spheres; the undeformed arm
// can be shown as a translucent ghost. The view observes states; it never owns or computes results.
#include <QImage>
#include <QWidget>
#include <QPoint>
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "dynamics/DynamicsData.hpp"
#include "dynamics/LinkPoint.hpp"
#include "model/Project.hpp"

namespace flexarm {

class ColourBar;

class ArmView : public QWidget {
  Q_OBJECT
 public:
  enum class Preset { Front, Top, Iso };

  explicit ArmView(QWidget* parent = nullptr);
  ~ArmView() override;

  // A new arm: drawn undeformed at its initial configuration, the camera fitted to it. With
  // keep_camera (an edit of the same arm) the user's view stays, unless the arm's reach grew by half
  // or shrank to a third, where the view would lose the arm or show a speck. `system` is the project's
  // (the document's or the run session's); when null the view builds it (buildSystem).
  void setProject(const Project& project, std::shared_ptr<const MultibodySystem> system = nullptr, bool keep_camera = false);
  double reach() const { return reach_; }  // summed link lengths of the arm drawn [m]
  // Draws the arm at full coordinates q (joint, motor and elastic, as in the system's layout).
  void showState(const Eigen::VectorXd& q);
  const Eigen::VectorXd& state() const { return q_; }

  void setDeformationScale(double scale);  // elastic deformation drawn scale times larger
  double deformationScale() const { return scale_; }
  void setGhostVisible(bool visible);
  void setFramesVisible(bool visible);
  enum class Colouring { None, Curvature, Strain };
  void setColouring(Colouring colouring);
  Colouring colouring() const { return colouring_; }
  void viewPreset(Preset preset);

  // The ball the arm can sweep: about its first joint, as large as the arm's reach or the farthest
  // point drawn since the project or the deformation scale was set (a prismatic stroke, a scaled
  // deformation), whichever is
  // larger, with room for the joints and payloads drawn around the links.
  struct Envelope {
    Eigen::Vector3d centre = Eigen::Vector3d::Zero();
    double radius = 1.0;
    Envelope united(const Envelope& other) const;  // the smallest ball holding both
  };
  Envelope envelope() const;
  // The camera, looking in its current direction, placed so that the envelope fills the view without
  // leaving it at the view's aspect (the colour bar beside the scene taken away).
  void fitEnvelope(const Envelope& e);
  void fitArm();  // fitEnvelope(envelope())
  // True when world point p is inside the camera's view of the scene.
  bool inView(const Eigen::Vector3d& p) const;

  // The colour bar's upper end never falls below `floor` (0: the view's own range): views that share
  // one range (compare mode) set each other's floor from colourRangeChanged.
  void setColourFloor(double floor);
  double colourRange() const { return colour_range_; }
  ColourBar* colourBar() const { return bar_; }
  QWidget* sceneWidget() const { return scene_widget_; }  // the native GL scene, beside the colour bar

  Eigen::Vector3d cameraPosition() const;
  // Takes the other view's camera (position, focal point, view-up, angle): synchronized views.
  void setCameraFrom(const ArmView& other);

  // The view's current image (renders a frame); for tests and screenshots.
  QImage grabFramebuffer();
  // Frames rendered so far (paintGL calls that drew the scene).
  long long framesRendered() const { return frames_rendered_; }
  // World position of a link's drawn tip (deformation scaled), for tests and read-outs.
  Eigen::Vector3d drawnTip(int link) const;
  // World positions of the payloads drawn on sections of flexible links, body by body.
  std::vector<Eigen::Vector3d> drawnSectionPayloads() const;
  // The OpenGL format VTK needs (3.2 core); set as the default before QApplication exists.
  static void setDefaultSurfaceFormat();

 signals:
  void cameraChanged();                   // the user moved the camera (orbit, pan, zoom, preset, fit)
  void colourRangeChanged(double upper);  // the colour range grew to show the states drawn

 private:
  class Window;  // the QOpenGLWindow; forwards its GL callbacks and mouse events here
  friend class Window;
  void initializeGL();
  void resizeGL(int w, int h);
  void paintGL();
  void mousePress(QMouseEvent* e);
  void mouseMove(QMouseEvent* e);
  void wheel(QWheelEvent* e);
  void requestRender();
  void resetColourRange();
  void setColourRange(double upper);
  double sceneAspect() const;  // width / height of the scene beside the colour bar

  void rebuildScene();
  void updateGeometry();
  struct Scene;
  std::unique_ptr<Scene> scene_;
  Window* window_ = nullptr;         // owned by its container widget
  QWidget* scene_widget_ = nullptr;  // the container of window_
  ColourBar* bar_ = nullptr;
  std::shared_ptr<const MultibodySystem> system_;  // shared, never changed
  std::unique_ptr<DynamicsData> data_;
  Eigen::VectorXd q_;
  struct SupportMark {
    int body;         // the link that slides through it
    double position;  // along its joint axis, in the joint frame [m]
  };
  std::vector<SupportMark> supports_;
  // A loop closure (point, revolute, prismatic): a block at its point, thin along the directions it holds
  // and long along those it leaves free (a pin is a peg along its axis, a slider a rail).
  struct ClosureMark {
    std::optional<LinkPoint> rides;  // between two links: the block rides on the link's point
    std::optional<LinkPoint> turns;  // and turns with this point's frame (the other link's for a point closure)
    Eigen::Isometry3d pose;          // fixed in the world; when it rides, its turn in that frame
    Eigen::Vector3d size;            // along the block's axes, in tube radii
  };
  static std::vector<ClosureMark> closureMarks(const Model& model, const MultibodySystem& sys, const Eigen::VectorXd& q0);
  std::vector<ClosureMark> closures_;
  double scale_ = 1.0;
  double reach_ = 1.0;
  bool ghost_ = true, frames_ = false;
  Colouring colouring_ = Colouring::Curvature;
  double colour_range_ = 1e-6;  // upper end of the colour bar
  double colour_floor_ = 0.0;   // shared with other views (compare mode)
  double swept_radius_ = 0.0;   // the farthest point drawn from the first joint since setProject [m]
  QPoint last_mouse_;
  long long frames_rendered_ = 0;
};

// The widget as the user sees it: its own grab with the native GL windows of `views` (children of it)
// drawn in (a widget grab leaves them blank).
QImage grabWithViews(QWidget* widget, const std::vector<ArmView*>& views);

}  // namespace flexarm
