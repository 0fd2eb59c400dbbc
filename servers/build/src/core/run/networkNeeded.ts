// Recognises a build that failed because it needed the network while it ran offline, from the tool's own words.

const OFFLINE_MISSES: readonly RegExp[] = [
  // Gradle
  /No cached version of .+ available for offline mode/,
  // Maven
  /Cannot access \S+ in offline mode/,
  /offline mode and the artifact .+ has not been downloaded/,
  /The repository system is offline but the artifact .+ is not available/,
  // npm
  /\bENOTCACHED\b/,
  // go
  /module lookup disabled by GOPROXY=off/,
  /GOPROXY=off/,
  // cargo
  /attempting to make an HTTP request, but --offline was specified/,
  /failed to download .+ offline/i,
  /you're in offline mode/i,
];

/** The first line saying the build needed the network, or undefined. */
export function offlineMiss(line: string): string | undefined {
  return OFFLINE_MISSES.some((pattern) => pattern.test(line)) ? line.trim().slice(0, 500) : undefined;
}
