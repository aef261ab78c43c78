/**
 * An assistant tool is a table entry, like a REST route: its name, what an assistant reads about it, and the one
 * GraphQL operation it runs in-process with the token's caller (same rules, metering and errors as /graphql and
 * /api/v1). Its input schema is read from the operation's variables (schema.ts).
 */

/** The typed result of the operation's single root field (`__typename` always selected). */
export type ToolResult = { __typename: string; [field: string]: any };

export interface ToolDefinition {
  /** snake_case, what the assistant calls. */
  name: string;
  title: string;
  /** What the tool does and when to use it, written for the assistant that chooses it. */
  description: string;
  /** One operation with exactly one root field; may spread the fragments of src/rest/fragments.ts. */
  document: string;
  /** Changes data: needs a `read_write` token. Hidden from `read` tokens' tool list; called anyway, refused. */
  write: boolean;
  /**
   * Arguments the tool requires although GraphQL leaves them nullable (the deal tools: what their surface's rules
   * require); listed as required in the input schema, and a call without one is refused naming it.
   */
  required?: readonly string[];
  /** Descriptions of the arguments when they are the operation's variables (not the fields of one `input`). */
  arguments?: Readonly<Record<string, string>>;
  /** The answer the assistant gets on success; default: the result without `__typename`. */
  answer?: (result: ToolResult) => unknown;
  /**
   * Written against GraphQL fields another module is adding: when its document does not validate against the
   * schema the tool is left out with a log line instead of stopping the boot. Remove once those fields exist.
   */
  provisional?: boolean;
}

export function defineTool(tool: ToolDefinition): ToolDefinition {
  return tool;
}

/** The result without GraphQL's `__typename`. */
export function plain(result: ToolResult): Record<string, unknown> {
  const { __typename, ...rest } = result;
  return rest;
}
