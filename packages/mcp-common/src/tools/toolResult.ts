/** What a tool returns: the SPI's own type, translated to the protocol by mcp-common. */
export type ToolResult =
  | { readonly kind: 'success'; readonly value: unknown }
  | { readonly kind: 'error'; readonly message: string };

export const ToolResult = {
  /** A structured value (validated against the tool's output schema when it has one) or plain text. */
  success(value: unknown): ToolResult {
    return { kind: 'success', value };
  },
  /** An expected failure the model should read and act on; the message is masked before it is sent. */
  error(message: string): ToolResult {
    return { kind: 'error', message };
  },
};
