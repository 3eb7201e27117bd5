#include "paraview/ArmSnapshot.hpp"

#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkStringArray.h>

#include "dynamics/Centreline.hpp"

namespace flexarm {
namespace {

vtkSmartPointer<vtkDoubleArray> doubleArray(const char* name, int components) {
  auto a = vtkSmartPointer<vtkDoubleArray>::New();
  a->SetName(name);
  a->SetNumberOfComponents(components);
  return a;
}

vtkSmartPointer<vtkIntArray> intArray(const char* name) {
  auto a = vtkSmartPointer<vtkIntArray>::New();
  a->SetName(name);
  return a;
}

template <class Names>
vtkSmartPointer<vtkStringArray> namesArray(const char* name, const Names& items) {
  auto a = vtkSmartPointer<vtkStringArray>::New();
  a->SetName(name);
  for (const auto& item : items) a->InsertNextValue(item.name);
  return a;
}

}  // namespace

vtkSmartPointer<vtkPolyData> armSnapshot(const Model& model, const MultibodySystem& sys, DynamicsData& data,
                                         const Eigen::VectorXd& q, double t, int samples) {
  Eigen::VectorXd undeformed = q;
  for (int i = 0; i < sys.nq; ++i)
    if (sys.coordinates.kinds[static_cast<std::size_t>(i)] == CoordinateKind::Elastic) undeformed(i) = 0.0;
  const auto ghost = deformedCentrelines(sys, data, undeformed, samples);
  const auto lines = deformedCentrelines(sys, data, q, samples);  // leaves the frames of q in data
  const auto curvature = sampleLinkField(sys, q, samples, LinkField::Curvature);
  const auto strain = sampleLinkField(sys, q, samples, LinkField::Strain);

  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();  // the tip to the last digit of the results
  auto displacement = doubleArray("displacement", 3);
  auto kappa = doubleArray("curvature", 1);
  auto surface = doubleArray("strain", 1);
  auto link_id = intArray("link_id");
  auto kind = intArray("kind");
  auto polylines = vtkSmartPointer<vtkCellArray>::New();
  auto vertices = vtkSmartPointer<vtkCellArray>::New();
  auto addPoint = [&](const Eigen::Vector3d& p, const Eigen::Vector3d& d, double k, double s, int link, SnapshotPointKind what) {
    const vtkIdType id = points->InsertNextPoint(p.data());
    displacement->InsertNextTuple3(d.x(), d.y(), d.z());
    kappa->InsertNextValue(k);
    surface->InsertNextValue(s);
    link_id->InsertNextValue(link);
    kind->InsertNextValue(static_cast<int>(what));
    return id;
  };

  for (std::size_t i = 0; i < lines.size(); ++i) {
    polylines->InsertNextCell(static_cast<vtkIdType>(lines[i].size()));
    for (std::size_t k = 0; k < lines[i].size(); ++k)
      polylines->InsertCellPoint(addPoint(lines[i][k], lines[i][k] - ghost[i][k], curvature[i][k], strain[i][k],
                                          static_cast<int>(i), SnapshotPointKind::Centreline));
  }
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    const Eigen::Isometry3d X_parent = i == 0 ? Eigen::Isometry3d::Identity() : data.frames[i - 1].X_world_distal;
    const Eigen::Vector3d at = (X_parent * sys.bodies[i].placement).translation();
    vertices->InsertNextCell(1);
    vertices->InsertCellPoint(addPoint(at, zero, 0.0, 0.0, static_cast<int>(i), SnapshotPointKind::Joint));
  }
  for (const Payload& p : model.payloads) {
    const BodyFrames& f = data.frames[static_cast<std::size_t>(p.link)];
    const Eigen::Vector3d at = (p.frame == Payload::Frame::Body ? f.X_world_body : f.X_world_distal) * p.offset;
    vertices->InsertNextCell(1);
    vertices->InsertCellPoint(addPoint(at, zero, 0.0, 0.0, p.link, SnapshotPointKind::Payload));
  }

  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetLines(polylines);
  poly->SetVerts(vertices);
  for (vtkDataArray* a :
       {static_cast<vtkDataArray*>(displacement), static_cast<vtkDataArray*>(kappa), static_cast<vtkDataArray*>(surface),
        static_cast<vtkDataArray*>(link_id), static_cast<vtkDataArray*>(kind)})
    poly->GetPointData()->AddArray(a);
  poly->GetPointData()->SetActiveVectors("displacement");
  auto time = doubleArray("TimeValue", 1);
  time->InsertNextValue(t);
  poly->GetFieldData()->AddArray(time);
  poly->GetFieldData()->AddArray(namesArray("link_names", model.links));
  poly->GetFieldData()->AddArray(namesArray("joint_names", model.joints));
  poly->GetFieldData()->AddArray(namesArray("payload_names", model.payloads));
  return poly;
}

}  // namespace flexarm
