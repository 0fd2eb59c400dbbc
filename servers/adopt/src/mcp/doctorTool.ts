// doctor over MCP: resolves the path inside the allowed directories, runs the core's doctor (statically, or
// starting the stdio servers when run_repository_code is true) and pages its findings, servers and effective
// settings into one answer (findings first, errors first), with the counts always whole.
import {
  cursorKey,
  defineTool,
  fitList,
  optionalBoolean,
  optionalBoundedInt,
  pagingArguments,
  pagingOutput,
  pathArg,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import type { DoctorReport, ServerReport } from '../core/doctor/doctor.js';
import type { EffectiveSetting } from '../core/doctor/effectiveSettings.js';
import { byRuleSchema, bySeverity, countByRule, findingSchema } from './findings.js';
import { openRepository } from './repositoryRoot.js';

/** A value is shown as JSON, cut here (a hooks array may be long; the file has it whole). */
const MAX_VALUE_CHARS = 1_000;
const setting = z.object({
  key: z.string().describe('Dotted path of the key, e.g. `permissions.defaultMode`.'),
  value: z.string().describe(`The effective value as JSON (cut at ${MAX_VALUE_CHARS} characters).`),
  files: z
    .array(z.string())
    .describe('Where it comes from; a merged array lists every file that contributes.'),
  why: z.string().describe('Why this value wins (precedence) or how it was merged.'),
  overridden: z
    .array(z.object({ file: z.string(), value: z.string() }))
    .describe('What files of lower precedence set the key to; those values do not apply.'),
});
const server = z.object({
  name: z.string(),
  file: z.string(),
  line: z.number().int(),
  transport: z.enum(['stdio', 'http', 'sse', 'ws', 'unknown']),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  url: z.string().optional(),
  disabled: z.boolean().describe('Listed in disabledMcpjsonServers: Claude Code does not start it.'),
  problems: z
    .array(z.string())
    .describe('What stops it from starting as written (found without starting it).'),
  started: z
    .object({
      status: z.enum(['started', 'failed', 'not-started']),
      reason: z.string().optional(),
      protocol_version: z.string().optional(),
      server_name: z.string().optional(),
      tools: z.array(z.string()).optional().describe('The first 200 tool names it listed.'),
      tools_total: z.number().int().optional().describe('How many tools it listed in all.'),
    })
    .optional()
    .describe('Only with run_repository_code: what the server answered when started.'),
});

type Item =
  | { kind: 'finding'; finding: z.infer<typeof findingSchema> }
  | { kind: 'server'; server: z.infer<typeof server> }
  | { kind: 'setting'; setting: z.infer<typeof setting> };

export const doctorTool = defineTool({
  definition: {
    name: 'doctor',
    title: 'Diagnose Claude Code configuration',
    description:
      "What Claude Code will make of a repository's configuration: the effective project settings across .claude/settings.json and " +
      '.claude/settings.local.json and enabled plugins of its own marketplace (every key, its value, the file it comes from and why it wins; arrays such as permission rules merge), ' +
      'the files it skips or could not read, permission rules that never apply (a deny or ask rule that matches everything an allow does) ' +
      'or add nothing (duplicates, rules covered by wider ones), hooks that never fire or fire more than they say (unknown events, ' +
      'matchers that are invalid, name no tool, or sit on an event that takes none, missing scripts), and .mcp.json servers that cannot ' +
      'start as written (command not on PATH, a missing script, an unset variable without a default, a bad URL). Static and fast by default: ' +
      'nothing from the repository runs. With run_repository_code: true it also starts each stdio server (scrubbed environment, deadline, ' +
      'killed afterwards) and lists its tools. Findings page (errors first), then servers, then settings; `totals` always count everything.',
    input: z.object({
      path: pathArg('The repository root folder.'),
      run_repository_code: optionalBoolean(
        false,
        'RISK: also start each stdio server of .mcp.json (code from the repository) as the server user, with a scrubbed environment ' +
          '(no credentials of the server passed on), its own process group and the deadline below, run initialize and tools/list, and ' +
          'kill it. Off by default: the servers are checked without starting them.',
      ),
      start_timeout_seconds: optionalBoundedInt(
        1,
        120,
        20,
        'With run_repository_code: how long each server may take to answer initialize and tools/list before it is killed.',
      ),
      ...pagingArguments,
    }),
    output: z.object({
      passed: z.boolean().describe('False when any error was found.'),
      totals: z.object({
        errors: z.number().int(),
        warnings: z.number().int(),
        notes: z.number().int(),
        files_checked: z.number().int(),
        servers: z.number().int(),
        settings: z.number().int(),
      }),
      sources: z
        .array(
          z.object({
            scope: z.enum(['local', 'shared', 'plugin']),
            file: z.string(),
            status: z.enum(['applied', 'absent', 'skipped', 'unreadable']),
            note: z.string().optional(),
          }),
        )
        .describe(
          'The settings files of the repository, highest precedence first, and whether Claude Code applies each.',
        ),
      not_read: z.string().describe('The settings sources outside the repository, and how they rank.'),
      by_rule: byRuleSchema,
      findings: z
        .array(findingSchema)
        .describe('This page of the findings: errors, then warnings, then notes.'),
      servers: z.array(server).describe('This page of the .mcp.json servers.'),
      settings: z.array(setting).describe('This page of the effective settings.'),
      ...pagingOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    const { doctor, OUTSIDE_SOURCES } = await import('../core/doctor/doctor.js');
    const root = await openRepository(args.path, ctx);
    let report: DoctorReport;
    try {
      report = await doctor(root, args.path, {
        ...(args.run_repository_code
          ? { startServers: { timeoutMs: args.start_timeout_seconds * 1000, signal: ctx.signal } }
          : {}),
      });
    } finally {
      await root.close();
    }
    const items: Item[] = [
      ...bySeverity(report.findings).map((entry): Item => ({ kind: 'finding', finding: entry })),
      ...report.servers.map((entry): Item => ({ kind: 'server', server: serverEntry(entry) })),
      ...report.settings.map((entry): Item => ({ kind: 'setting', setting: settingEntry(entry) })),
    ];
    const byRule = countByRule(report.findings);
    // A cursor pages the same answer: it is refused once the repository's configuration changed.
    const key = cursorKey({ path: args.path, items: items.map((item) => JSON.stringify(item)) });
    const { answer } = await fitList(items, {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: key,
      frame: (page, paging) => ({
        passed: report.passed,
        totals: { ...report.totals, servers: report.servers.length, settings: report.settings.length },
        sources: report.sources,
        not_read: OUTSIDE_SOURCES,
        by_rule: byRule,
        findings: page.flatMap((item) => (item.kind === 'finding' ? [item.finding] : [])),
        servers: page.flatMap((item) => (item.kind === 'server' ? [item.server] : [])),
        settings: page.flatMap((item) => (item.kind === 'setting' ? [item.setting] : [])),
        ...paging,
      }),
    });
    return ToolResult.success(answer);
  },
});

function json(value: unknown): string {
  return cut(JSON.stringify(value) ?? 'null');
}

/** Repository text, cut to MAX_VALUE_CHARS (one entry must never outgrow a page). */
function cut(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

function settingEntry(entry: EffectiveSetting): z.infer<typeof setting> {
  return {
    key: entry.key,
    value: json(entry.value),
    files: entry.files,
    why: entry.why,
    overridden: entry.overridden.map((lower) => ({ file: lower.file, value: json(lower.value) })),
  };
}

function serverEntry(entry: ServerReport): z.infer<typeof server> {
  const { start } = entry;
  return {
    name: cut(entry.name),
    file: entry.file,
    line: entry.line,
    transport: entry.transport,
    ...(entry.command === undefined
      ? {}
      : { command: cut(entry.command), args: (entry.args ?? []).slice(0, 50).map(cut) }),
    ...(entry.url === undefined ? {} : { url: cut(entry.url) }),
    disabled: entry.disabled,
    problems: entry.problems,
    ...(start === undefined
      ? {}
      : {
          started:
            start.status === 'started'
              ? {
                  status: start.status,
                  protocol_version: start.protocol_version,
                  ...(start.server_name === undefined ? {} : { server_name: start.server_name }),
                  tools: start.tools.slice(0, 200),
                  tools_total: start.tool_count,
                }
              : { status: start.status, reason: start.reason },
        }),
  };
}
