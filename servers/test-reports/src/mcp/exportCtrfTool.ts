import { cursorKey, defineTool, fitList, pagingArguments, pathArg, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { ctrfDocument, ctrfTests } from '../core/formats/ctrf/ctrfWriter.js';
import { describeReports, pagedRunOutput, readReportsAt, readsReports } from './reportReading.js';

export const exportCtrfTool = defineTool({
  definition: {
    name: 'export_ctrf',
    title: 'Export as CTRF',
    description:
      'The run at `path`, read from any format (JUnit XML, TAP, Jest/Vitest JSON, go test -json, CTRF), written as a CTRF document (Common Test Report Format, ctrf.io, spec 0.0; valid against its JSON schema): `ctrf` holds the document, with the summary of the whole run and the tests of this page (each with the same id as list_failures). A long run comes in pages: pass `next_cursor` as `cursor` and concatenate `ctrf.results.tests`.',
    input: z.object({
      path: pathArg('A report file or a directory searched for reports.'),
      ...pagingArguments,
    }),
    output: z.object({
      ctrf: z.record(z.string(), z.unknown()).describe('The CTRF document (reportFormat "CTRF").'),
      ...pagedRunOutput,
    }),
    ...readsReports,
  },
  async apply(args, ctx) {
    const { run } = await readReportsAt(args.path, ctx, { details: true });
    const tests = ctrfTests(run);
    const now = new Date();
    const reports = describeReports(run, ctx);
    const { answer } = await fitList(tests, {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: cursorKey({ tool: 'export_ctrf', path: args.path, tests: tests.length }),
      frame: (page, paging) => ({
        ctrf: ctrfDocument(run, page, { generatedBy: 'groundwork-test-reports', now }) as unknown as Record<
          string,
          unknown
        >,
        ...paging,
        ...reports,
      }),
    });
    return ToolResult.success(answer);
  },
});
