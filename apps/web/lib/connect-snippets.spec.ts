import { connectSnippets } from './connect-snippets';

describe('connectSnippets', () => {
  const snippets = connectSnippets('http://127.0.0.1:3000/', 'lum_secret');

  it('gives an OpenAI client the /v1 base URL of the API', () => {
    expect(snippets.openAiBaseUrl).toBe('http://127.0.0.1:3000/v1');
  });

  it('gives MCP clients the /mcp URL with the key as a Bearer token, as the README does', () => {
    expect(JSON.parse(snippets.mcpHttp)).toEqual({
      mcpServers: {
        lumina: { url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer lum_secret' } },
      },
    });
  });

  it('starts the stdio command with the API address, the key in its environment (not in process listings)', () => {
    const config = JSON.parse(snippets.mcpStdio);
    expect(config.mcpServers.lumina).toEqual({
      command: 'node',
      args: ['/path/to/lumina/dist/apps/server/apps/server/src/mcp.js', '--url', 'http://127.0.0.1:3000'],
      env: { LUMINA_API_KEY: 'lum_secret' },
    });
    expect(config.mcpServers.lumina.args.join(' ')).not.toContain('lum_secret');
  });
});
