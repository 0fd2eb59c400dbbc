import { createRequire as __groundworkRequire } from 'node:module'; const require = __groundworkRequire(import.meta.url);
var DomainError=class extends Error{code;name="DomainError";constructor(code,message){super(message),this.code=code}},CancelledError=class extends DomainError{name="CancelledError";constructor(message="The request was cancelled."){super("CANCELLED",message)}};function throwIfAborted(signal){if(signal?.aborted)throw new CancelledError}export{DomainError,CancelledError,throwIfAborted};
//# sourceMappingURL=chunk-2JB3OF7T.mjs.map
