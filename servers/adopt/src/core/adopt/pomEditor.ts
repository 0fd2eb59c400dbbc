// Adds a plugin (or an execution of a plugin already there) to a Maven POM's `project/build/plugins` —
// never `pluginManagement`, which only configures plugins without running them. A small element scanner finds the insertion point, so the rest of the
// file (formatting, comments) is kept byte for byte.

import { DomainError } from '@groundwork/mcp-common/domainError';

interface ElementSpan {
  path: string;
  /** Offset of the `<` of the closing tag. */
  closeStart: number;
  /** Offset just after the opening tag. */
  openEnd: number;
}

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<(\/?)([A-Za-z_][\w.:-]*)((?:"[^"]*"|'[^']*'|[^'">])*?)(\/?)>/g;

export class PomStructureError extends DomainError {
  constructor(message: string) {
    super('POM_UNREADABLE', message);
  }
}

function scanElements(xml: string): ElementSpan[] {
  const spans: ElementSpan[] = [];
  const stack: Array<{ name: string; openEnd: number }> = [];
  for (const match of xml.matchAll(TOKEN)) {
    const name = match[2];
    if (name === undefined) continue;
    const index = match.index ?? 0;
    if (match[1] === '/') {
      const open = stack.pop();
      if (open === undefined || open.name !== name)
        throw new PomStructureError(`pom.xml is not well-formed near </${name}>; fix it before adopting.`);
      spans.push({
        path: [...stack.map((entry) => entry.name), name].join('/'),
        closeStart: index,
        openEnd: open.openEnd,
      });
    } else if (match[4] !== '/') stack.push({ name, openEnd: index + match[0].length });
  }
  if (stack.length > 0) throw new PomStructureError('pom.xml has unclosed elements; fix it before adopting.');
  return spans;
}

/** Whether `project/build/plugins` already holds a plugin whose text contains `marker`. */
export function pomHasPlugin(xml: string, marker: string): boolean {
  const plugins = scanElements(xml).filter((span) => span.path === 'project/build/plugins/plugin');
  return plugins.some((span) => xml.slice(span.openEnd, span.closeStart).includes(marker));
}

/**
 * Adds `executionXml` (one `<execution>`) to the plugin `artifactId` in `project/build/plugins`, so a plugin
 * is never declared twice; undefined when the POM has no such plugin there.
 */
export function addPomExecution(xml: string, artifactId: string, executionXml: string): string | undefined {
  const spans = scanElements(xml);
  const within = (outer: ElementSpan, inner: ElementSpan) =>
    inner.openEnd > outer.openEnd && inner.closeStart < outer.closeStart;
  const plugin = spans.find(
    (span) =>
      span.path === 'project/build/plugins/plugin' &&
      spans.some(
        (child) =>
          child.path === 'project/build/plugins/plugin/artifactId' &&
          within(span, child) &&
          xml.slice(child.openEnd, child.closeStart).trim() === artifactId,
      ),
  );
  if (plugin === undefined) return undefined;
  const execution = indented(executionXml, 5);
  const executions = spans.find(
    (span) => span.path === 'project/build/plugins/plugin/executions' && within(plugin, span),
  );
  if (executions !== undefined) return insertLines(xml, executions.closeStart, `${execution}\n`);
  return insertLines(xml, plugin.closeStart, `        <executions>\n${execution}\n        </executions>\n`);
}

/** Inserts `pluginXml` (one `<plugin>` element) into `project/build/plugins`, creating the parents as needed. */
export function addPomPlugin(xml: string, pluginXml: string): string {
  const spans = scanElements(xml);
  const find = (path: string) => spans.find((span) => span.path === path);
  const plugin = indented(pluginXml, 3);
  const plugins = find('project/build/plugins');
  if (plugins !== undefined) return insertLines(xml, plugins.closeStart, `${plugin}\n`);
  const build = find('project/build');
  if (build !== undefined)
    return insertLines(xml, build.closeStart, `    <plugins>\n${plugin}\n    </plugins>\n`);
  const project = find('project');
  if (project === undefined) throw new PomStructureError('pom.xml has no <project> element.');
  return insertLines(
    xml,
    project.closeStart,
    `  <build>\n    <plugins>\n${plugin}\n    </plugins>\n  </build>\n`,
  );
}

function indented(element: string, depth: number): string {
  return element
    .trim()
    .split('\n')
    .map((line) => '  '.repeat(depth) + line)
    .join('\n');
}

/** Inserts whole lines before the line of a closing tag (or before the tag, when it shares its line). */
function insertLines(xml: string, closeStart: number, lines: string): string {
  const lineStart = xml.lastIndexOf('\n', closeStart - 1) + 1;
  if (xml.slice(lineStart, closeStart).trim() === '')
    return xml.slice(0, lineStart) + lines + xml.slice(lineStart);
  return `${xml.slice(0, closeStart)}\n${lines}${xml.slice(closeStart)}`;
}
