/**
 * How a new API key is used from the tools people already run, as the README gives it: an OpenAI
 * connection (base URL and key) and the MCP client configurations (Streamable HTTP and stdio), filled
 * with this API's address and the key.
 */
export interface ConnectSnippets {
  /** The base URL an OpenAI-compatible client (Open WebUI, the `openai` package…) is given. */
  openAiBaseUrl: string;
  /** `mcpServers` JSON for clients that connect to a URL. */
  mcpHttp: string;
  /** `mcpServers` JSON for clients that start a command (Claude Desktop, Cursor); the path is the checkout's. */
  mcpStdio: string;
}

/** Where the stdio command lies in a built checkout, relative to it. */
export const MCP_COMMAND = 'dist/apps/server/apps/server/src/mcp.js';

export function connectSnippets(apiBaseUrl: string, key: string): ConnectSnippets {
  const base = apiBaseUrl.replace(/\/+$/, '');
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return {
    openAiBaseUrl: `${base}/v1`,
    mcpHttp: json({
      mcpServers: { lumina: { url: `${base}/mcp`, headers: { Authorization: `Bearer ${key}` } } },
    }),
    mcpStdio: json({
      mcpServers: {
        lumina: {
          command: 'node',
          args: [`/path/to/lumina/${MCP_COMMAND}`, '--url', base],
          env: { LUMINA_API_KEY: key },
        },
      },
    }),
  };
}
