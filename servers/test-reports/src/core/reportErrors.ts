// Domain errors of the test-reports server: a stable code and a message that says what to do. The tool
// runner sends them as they are (masked).
import { DomainError } from '@groundwork/mcp-common/domainError';

/** Nothing under the searched path looked like a test report. */
export class NoReportsFoundError extends DomainError {
  constructor(searched: string, patterns: readonly string[]) {
    super(
      'NO_REPORTS_FOUND',
      `No test reports found at '${searched}' (searched for ${patterns.join(', ')}). Run the tests with a report enabled (e.g. pytest --junitxml, jest --json, go test -json) or pass the report file or its directory.`,
    );
  }
}

/** One report could not be read; reported beside the results of the reports that could. */
export class ReportParseError extends DomainError {
  constructor(message: string) {
    super('REPORT_UNPARSABLE', message);
  }
}

export class FailureNotFoundError extends DomainError {
  constructor(id: string) {
    super(
      'FAILURE_NOT_FOUND',
      `No failure with id '${id}' in these reports; call list_failures with the same path for the current ids.`,
    );
  }
}
