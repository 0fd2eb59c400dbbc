// Credentials committed into agent configuration are reported, masked: the report must not leak them either.
import { findSecrets } from '@groundwork/mcp-common/masking';
import { type FindingSink, lineAt } from './finding.js';

export function checkSecrets(file: string, text: string, sink: FindingSink): void {
  for (const secret of findSecrets(text)) {
    sink.report('secrets/found', file, `A ${secret.kind} (${secret.masked}) is committed in this file.`, {
      line: lineAt(text, secret.index),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the expansion syntax of .mcp.json, not a template
      fix: 'Remove it, revoke it, and reference an environment variable instead (in .mcp.json: `${GITHUB_TOKEN}`).',
    });
  }
}
