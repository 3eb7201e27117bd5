#pragma once
// The numbers of a URDF's <inertial> elements, read strictly before urdfdom reads them. urdfdom
// logs what it cannot read there and goes on with zeros (a mass of "1.5kg" became "mass must be
// > 0, got 0"; a missing <inertia> a link with no rotational inertia, silently). Here a mass, an
// inertia component or an origin that is not a finite decimal number is an error naming the link,
// the attribute and the text found; an <inertial> without <inertia> is a warning (a point mass).
#include "io/Diagnostics.hpp"

class TiXmlElement;

namespace flexarm {

// Checks the <inertial> of every <link> under `robot` (the document's <robot> element).
void checkInertialText(const TiXmlElement& robot, Diagnostics& diag);

}  // namespace flexarm
