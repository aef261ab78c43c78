/** The MCP connections module's public entry, for the AI-assistant endpoint (src/mcp/): record a connection. */
export { cleanClientName, recordConnection } from './service.ts';
