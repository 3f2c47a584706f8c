#include "junit_report.h"

#include <cstdio>

#include "fluxion/text.h"

namespace fluxion::regress {

std::string JUnitXml(const std::string& suite, const std::vector<const RegressionCase*>& cases,
                     const std::vector<CaseResult>& results) {
  std::size_t failures = 0, errors = 0, skipped = 0;
  double total = 0;
  for (const CaseResult& result : results) {
    total += result.seconds;
    if (result.status == CaseStatus::kSkipped)
      ++skipped;
    else if (result.status == CaseStatus::kMismatch ||
             result.status == CaseStatus::kMissingReference)
      ++failures;
    else if (IsFailure(result.status))
      ++errors;
  }
  const auto seconds = [](double s) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", s);
    return std::string(buffer);
  };
  const std::string counts = " tests=\"" + std::to_string(results.size()) + "\" failures=\"" +
                             std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
                             "\" skipped=\"" + std::to_string(skipped) + "\" time=\"" +
                             seconds(total) + "\"";
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites name=\"scene-regress\"" + counts + ">\n";
  xml += "  <testsuite name=\"" + EscapeXml(suite) + "\"" + counts + ">\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const RegressionCase& c = *cases[i];
    const CaseResult& result = results[i];
    xml += "    <testcase name=\"" + EscapeXml(c.name) + "\" classname=\"" + EscapeXml(suite) +
           "\" file=\"" + EscapeXml(c.scene_as_written) + "\" time=\"" + seconds(result.seconds) +
           "\"";
    if (result.status == CaseStatus::kPass || !IsFailure(result.status)) {
      if (result.status == CaseStatus::kSkipped) {
        xml +=
            ">\n      <skipped message=\"" + EscapeXml(result.summary) + "\"/>\n    </testcase>\n";
      } else {
        xml += "/>\n";
      }
      continue;
    }
    const bool failure =
        result.status == CaseStatus::kMismatch || result.status == CaseStatus::kMissingReference;
    const std::string element = failure ? "failure" : "error";
    xml += ">\n      <" + element + " type=\"" + StatusName(result.status) + "\" message=\"" +
           EscapeXml(c.name + " (" + c.scene_as_written + "): " + result.summary) + "\">" +
           EscapeXml(result.details) + "</" + element + ">\n    </testcase>\n";
  }
  xml += "  </testsuite>\n</testsuites>\n";
  return xml;
}

}  // namespace fluxion::regress
