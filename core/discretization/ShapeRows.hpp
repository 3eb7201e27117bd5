#pragma once
// Shape functions of one flexible link evaluated at one station x: each field is a row vector
// over the link's elastic coordinates e, so that u(x) = u.dot(e), v'(x) = v1.dot(e), ...
#include <Eigen/Core>

namespace flexarm {

struct ShapeRows {
  Eigen::RowVectorXd u, u1;      // axial displacement and its x-derivative
  Eigen::RowVectorXd v, v1, v2;  // deflection along y, slope, curvature
  Eigen::RowVectorXd w, w1, w2;  // deflection along z, slope, curvature
  Eigen::RowVectorXd phi, phi1;  // twist about x and its x-derivative

  void resize(int m) {
    for (Eigen::RowVectorXd* r : {&u, &u1, &v, &v1, &v2, &w, &w1, &w2, &phi, &phi1}) r->setZero(m);
  }
};

}  // namespace flexarm
