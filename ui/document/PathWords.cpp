#include "ui/document/PathWords.hpp"

#include <QRegularExpression>
#include <QStringList>

#include "io/ProjectSchema.hpp"

namespace flexarm {
namespace {

// The schema's label of a generic path ("links[].flex.material.E") without the form's explanations
// ("node positions (empty: equal elements)" -> "node positions"), or empty.
QString labelOf(const QString& generic) {
  const std::string g = generic.toStdString();
  for (const schema::Key& k : schema::keys())
    if (k.path == g) return QString::fromUtf8(k.label).section(" (", 0, 0).section(':', 0, 0).trimmed();
  return {};
}

// "link 'upper'" for links[0] of the document (its name, else its number as the tree counts).
QString itemWords(const Json& doc, const QString& array, int index) {
  static const std::map<QString, QString> kinds = {{"links", "link"}, {"joints", "joint"},           {"payloads", "payload"},
                                                   {"loads", "load"}, {"constraints", "constraint"}, {"variants", "variant"}};
  const QString kind = kinds.count(array) ? kinds.at(array) : array;
  const std::string a = array.toStdString();
  if (doc.is_object() && doc.contains(a) && doc[a].is_array() && index < static_cast<int>(doc[a].size())) {
    const Json& item = doc[a][static_cast<std::size_t>(index)];
    if (item.is_object() && item.contains("name") && item["name"].is_string())
      return kind + " '" + QString::fromStdString(item["name"].get<std::string>()) + "'";
  }
  return kind + " " + QString::number(index + 1);
}

}  // namespace

QString pathWords(const Json& doc, const QString& path) {
  static const QRegularExpression item(R"(^(links|joints|payloads|loads|constraints|variants)\[(\d+)\](?:\.(.+))?$)");
  static const QRegularExpression index(R"(\[\d+\])");
  QString generic = path;
  generic.replace(index, "[]");
  QString label = labelOf(generic);
  while (label.isEmpty() && generic.endsWith("[]")) {  // an entry of a list: the list's label
    generic.chop(2);
    label = labelOf(generic);
  }
  if (label.isEmpty()) label = path.section('.', -1).remove(index);
  const QRegularExpressionMatch m = item.match(path);
  if (m.hasMatch()) {
    const QString owner = itemWords(doc, m.captured(1), m.captured(2).toInt());
    return m.captured(3).isEmpty() ? owner : label + " of " + owner;
  }
  if (path.startsWith("simulation.")) return label + " (simulation)";
  return label.isEmpty() ? path : label;
}

QString messageWords(const Json& doc, const QString& message) {
  // A loader path leads a line: letters, digits, _, dots and [n], then ": ".
  static const QRegularExpression lead(R"(^([A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?(?:\.[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?)*): )");
  QStringList lines = message.split('\n');
  for (QString& line : lines) {
    const QRegularExpressionMatch m = lead.match(line);
    if (!m.hasMatch()) continue;
    const QString path = m.captured(1);
    if (!path.contains('.') && !path.contains('[')) continue;  // a word, not a path ("Error: ...")
    line = pathWords(doc, path) + ": " + line.mid(m.capturedLength(0));
  }
  return lines.join('\n');
}

}  // namespace flexarm
