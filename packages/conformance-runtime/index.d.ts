/** The Node 22 binary and the conformance CLI it runs. */
export declare function conformanceCommand(): { node: string; cli: string };
