import { createRequire as __groundworkRequire } from 'node:module'; const require = __groundworkRequire(import.meta.url);
import{throwIfAborted}from"./chunk-2JB3OF7T.mjs";var YIELD_EVERY_MS=15,Checkpoint=class{constructor(signal){this.signal=signal}signal;last=performance.now();async pass(){performance.now()-this.last>=YIELD_EVERY_MS&&(await new Promise(resolve=>setImmediate(resolve)),this.last=performance.now()),throwIfAborted(this.signal)}get due(){return performance.now()-this.last>=YIELD_EVERY_MS}};export{Checkpoint};
//# sourceMappingURL=chunk-JZODLZBA.mjs.map
