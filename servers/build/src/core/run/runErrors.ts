// The refusals of the tools that run a build: the one BuildError, each with a stable code and a message saying
// what to do.
import { BuildError } from '../buildError.js';

/** The operator did not start the server with --allow-build-execution. */
export class BuildExecutionNotAllowedError extends BuildError {
  constructor(tool: string) {
    super(
      'BUILD_EXECUTION_NOT_ALLOWED',
      `${tool} runs the repository's build, and a build file is code; this server was started without --allow-build-execution (or GROUNDWORK_ALLOW_BUILD_EXECUTION=1), so it runs nothing. The static tools (build_workspace, build_dependencies without resolve, build_why, build_health) answer without running anything.`,
    );
  }
}

/** A wrapper was asked for, but the operator did not allow wrappers, or there is none. */
export class WrapperNotAllowedError extends BuildError {
  constructor(wrapper: string, present: boolean) {
    super(
      'WRAPPER_NOT_ALLOWED',
      present
        ? `'${wrapper}' downloads and runs a build tool distribution; this server was started without --allow-build-wrapper, so it runs the build tool found on PATH. Call again with use_wrapper: false.`
        : `There is no '${wrapper}' in this build; call again with use_wrapper: false to use the build tool on PATH.`,
    );
  }
}

/** A task or goal name that could be read as an option (it would let a call turn the network back on). */
export class InvalidTaskError extends BuildError {
  constructor(task: string) {
    super(
      'INVALID_ARGUMENT',
      `Invalid argument 'tasks': '${task}' is not a task or goal name (names are letters, digits and . _ - : / @, and never start with '-'; options are arguments of their own).`,
    );
  }
}

/** The build tool is not on the server's PATH. */
export class BuildToolMissingError extends BuildError {
  constructor(tool: string, system: string) {
    super(
      'BUILD_TOOL_MISSING',
      `'${tool}' is not installed or not on the server's PATH, so this ${system} build cannot run. Install it where the server runs (or allow the build's wrapper with --allow-build-wrapper and pass use_wrapper: true).`,
    );
  }
}

/** No run with this id is kept (never made, or dropped as older runs are). */
export class UnknownRunError extends BuildError {
  constructor(run: string) {
    super(
      'RUN_NOT_FOUND',
      `No run '${run}' is kept by this server (runs are kept until the server stops, the oldest dropped first); call build_run again for a new run id.`,
    );
  }
}
