import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { ThrottlerException } from '@nestjs/throttler';
import { ApiErrorFilter, UNEXPECTED_ERROR_MESSAGE } from './api-error.filter';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  TooLargeError,
  UnavailableError,
  UnprocessableError,
  UnsupportedError,
} from './domain-errors';

function fakeHost(headersSent = false) {
  const replies: { body: unknown; status: number }[] = [];
  let ended = 0;
  const adapter = {
    isHeadersSent: () => headersSent,
    reply: (_response: unknown, body: unknown, status: number) => replies.push({ body, status }),
    end: () => {
      ended += 1;
    },
  };
  const host = {
    getType: () => 'http',
    getArgByIndex: () => ({}),
    getArgs: () => [{}, {}],
  } as unknown as ArgumentsHost;
  const filter = new ApiErrorFilter();
  (filter as unknown as { httpAdapterHost: HttpAdapterHost }).httpAdapterHost = {
    httpAdapter: adapter,
  } as unknown as HttpAdapterHost;
  // The filter logs the detail; keep the test output quiet.
  (filter as unknown as { logger: { error: () => void } }).logger = { error: () => undefined };
  return { filter, host, replies, ended: () => ended };
}

describe('ApiErrorFilter', () => {
  it('turns an unexpected error into a 500 with a fixed sentence and no internals', () => {
    const { filter, host, replies } = fakeHost();
    filter.catch(new Error('relation "secret_table" does not exist at /srv/app/x.ts:12'), host);
    expect(replies).toEqual([
      {
        status: 500,
        body: {
          statusCode: 500,
          code: 'server_error',
          message: UNEXPECTED_ERROR_MESSAGE,
          error: 'Internal Server Error',
        },
      },
    ]);
  });

  it('keeps HTTP exceptions as they are, with their code added', () => {
    const { filter, host, replies } = fakeHost();
    filter.catch(new BadRequestException('query must not be empty'), host);
    filter.catch(new NotFoundException('Cannot GET /nowhere'), host);
    filter.catch(new ThrottlerException('Too many requests.'), host);
    expect(replies).toEqual([
      {
        status: 400,
        body: {
          statusCode: 400,
          code: 'invalid_request',
          message: 'query must not be empty',
          error: 'Bad Request',
        },
      },
      {
        status: 404,
        body: { statusCode: 404, code: 'not_found', message: 'Cannot GET /nowhere', error: 'Not Found' },
      },
      { status: 429, body: { statusCode: 429, code: 'rate_limited', message: 'Too many requests.' } },
    ]);
  });

  it.each([
    [new InvalidRequestError(['items must be an array']), 400, 'invalid_request', 'Bad Request'],
    [new UnprocessableError('Nothing was stored.'), 422, 'invalid_request', 'Unprocessable Entity'],
    [new NotFoundError('question bank 1 not found'), 404, 'not_found', 'Not Found'],
    [new ConflictError('This is the last active admin key.'), 409, 'conflict', 'Conflict'],
    [new TooLargeError('A file is larger than the upload limit.'), 413, 'too_large', 'Payload Too Large'],
    [new UnsupportedError('Send multipart/form-data.'), 415, 'unsupported', 'Unsupported Media Type'],
    [new UnavailableError('The job queue is not reachable.'), 503, 'unavailable', 'Service Unavailable'],
  ])('answers %p with its status, code and message', (error, status, code, text) => {
    const { filter, host, replies } = fakeHost();
    filter.catch(error, host);
    expect(replies).toEqual([
      { status, body: { statusCode: status, code, message: error.messages, error: text } },
    ]);
  });

  it("adds a domain error's details to the body", () => {
    const { filter, host, replies } = fakeHost();
    const files = [{ file: 'a.pdf', problem: 'a.pdf is encrypted.' }];
    filter.catch(new UnprocessableError('a.pdf is encrypted. Nothing was stored.', { files }), host);
    expect(replies).toEqual([
      {
        status: 422,
        body: {
          statusCode: 422,
          code: 'invalid_request',
          message: 'a.pdf is encrypted. Nothing was stored.',
          error: 'Unprocessable Entity',
          files,
        },
      },
    ]);
  });

  it('only ends a response that already started (an event stream)', () => {
    const { filter, host, replies, ended } = fakeHost(true);
    filter.catch(new Error('boom'), host);
    filter.catch(new NotFoundError('gone'), host);
    expect(replies).toEqual([]);
    expect(ended()).toBe(2);
  });
});

describe('DomainError', () => {
  it('keeps a list of messages for the body and joins them for logs', () => {
    const error = new InvalidRequestError(['a is wrong', 'b is wrong']);
    expect(error.messages).toEqual(['a is wrong', 'b is wrong']);
    expect(error.message).toBe('a is wrong; b is wrong');
    expect(error.name).toBe('InvalidRequestError');
  });

  it('says which failures a retry cannot fix', () => {
    expect(new NotFoundError('gone').permanent).toBe(true);
    expect(new InvalidRequestError('bad').permanent).toBe(true);
    expect(new UnavailableError('down').permanent).toBe(false);
  });
});
