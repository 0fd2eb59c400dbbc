// What a release says about each published server beyond its package.json: a registry description (the
// MCP registry allows 100 characters), the environment variables it reads, and the server.json and MCP
// bundle manifest built from them. The name, version and description come from package.json, the one
// place versions live.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The servers' namespace in the official MCP registry — the one place it is set. The registry lets a
 * publisher use `io.github.<account>/*` after `mcp-publisher login github` (or `github-oidc` in a GitHub
 * Actions workflow) as that GitHub user or organisation, spelt exactly as GitHub spells it (namespaces are
 * case-sensitive), or `<reversed domain>/*` (e.g. `dev.groundwork/*`) after `login dns`/`login http` for
 * that domain. Nothing in this repository names its GitHub owner (no git remote, no `repository` field),
 * so this is the npm scope's name, `groundwork`: set it to the account that publishes before the first
 * `pnpm release --publish` — each package.json's `mcpName` is published with the npm package and an npm
 * version cannot be changed afterwards. `node scripts/release/serverJson.mjs` writes it into every
 * package.json (`mcpName`, which the registry reads to check the npm package is the publisher's) and
 * server.json (`name`); a test fails while they disagree.
 */
export const REGISTRY_NAMESPACE = 'io.github.groundwork';

/** A server's name in the MCP registry: the namespace and the server's folder name, e.g. `…/data`. */
export function mcpNameOf(server) {
  return `${REGISTRY_NAMESPACE}/${path.basename(server.dir)}`;
}

/** The environment every server reads (mcp-common). */
const COMMON_ENV = [
  {
    name: 'GROUNDWORK_LOG_LEVEL',
    description: "The server's own log level on stderr: trace, debug, info (default), warn, error or silent.",
    choices: ['trace', 'debug', 'info', 'warn', 'error', 'silent'],
    default: 'info',
  },
];

/** Read only over HTTP (stdio clients never send a bearer token). */
const HTTP_ENV = [
  {
    name: 'GROUNDWORK_AUTH_TOKEN',
    description: 'Require "Authorization: Bearer <token>" on /mcp.',
    secret: true,
  },
];

export const SERVERS = [
  {
    dir: 'servers/data',
    registryDescription:
      'Exact uniqueness, duplicates, candidate keys and profiles of CSV, Parquet, SQLite, Postgres.',
    defaultPort: 3101,
    env: [
      {
        name: 'DATABASE_URL',
        description:
          "A postgres:// connection URL; tools read it when called with connection_env: 'DATABASE_URL' (any variable name works).",
        secret: true,
      },
      {
        name: 'GROUNDWORK_DATA_MEMORY_MB',
        description:
          'Memory the exact duplicate search may use before it spills to temporary files (default 512).',
        format: 'number',
        default: '512',
      },
    ],
  },
  {
    dir: 'servers/context',
    registryDescription:
      'Code dependency graphs, context bundles under a token budget and exact token counts.',
    defaultPort: 3102,
    env: [],
  },
  {
    dir: 'servers/test-reports',
    registryDescription: 'Failure context from JUnit XML, TAP, Jest/Vitest JSON and go test -json reports.',
    defaultPort: 3103,
    env: [],
  },
  {
    dir: 'servers/adopt',
    registryDescription:
      'Verify and adopt AI-agent conventions (AGENTS.md, CLAUDE.md, skills, .mcp.json) in a repo.',
    defaultPort: 3104,
    env: [
      {
        name: 'GH_TOKEN',
        description:
          'A GitHub token for gh when adopt_repo opens pull requests (or authenticate gh beforehand; not needed for dry runs).',
        secret: true,
      },
    ],
  },
  {
    dir: 'servers/build',
    registryDescription:
      'Build modules, declared dependencies and build health for Gradle, Maven, npm, Go and Cargo.',
    defaultPort: 3105,
    env: [],
  },
];

export async function packageOf(server) {
  return JSON.parse(await readFile(path.join(repoRoot, server.dir, 'package.json'), 'utf8'));
}

export function binOf(pkg) {
  return Object.keys(pkg.bin)[0];
}

/** Every environment variable the server reads, for documentation and the bundle manifest. */
export function environmentOf(server) {
  return [...COMMON_ENV, ...server.env];
}

/** The server.json the official MCP registry takes: the npm package over stdio and over streamable HTTP. */
export function serverJsonOf(server, pkg) {
  const allowedDir = {
    type: 'named',
    name: '--allowed-dir',
    description: 'A directory the tools may read; repeat for more (default: the working directory).',
    format: 'filepath',
    isRepeated: true,
  };
  const environmentVariables = (variables) =>
    variables.map(({ name, description, secret, format, choices, default: fallback }) => ({
      name,
      description,
      ...(format ? { format } : {}),
      ...(fallback ? { default: fallback } : {}),
      ...(secret ? { isSecret: true } : {}),
      ...(choices ? { choices } : {}),
    }));
  const npmPackage = {
    registryType: 'npm',
    registryBaseUrl: 'https://registry.npmjs.org',
    identifier: pkg.name,
    version: pkg.version,
    runtimeHint: 'npx',
  };
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json',
    name: mcpNameOf(server),
    description: server.registryDescription,
    version: pkg.version,
    packages: [
      {
        ...npmPackage,
        transport: { type: 'stdio' },
        packageArguments: [allowedDir],
        environmentVariables: environmentVariables(environmentOf(server)),
      },
      {
        ...npmPackage,
        transport: { type: 'streamable-http', url: `http://127.0.0.1:${server.defaultPort}/mcp` },
        packageArguments: [
          { type: 'named', name: '--transport', value: 'streamable-http', isRequired: true },
          allowedDir,
        ],
        environmentVariables: environmentVariables([...environmentOf(server), ...HTTP_ENV]),
      },
    ],
  };
}

