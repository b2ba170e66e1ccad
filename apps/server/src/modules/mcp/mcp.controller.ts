import { Controller, Delete, Get, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { errorBody } from '../../common/errors/error-body';
import { CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { InProcessLumina } from './in-process-lumina';
import { createLuminaMcpServer } from './lumina-tools';

const ONLY_POST =
  'This MCP endpoint is stateless (Streamable HTTP without sessions): send each JSON-RPC message with ' +
  'POST /mcp. It keeps no session to delete and opens no event stream to listen on.';

/**
 * Lumina's MCP server over Streamable HTTP, stateless: each POST gets a new MCP server and transport,
 * bound to the request's principal (the global AuthGuard has run: no key, no MCP), which end with the
 * response. Not in the OpenAPI document: its body is JSON-RPC, described by the MCP specification and
 * listed by `tools/list` (README: "Use it from your editor or assistant").
 */
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  private readonly logger = new Logger(McpController.name);

  constructor(private readonly lumina: InProcessLumina) {}

  @Post()
  async post(
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const server = createLuminaMcpServer(this.lumina.as(principal), {
      baseUrl: `${request.protocol}://${request.get('host')}`,
      onUnexpected: (error) => this.logger.error({ msg: 'MCP tool failed', err: error }),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    // A client that leaves also aborts the tool it was waiting for (the SDK aborts its signal on close).
    response.on('close', () => {
      transport.close().catch(() => undefined);
      server.close().catch(() => undefined);
    });
    try {
      await server.connect(transport);
      // express.json() has read the body already: the transport takes it parsed.
      await transport.handleRequest(request, response, request.body);
    } catch (error) {
      this.logger.error({ msg: 'MCP request failed', err: error });
      if (!response.headersSent) {
        response.status(500).json({
          jsonrpc: '2.0',
          error: { code: -32603, message: 'Internal server error' },
          id: null,
        });
      }
    }
  }

  @Get()
  get(@Res() response: Response): void {
    methodNotAllowed(response);
  }

  @Delete()
  remove(@Res() response: Response): void {
    methodNotAllowed(response);
  }
}

function methodNotAllowed(response: Response): void {
  response
    .status(405)
    .setHeader('Allow', 'POST')
    .json(errorBody(405, 'Method Not Allowed', ONLY_POST, 'invalid_request'));
}
