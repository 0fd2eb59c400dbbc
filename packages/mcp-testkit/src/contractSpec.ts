// What a server tells the transport contract about itself, and the connection each transport provides.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface TransportContractSpec {
  /** The name the server reports at initialize, e.g. `groundwork-data`. */
  serverName: string;
  /** Absolute path to the built `dist/bin.js`. */
  bin: string;
  clientName: string;
  /** Passed as `--allowed-dir`; the sample call's paths resolve against it. */
  allowedDir: string;
  /** A call that must succeed; one of its tool's required arguments is omitted to provoke an error. */
  sampleCall: ToolCall;
  /**
   * A call of every tool the server lists, each answered without error: the contract checks that each text
   * block is its structuredContent as JSON and fits the default answer.
   */
  everyToolCall?: ToolCall[];
  /** Extra environment for every server process. */
  env?: Record<string, string>;
  /**
   * A call that runs for seconds unless cancelled (proves cancellation reaches `ctx.signal`). A server that
   * caches what a call computed gives a function instead: each use then gets a call on a fresh target.
   */
  slowCall?: ToolCall | (() => ToolCall);
  /**
   * A quick call to a tool that may run as a task (`taskSupport: 'optional'`): run as a task,
   * its result must equal the plain call's. Defaults to `sampleCall`.
   */
  taskCall?: ToolCall;
  /**
   * Sample arguments per prompt: every prompt the server lists is rendered with its entry (none: no
   * arguments), so each prompt with a required argument needs one. Paths resolve against `allowedDir`.
   */
  promptArguments?: Record<string, Record<string, string>>;
  /** Completions that must offer values in the fixture: one per completable prompt argument. */
  completionSamples?: CompletionSample[];
}

export interface CompletionSample {
  prompt: string;
  argument: string;
  /** What the user has typed (e.g. a prefix of a fixture file name). */
  value: string;
  /** The prompt's other arguments already filled in (e.g. the file whose columns are offered). */
  arguments?: Record<string, string>;
  /** One value the completion must offer. */
  offers: string;
  /** A path argument: values that lead outside `allowedDir` (`../`, `/etc/`…) must offer nothing. */
  path?: boolean;
}

/** The slow call for one use (a fresh one each time when the spec gives a function). */
export function nextSlowCall(spec: TransportContractSpec): ToolCall | undefined {
  return typeof spec.slowCall === 'function' ? spec.slowCall() : spec.slowCall;
}

export type ContractTransport = 'stdio' | 'streamable-http' | 'stateless-http';

export interface Connection {
  client: Client;
  /** Everything the server process has written to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** What came back for one raw message: its replies (a batch answer flattened) and, over HTTP, the status. */
export interface RawAnswer {
  status?: number;
  replies: unknown[];
}

/** An initialized connection written to byte for byte (a stdio line, an HTTP POST body). */
export interface RawWire {
  send(raw: string): Promise<RawAnswer>;
  /** Everything the server process has written to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** How the shared suite reaches a server over one transport. */
export interface TransportHarness {
  transport: ContractTransport;
  /** Opens an initialized raw connection for malformed and hostile messages. */
  openRawWire(): Promise<RawWire>;
  connect(): Promise<Connection>;
  /** The raw JSON-RPC response to an initialize request, parsed but not validated. */
  rawInitialize(): Promise<unknown>;
  /** Starts `call` and returns a function that cancels it the way this transport allows. */
  startCancellable(connection: Connection, call: ToolCall): { cancel(): void; settled: Promise<unknown> };
}

/** The server's arguments every contract process gets. */
export function baseArgs(spec: TransportContractSpec): string[] {
  return ['--allowed-dir', spec.allowedDir];
}

/**
 * The environment every contract process gets: the server's own, with debug logging, so that tests wait
 * for the "tool call started" line instead of sleeping.
 */
export function contractEnv(
  spec: TransportContractSpec,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { ...spec.env, GROUNDWORK_LOG_LEVEL: 'debug', ...extra };
}