/**
 * The MCP bundle manifest (manifest_version 0.3): the server runs from the bundle's own node_modules
 * through server/index.mjs, which turns the directories Claude Desktop passes into --allowed-dir options.
 */
export function bundleManifestOf(server, pkg, tools) {
  const variables = environmentOf(server);
  const configKey = (name) => name.toLowerCase();
  return {
    manifest_version: '0.3',
    name: binOf(pkg),
    display_name: binOf(pkg),
    version: pkg.version,
    description: server.registryDescription,
    long_description: pkg.description,
    author: { name: 'groundwork' },
    license: pkg.license,
    keywords: ['mcp', 'groundwork'],
    server: {
      type: 'node',
      entry_point: 'server/index.mjs',
      mcp_config: {
        command: 'node',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: placeholders the MCP client substitutes
        args: ['${__dirname}/server/index.mjs', '${user_config.allowed_directories}'],
        env: Object.fromEntries(variables.map(({ name }) => [name, `\${user_config.${configKey(name)}}`])),
      },
    },
    tools: tools.map(({ name, description }) => ({ name, description: firstSentenceOf(description) })),
    compatibility: {
      platforms: [process.platform],
      runtimes: { node: pkg.engines.node },
    },
    user_config: {
      allowed_directories: {
        type: 'directory',
        title: 'Allowed directories',
        description: 'The directories the tools may read (and, for adopt_repo, write in).',
        multiple: true,
        required: true,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder the MCP client substitutes
        default: ['${HOME}'],
      },
      ...Object.fromEntries(
        variables.map(({ name, description, secret, format, default: fallback }) => [
          configKey(name),
          {
            type: format === 'number' ? 'number' : 'string',
            title: name,
            description,
            required: false,
            ...(fallback ? { default: format === 'number' ? Number(fallback) : fallback } : {}),
            ...(secret ? { sensitive: true } : {}),
          },
        ]),
      ),
    },
  };
}

function firstSentenceOf(text = '') {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}
