// zod compiles a parser for each object schema (new Function), decided when the schema is built. A server
// parses a few small messages and arguments per schema, so compiling costs more than it saves — a
// millisecond or two of a cold start (docs/benchmarks.md). Set before any schema is built: index.ts imports
// this module before anything that builds one, and a server's tools import mcp-common before theirs.
import { z } from 'zod';

z.config({ jitless: true });
