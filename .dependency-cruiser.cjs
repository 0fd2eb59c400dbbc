// Architecture rules of groundwork, checked by `pnpm depcruise` in CI. Each rule says why it exists and
// what to do instead. Paths are matched both resolved (`packages/mcp-common/dist/…`) and unresolved
// (`@groundwork/mcp-common`), so a rule holds before anything is built.
const path = require('node:path');

const SDK = '@modelcontextprotocol/sdk';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-no-mcp-layer',
      severity: 'error',
      comment:
        'servers/*/src/core is the pure domain and must not know about tools. Why: the core is reused and ' +
        'tested without MCP. Instead: move what the core needs into core/, and let the tool in src/mcp/ call the core.',
      from: { path: '^servers/[^/]+/src/core/' },
      to: { path: '^servers/[^/]+/src/mcp/' },
    },
    {
      name: 'core-imports-no-mcp-scaffolding',
      severity: 'error',
      comment:
        'servers/*/src/core stays free of the MCP scaffolding and SDK. Why: the core must run and be tested ' +
        'without a protocol. Instead: throw a DomainError (or CancelledError, via throwIfAborted) from ' +
        '`@groundwork/mcp-common/domainError`, which the tool runner sends as it is (masked), so no adapter ' +
        'translates it. Only the pure subpaths are allowed: `/domainError` (the one domain error: a core ' +
        'needs it, and it imports nothing), `/masking`, `/files` (a core may take the ' +
        'ConfinedFile/ConfinedDirectory handles its adapter opened) and `/childProcess` (the one way to ' +
        "start a child process) and `/git` (git on a repository nobody vouched for, hardened) and `/tokens` (the one tokenizer, for a core that reports what a text costs) and `/treeSitter` (the one loader of tree-sitter grammars, which the core resolves with its own require). A core's tests (and the helpers in src/testing/) may build those " +
        'handles with AllowedPaths, as the adapter does.',
      from: { path: '^servers/[^/]+/src/core/', pathNot: '\\.test\\.ts$' },
      to: {
        path: [`^(packages/mcp-common/|@groundwork/mcp-common)`, SDK],
        pathNot:
          '^(packages/mcp-common/(dist|src)/(domainError|masking/masking|files/index|git/index|childProcess|answers/tokenCount|treeSitter/grammarLoader)(\\.d)?\\.[jt]s|@groundwork/mcp-common/(domainError|masking|files|git|childProcess|tokens|treeSitter))$',
      },
    },
    {
      name: 'servers-read-files-through-handles',
      severity: 'error',
      comment:
        "A server's tools and cores never open files by path: node:fs is for mcp-common/files alone. Why: a " +
        'path checked and then opened again can be raced (a link or a FIFO swapped in between). Instead: ' +
        'open through ctx.allowedPaths (ConfinedFile, ConfinedDirectory) or ConfinedDirectory.confinedTo and ' +
        'pass the handle down. Listed exceptions, each for a reason: context folderWatch (inotify on walked ' +
        'folders; reads nothing), data partitionSpill (spill files in a temp folder the server made), data ' +
        'dataFile (reopens /proc/self/fd/N of a checked descriptor in a worker), adopt checkoutSteps, ' +
        'gitCredentials and publishSteps (the git working folders and credential files the server creates ' +
        'itself), adopt repoLayout (lists names by path; every read goes through its RepoFiles handle) and build run/ (the scratch folder, init ' +
        'script, event and log spool files the server creates for a build it runs, and the wrapper probe; resolve/ ' +
        'resolveWithBuildTool, the init script and report files in that same scratch folder). ' +
        'Tests (and the helpers in src/testing/, outside core/ and mcp/) may set up trees by path.',
      from: {
        path: '^servers/[^/]+/src/(core|mcp)/',
        pathNot: [
          '\\.test\\.ts$',
          '^servers/context/src/core/folderWatch\\.ts$',
          '^servers/data/src/core/partitionSpill\\.ts$',
          '^servers/data/src/core/sources/dataFile\\.ts$',
          '^servers/adopt/src/core/adopt/(checkoutSteps|gitCredentials|publishSteps)\\.ts$',
          '^servers/adopt/src/core/verify/repoLayout\\.ts$',
          '^servers/build/src/core/run/(runLogs|runBuild|buildCommand)\\.ts$',
          '^servers/build/src/core/resolve/resolveWithBuildTool\\.ts$',
        ],
      },
      to: { dependencyTypes: ['core'], path: '^(node:)?fs(/promises)?$' },
    },
    {
      name: 'test-helpers-only-in-tests',
      severity: 'error',
      comment:
        "A package's unit-test helpers live in its src/testing/ (integration tests keep theirs beside them in " +
        'test/), and only tests import them. Why: one place to look for them, and no test scaffolding in a ' +
        'build. Instead: move what the code needs out of src/testing/ next to the code that uses it.',
      from: { path: '^(servers|packages)/[^/]+/src/', pathNot: ['\\.test\\.ts$', '/src/testing/'] },
      to: { path: '^(servers|packages)/[^/]+/src/testing/' },
    },
    {
      name: 'sdk-only-in-mcp-common-and-testkit',
      severity: 'error',
      comment:
        'Only packages/mcp-common (which translates the tool SPI to the protocol) and packages/mcp-testkit import ' +
        `${SDK}. Why: one place owns the protocol, so an SDK upgrade touches one package. Instead: use ` +
        "defineTool, ToolResult, ToolError and ToolContext from @groundwork/mcp-common. Exception: a server's " +
        'test/ and bench/, and packages/install-test, may import it, because they play the client against the ' +
        'built bin.',
      from: {
        pathNot:
          '^(packages/mcp-common/|packages/mcp-testkit/|packages/install-test/|servers/[^/]+/(test|bench)/)',
      },
      to: { path: SDK },
    },
    {
      name: 'server-imports-no-other-server',
      severity: 'error',
      comment:
        'A server never imports another server. Why: servers are published and versioned on their own. ' +
        'Instead: move what both need into packages/mcp-common (if it is general) or a new package under packages/.',
      from: { path: '^servers/([^/]+)/' },
      to: {
        path: ['^servers/', '^@groundwork/(?!mcp-common|mcp-testkit|tsconfig)'],
        pathNot: ['^servers/$1/', '^@groundwork/$1($|/)'],
      },
    },
    {
      name: 'mcp-common-imports-no-server-or-testkit',
      severity: 'error',
      comment:
        'packages/mcp-common is the foundation: it imports no server and not the testkit. Why: every server ' +
        'depends on it, so any such import is a cycle between packages. Instead: pass what mcp-common needs in ' +
        "through runServer's ServerSpec or a tool's definition.",
      from: { path: '^packages/mcp-common/' },
      to: { path: ['^servers/', '^packages/mcp-testkit/', '^@groundwork/(?!mcp-common|tsconfig)'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No circular dependencies. Why: cycles make load order matter and modules impossible to test alone. ' +
        'Instead: move the shared piece into a third module both import. A cycle closed only by a type-only ' +
        'import is allowed: it is erased at build, so it orders no loading.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    // Built output and installed packages are reported as import targets (so the rules see them) but not
    // cruised themselves.
    doNotFollow: { path: '(^|/)(node_modules|dist)/' },
    // Fixture trees hold deliberately odd code (import cycles, other languages) that tests read as data.
    exclude: { path: '(^|/)(bench-data|coverage|\\.turbo|\\.tmp)/|(^|/)test/fixtures/' },
    tsPreCompilationDeps: true,
    // Any package's tsconfig will do (each extends the one base): its NodeNext resolution maps `./x.js`
    // imports onto `./x.ts` sources. (The base itself has no inputs, which TypeScript refuses.)
    tsConfig: { fileName: path.join(__dirname, 'packages/mcp-common/tsconfig.json') },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
