import './mcp.types.ts';
import './mcp-connections.query.ts';
import './revoke-mcp-connection.mutation.ts';
