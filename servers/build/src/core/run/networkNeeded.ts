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
  /you're (?:in|using) offline mode/i,
];

/** The first line saying the build needed the network, or undefined. */
export function offlineMiss(line: string): string | undefined {
  return OFFLINE_MISSES.some((pattern) => pattern.test(line)) ? line.trim().slice(0, 500) : undefined;
}

/** How an answer says to allow the network, once a build ran offline and needed it. */
export const OFFLINE_FIX =
  'The build ran offline (the default) and needed something it has not downloaded. Call again with network: true to let the build tool download it.';
