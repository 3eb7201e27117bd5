#pragma once
// The 3D view of the arm: VTK rendered inside a Qt6 QOpenGLWidget through a
// vtkGenericOpenGLRenderWindow (Debian's VTK Qt module is built for Qt5, so the bridge is here).
// Links are tubes along their deformed centrelines, coloured by bending curvature; joints are
// cylinders (revolute) or boxes (prismatic) on their axes; payloads are spheres; the undeformed arm
// can be shown as a translucent ghost. The view observes states; it never owns or computes results.
#include <QOpenGLWidget>
#include <QPoint>
#include <memory>

#include "dynamics/DynamicsData.hpp"
#include "model/Project.hpp"

namespace flexarm {

class ArmView : public QOpenGLWidget {
  Q_OBJECT
 public:
  enum class Preset { Front, Top, Iso };

  explicit ArmView(QWidget* parent = nullptr);
  ~ArmView() override;

  // A new arm: drawn undeformed at its initial configuration, camera fitted.
  void setProject(const Project& project);
  // Draws the arm at full coordinates q (joint, motor and elastic, as in the system's layout).
  void showState(const Eigen::VectorXd& q);
  const Eigen::VectorXd& state() const { return q_; }

  void setDeformationScale(double scale);  // elastic deformation drawn scale times larger
  double deformationScale() const { return scale_; }
  void setGhostVisible(bool visible);
  void setFramesVisible(bool visible);
  void setCurvatureColouring(bool on);
  void viewPreset(Preset preset);
  void fitArm();

  // World position of a link's drawn tip (deformation scaled), for tests and read-outs.
  Eigen::Vector3d drawnTip(int link) const;
  // The OpenGL format VTK needs (3.2 core); set as the default before QApplication exists.
  static void setDefaultSurfaceFormat();

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;

 private:
  void rebuildScene();
  void updateGeometry();
  struct Scene;
  std::unique_ptr<Scene> scene_;
  std::unique_ptr<MultibodySystem> system_;
  std::unique_ptr<DynamicsData> data_;
  Eigen::VectorXd q_;
  double scale_ = 1.0;
  double reach_ = 1.0;
  bool ghost_ = true, frames_ = false, curvature_ = true;
  QPoint last_mouse_;
};

}  // namespace flexarm
