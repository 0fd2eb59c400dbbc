// Credentials committed into agent configuration are reported, masked: the report must not leak them either.
import { findSecrets } from '@groundwork/mcp-common/masking';
import { type FindingSink, lineLocator } from './finding.js';

export function checkSecrets(file: string, text: string, sink: FindingSink): void {
  const secrets = findSecrets(text);
  if (secrets.length === 0) return;
  const lineAt = lineLocator(text);
  for (const secret of secrets) {
    sink.report('secrets/found', file, `A ${secret.kind} (${secret.masked}) is committed in this file.`, {
      line: lineAt(secret.index),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the expansion syntax of .mcp.json, not a template
      fix: 'Remove it, revoke it, and reference an environment variable instead (in .mcp.json: `${GITHUB_TOKEN}`).',
    });
  }
}
