#pragma once
// The Help menu's windows: About (FlexArm's version, the dependencies it is built on and their
// licences), the user guide (the documentation's getting-started tutorial, its guide to the workbench
// and the project format, compiled into the program so that they ship with it, each with its contents
// and a search field) and the keyboard shortcuts (every shortcut of the window's actions, and the 3D
// view's mouse controls). Each is made here and shown by the caller.
#include <QString>

class QDialog;
class QWidget;

namespace flexarm {

QString aboutText();  // rich text: version, purpose, dependencies and licences
// The user guide: a dialog with one tab per page, rendered from its Markdown, with its headings to jump
// to and a search field.
// With `field_path` (a form field's JSON path, "links[1].flex.rayleigh"), it opens on the project format's
// section about that field (formatSectionFor).
QDialog* makeUserGuide(QWidget* parent, const QString& field_path = {});
// The number of the docs/project-format.md section that documents a JSON path ("3.7" for
// links[1].flex.rayleigh): the most specific section for it; "1" (top level) for a path no section names.
QString formatSectionFor(const QString& path);
// The shortcuts of every action under `window` (menus and toolbars), and the 3D view's mouse controls.
QDialog* makeShortcutsDialog(QWidget* window);

}  // namespace flexarm
