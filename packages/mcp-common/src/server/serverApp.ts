// What a running server is, whatever transport or protocol revision serves it: built once at start-up and
// shared by every session and every request.
import type { AllowedPaths } from '../files/allowedPaths.js';
import type { Limits } from '../limits/limits.js';
import type { Logger } from '../logger.js';
import type { PromptCatalog } from '../prompts/promptCatalog.js';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import type { ToolRegistry } from '../tools/toolRegistry.js';

export interface ServerApp {
  name: string;
  version: string;
  instructions?: string;
  registry: ToolRegistry;
  allowedPaths: AllowedPaths;
  logger: Logger;
  /** The server's MCP_USAGE.md, offered as a resource. */
  usage?: string;
  limits: Limits;
  /** The server's switches the operator turned on (absent: none). */
  switches?: ReadonlySet<string>;
  /** The server's prompts and their completers (absent: none). */
  prompts?: PromptCatalog;
  /** The server's Agent Skills (absent: the skills extension is not declared). */
  skills?: SkillCatalog;
}
