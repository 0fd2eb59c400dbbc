// On stdio, stdout is the JSON-RPC wire: one stray console.log from any dependency corrupts the stream.
// This module is imported first by the package entry, so the redirect is in place before anything else loads.
const toStderr = (...args: unknown[]): void => console.error(...args);
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;

export {};
